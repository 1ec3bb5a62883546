// Prints HAProxy 2.6's key hashes (chbench/profiles/haproxy_hash.h) of each
// line of standard input, for tests/haproxy_interop.sh to hold against the
// hash converters of a real haproxy: per line, the decimal values of sdbm,
// djb2, wt6 and crc32, each without and with the avalanche modifier (eight
// values, space-separated). A line ends at LF; the LF is not hashed.
#include <iostream>
#include <string>

#include "chbench/profiles/haproxy_hash.h"

int main() {
  using chbench::HaproxyHashFunction;
  constexpr HaproxyHashFunction kFunctions[] = {
      HaproxyHashFunction::kSdbm, HaproxyHashFunction::kDjb2, HaproxyHashFunction::kWt6,
      HaproxyHashFunction::kCrc32};
  std::string line;
  while (std::getline(std::cin, line)) {
    const char* sep = "";
    for (const HaproxyHashFunction f : kFunctions)
      for (const bool avalanche : {false, true}) {
        std::cout << sep << chbench::haproxy_key_hash(f, avalanche, line);
        sep = " ";
      }
    std::cout << '\n';
  }
  return std::cout.good() ? 0 : 1;
}
