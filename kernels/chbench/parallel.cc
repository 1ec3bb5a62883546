#include "chbench/parallel.h"

#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>
#include <time.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

namespace chbench {

namespace {

// The process-wide arenas and the parallelism limit above them. Never
// destroyed: worker threads may still be leaving an arena at exit.
struct Registry {
  std::mutex mutex;
  std::unique_ptr<tbb::global_control> control;
  unsigned limit = 0;
  std::map<unsigned, std::unique_ptr<tbb::task_arena>> arenas;
};

Registry& registry() {
  static Registry* r = new Registry;
  return *r;
}

tbb::task_arena& arena_for(unsigned threads) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  // The limit is never set below the hardware threads, and only ever raised.
  const unsigned limit = std::max(threads, std::thread::hardware_concurrency());
  if (limit > r.limit) {
    r.control.reset();
    r.control =
        std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism, limit);
    r.limit = limit;
  }
  auto& arena = r.arenas[threads];
  if (!arena) {
    arena = std::make_unique<tbb::task_arena>(static_cast<int>(threads));
    arena->initialize();
  }
  return *arena;
}

}  // namespace

ThreadTeam::ThreadTeam(unsigned threads) : threads_(threads), arena_(nullptr) {
  if (threads == 0) throw std::invalid_argument("the thread count must be at least 1");
  arena_ = &arena_for(threads);
  seen_ = std::make_unique<std::atomic<bool>[]>(threads + 1);
  cpu_ns_ = std::make_unique<std::atomic<uint64_t>[]>(threads + 1);
  reset_threads_seen();
}

ThreadTeam::~ThreadTeam() = default;

namespace {

void check_shapes(std::span<const uint64_t> key_hashes, std::span<uint32_t> out) {
  if (key_hashes.size() != out.size())
    throw std::invalid_argument("key hashes and owners differ in length");
}

uint64_t thread_cpu_ns() noexcept {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000u + static_cast<uint64_t>(ts.tv_nsec);
}

}  // namespace

void ThreadTeam::owners(const OwnerTable& table, std::span<const uint64_t> key_hashes,
                        std::span<uint32_t> out) {
  check_shapes(key_hashes, out);
  arena_->execute([&] {
    tbb::parallel_for(
        tbb::blocked_range<std::size_t>(0, key_hashes.size()),
        [&](const tbb::blocked_range<std::size_t>& r) {
          const int slot = tbb::this_task_arena::current_thread_index();
          const bool in_range = slot >= 0 && static_cast<unsigned>(slot) <= threads_;
          if (in_range) seen_[slot].store(true, std::memory_order_relaxed);
          const uint64_t start = count_cpu_ && in_range ? thread_cpu_ns() : 0;
          table.owners(key_hashes.subspan(r.begin(), r.size()), out.subspan(r.begin(), r.size()));
          if (start != 0)
            cpu_ns_[slot].fetch_add(thread_cpu_ns() - start, std::memory_order_relaxed);
        },
        tbb::static_partitioner());
  });
}

unsigned ThreadTeam::owners_counting_threads(const OwnerTable& table,
                                             std::span<const uint64_t> key_hashes,
                                             std::span<uint32_t> out) {
  reset_threads_seen();
  owners(table, key_hashes, out);
  return threads_seen();
}

unsigned ThreadTeam::threads_seen() const noexcept {
  unsigned ran = 0;
  for (unsigned i = 0; i <= threads_; ++i) ran += seen_[i].load() ? 1 : 0;
  return ran;
}

void ThreadTeam::reset_threads_seen() noexcept {
  for (unsigned i = 0; i <= threads_; ++i) {
    seen_[i].store(false);
    cpu_ns_[i].store(0);
  }
}

std::vector<uint64_t> ThreadTeam::cpu_ns_per_slot() const {
  std::vector<uint64_t> out(threads_ + 1);
  for (unsigned i = 0; i <= threads_; ++i) out[i] = cpu_ns_[i].load();
  return out;
}

}  // namespace chbench
