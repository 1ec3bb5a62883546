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

inline constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;

// Requests transparent huge pages for the whole 2 MiB pages within `bytes`
// bytes from `p` (none when the range holds no whole one), for memory not
// touched yet: filling it then takes one page fault per 2 MiB instead of one
// per 4 KiB (on a VM, about 13 µs each). Advisory: a failure, or a system
// without madvise(MADV_HUGEPAGE), leaves the memory as it was. Never throws.
inline void advise_huge_pages([[maybe_unused]] void* p,
                              [[maybe_unused]] std::size_t bytes) noexcept {
#ifdef MADV_HUGEPAGE
  const auto begin = reinterpret_cast<std::uintptr_t>(p);
  const std::uintptr_t first = (begin + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  const std::uintptr_t last = (begin + bytes) / kHugePageBytes * kHugePageBytes;
  if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
#endif
}

// The least array reserve_huge advises: above glibc's largest dynamic mmap
// threshold (32 MiB on 64-bit systems), so that malloc gives the array a mapping
// of its own, unmapped when it is freed, and the advice cannot outlive it
// into a later allocation at the same addresses (a kernel's table copied
// there would then be timed on huge pages it never asked for).
inline constexpr std::size_t kHugeAdviceMinBytes = std::size_t{40} << 20;

// v.reserve(count), with advise_huge_pages over the new capacity when v had
// none (its memory not touched yet) and it is kHugeAdviceMinBytes or more.
// For build-time arrays that no kernel times (a kernel's timed table keeps
// the pages its own layout asks for). Throws as std::vector::reserve.
template <class Vector>
void reserve_huge(Vector& v, std::size_t count) {
  const bool fresh = v.capacity() == 0;
  v.reserve(count);
  const std::size_t bytes = v.capacity() * sizeof(*v.data());
  if (fresh && bytes >= kHugeAdviceMinBytes) advise_huge_pages(v.data(), bytes);
}

// `count` uninitialised elements of a trivially copyable T, aligned to 64 bytes
// (2 MiB, with huge pages requested, from 2 MiB up). Throws std::bad_alloc.
template <class T>
TableArray<T> allocate_table(std::size_t count) {
  static_assert(std::is_trivially_copyable_v<T>);
  if (count > (~std::size_t{0} - kHugePageBytes) / sizeof(T)) throw std::bad_alloc();
  const std::size_t bytes = count * sizeof(T);
  const std::size_t align = bytes >= kHugePageBytes ? kHugePageBytes : 64;
  const std::size_t rounded = (bytes + align - 1) / align * align;
  void* p = std::aligned_alloc(align, rounded == 0 ? align : rounded);
  if (!p) throw std::bad_alloc();
  if (align == kHugePageBytes) advise_huge_pages(p, rounded);
  return TableArray<T>(static_cast<T*>(p));
}

}  // namespace chbench
