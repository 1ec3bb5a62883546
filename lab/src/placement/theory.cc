#include "placement/theory.h"

#include <cmath>

namespace chbench::lab {

double ring_share_std_theory(uint64_t n, uint64_t v) {
  const double nd = static_cast<double>(n);
  return std::sqrt((nd - 1) / (nd * static_cast<double>(v) + 1));
}

double key_share_std_theory(uint64_t n, uint64_t v, uint64_t k) {
  const double nd = static_cast<double>(n);
  const double circle = v == 0 ? 0.0 : (nd - 1) / (nd * static_cast<double>(v) + 1);
  return std::sqrt(circle + (nd - 1) / static_cast<double>(k));
}

double ring_busiest_theory_v1(uint64_t n) {
  double h = 0;
  for (uint64_t i = n; i >= 1; --i) h += 1.0 / static_cast<double>(i);
  return h;
}

}  // namespace chbench::lab
