#include "chbench/memory.h"

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

}  // namespace chbench
