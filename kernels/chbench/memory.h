// Arrays for lookup tables: cache-line aligned, and backed by transparent huge
// pages when large, so that random probes into a table of many megabytes miss
// the TLB far less often (Linux madvise(MADV_HUGEPAGE); elsewhere a no-op).
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <string>
#include <type_traits>

namespace chbench {

struct FreeDeleter {
  void operator()(void* p) const noexcept { std::free(p); }
};

template <class T>
using TableArray = std::unique_ptr<T[], FreeDeleter>;

// Bytes of memory the machine can still give (MemAvailable of /proc/meminfo),
// or 0 when unknown. Tools compare their estimates with it to refuse work that
// would not fit before allocating anything. Never throws.
uint64_t available_memory_bytes() noexcept;

// The memory guard of the bench and the lab: "" when `bytes` fit in 90 % of
// available_memory_bytes() (a tenth is left for the process itself and the
// rest of the machine) or the available memory is unknown; otherwise the end
// of a refusal, " would need about 12.3 GiB, more than 90% of the 15.2 GiB of
// memory available", for the caller to put after what it refuses. Throws
// std::bad_alloc only.
std::string memory_shortfall(uint64_t bytes);

// `count` uninitialised elements of a trivially copyable T, aligned to 64 bytes
// (2 MiB, with huge pages requested, from 2 MiB up). Throws std::bad_alloc.
template <class T>
TableArray<T> allocate_table(std::size_t count) {
  static_assert(std::is_trivially_copyable_v<T>);
  constexpr std::size_t kHuge = std::size_t{2} << 20;
  if (count > (~std::size_t{0} - kHuge) / sizeof(T)) throw std::bad_alloc();
  const std::size_t bytes = count * sizeof(T);
  const std::size_t align = bytes >= kHuge ? kHuge : 64;
  const std::size_t rounded = (bytes + align - 1) / align * align;
  void* p = std::aligned_alloc(align, rounded == 0 ? align : rounded);
  if (!p) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
  if (align == kHuge) madvise(p, rounded, MADV_HUGEPAGE);  // advisory; failure is harmless
#endif
  return TableArray<T>(static_cast<T*>(p));
}

}  // namespace chbench
