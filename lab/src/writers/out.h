// The output side every writer shares: buffered stdout and the number
// formats of the reports.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>
#include <string_view>

namespace chbench::lab {

// Buffered stdout: one fwrite per megabyte. Writers append to buffer() and
// call maybe_flush() in long loops. When an exception unwinds, what is left in
// the buffer is dropped rather than printed.
class Out {
 public:
  Out() : exceptions_(std::uncaught_exceptions()) {}
  ~Out() {
    if (std::uncaught_exceptions() == exceptions_) flush();
  }
  Out(const Out&) = delete;
  Out& operator=(const Out&) = delete;

  Out& operator<<(std::string_view s) {
    buf_.append(s);
    maybe_flush();
    return *this;
  }
  Out& operator<<(char c) {
    buf_.push_back(c);
    return *this;
  }
  std::string& buffer() { return buf_; }
  void maybe_flush() {
    if (buf_.size() >= (std::size_t{1} << 20)) flush();
  }
  void flush() {
    if (!buf_.empty()) std::fwrite(buf_.data(), 1, buf_.size(), stdout);
    buf_.clear();
  }

 private:
  int exceptions_;
  std::string buf_;
};

// printf into a std::string (at most 255 bytes).
template <class... Args>
std::string fmt(const char* format, Args... args) {
  char buf[256];
  const int n = std::snprintf(buf, sizeof buf, format, args...);
  return std::string(buf, static_cast<std::size_t>(std::clamp(n, 0, int{sizeof buf} - 1)));
}

// RFC 4180: appends `field`, quoted when it holds a comma, quote, CR or LF,
// with its quotes doubled.
void append_csv(std::string& out, std::string_view field);

// "12.345%": a fraction as a percentage with three decimals.
std::string pct(double fraction);

// a / b, and 0 for b = 0.
double ratio(uint64_t a, uint64_t b);

// x in the fewest significant digits, at least 4, that read back as x
// ("0.3", "0.99999", never "1" for a value below 1).
std::string shortest(double x);

}  // namespace chbench::lab
