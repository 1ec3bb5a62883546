#include "chbench/memory.h"

#include <cstdio>
#include <fstream>
#include <string>

namespace chbench {

uint64_t available_memory_bytes() noexcept {
  try {
    std::ifstream meminfo("/proc/meminfo");
    std::string key, unit;
    uint64_t kib = 0;
    while (meminfo >> key >> kib >> unit)
      if (key == "MemAvailable:") return kib * 1024;
  } catch (...) {  // a stream or allocation failure: unknown
  }
  return 0;
}

std::string memory_shortfall(uint64_t bytes) {
  const uint64_t available = available_memory_bytes();
  if (available == 0 || bytes <= available / 10 * 9) return {};
  char msg[160];
  std::snprintf(msg, sizeof msg,
                " would need about %.1f GiB, more than 90%% of the %.1f GiB of memory available",
                static_cast<double>(bytes) / (1 << 30), static_cast<double>(available) / (1 << 30));
  return msg;
}

}  // namespace chbench
