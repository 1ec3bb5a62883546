// Running a kernel over a batch with oneTBB, as docs/spec.md §11 fixes it.
#pragma once

#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "chbench/scheme.h"

namespace chbench {

// A fixed team of threads for timed runs: a tbb::task_arena of `threads` slots
// under a tbb::global_control that allows at least that much parallelism (an
// arena alone may run fewer threads than asked). Arenas live for the whole
// process, one per thread count, and teams share them: with oneTBB 2021.8 a
// worker does not join an arena created right after another was destroyed, so
// fresh arenas per configuration ran one thread where two were asked.
// Build a team outside the timed loop. Throws std::invalid_argument if
// threads == 0.
class ThreadTeam {
 public:
  explicit ThreadTeam(unsigned threads);
  ~ThreadTeam();
  ThreadTeam(const ThreadTeam&) = delete;
  ThreadTeam& operator=(ThreadTeam&&) = delete;
  ThreadTeam& operator=(const ThreadTeam&) = delete;

  unsigned requested() const noexcept { return threads_; }

  // Splits the batch into equal contiguous chunks, one per thread
  // (tbb::static_partitioner), and calls table.owners on each. Shapes as
  // OwnerTable::owners; throws std::invalid_argument if the sizes differ.
  void owners(const OwnerTable& table, std::span<const uint64_t> key_hashes,
              std::span<uint32_t> out);

  // Like owners() after reset_threads_seen(), and returns threads_seen().
  unsigned owners_counting_threads(const OwnerTable& table, std::span<const uint64_t> key_hashes,
                                   std::span<uint32_t> out);

  // How many distinct threads ran a chunk in owners() since the last reset (0
  // if no chunk ran, e.g. only empty batches): the thread count that actually
  // ran, to be recorded beside the requested one. Not for use while owners()
  // runs on another thread.
  unsigned threads_seen() const noexcept;
  // Also clears the CPU times below.
  void reset_threads_seen() noexcept;

  // From now on (off by default), owners() also adds to its arena slot the
  // CPU time each chunk's thread spent in table.owners(): two
  // clock_gettime(CLOCK_THREAD_CPUTIME_ID) per chunk, a system call each on
  // some kernels (about a microsecond in a VM), so only for batches of many
  // keys. Set it before owners() runs, not while.
  void count_cpu_time(bool on) noexcept { count_cpu_ = on; }
  // Nanoseconds of CPU time per arena slot (requested() + 1 entries; slot 0
  // is the thread that called owners()) since the last reset, 0 for a slot
  // that ran no chunk or when count_cpu_time is off. Not for use while
  // owners() runs on another thread.
  std::vector<uint64_t> cpu_ns_per_slot() const;

 private:
  unsigned threads_;
  tbb::task_arena* arena_;                           // owned by the process-wide registry
  std::unique_ptr<std::atomic<bool>[]> seen_;        // per arena slot, threads_ + 1
  std::unique_ptr<std::atomic<uint64_t>[]> cpu_ns_;  // per arena slot, threads_ + 1
  bool count_cpu_ = false;
};

}  // namespace chbench
