#include "writers/out.h"

#include <cstdlib>

namespace chbench::lab {

void append_csv(std::string& out, std::string_view field) {
  if (field.find_first_of(",\"\r\n") == std::string_view::npos) {
    out.append(field);
    return;
  }
  out.push_back('"');
  for (char c : field) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  out.push_back('"');
}

std::string pct(double fraction) { return fmt("%.3f%%", 100.0 * fraction); }

double ratio(uint64_t a, uint64_t b) {
  return b == 0 ? 0.0 : static_cast<double>(a) / static_cast<double>(b);
}

std::string shortest(double x) {
  for (int digits = 4; digits < 17; ++digits) {
    std::string s = fmt("%.*g", digits, x);
    if (std::strtod(s.c_str(), nullptr) == x) return s;
  }
  return fmt("%.17g", x);
}

}  // namespace chbench::lab
