#include "chbench/parallel.h"

#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include <atomic>
#include <stdexcept>
#include <vector>

namespace chbench {

ThreadTeam::ThreadTeam(unsigned threads) : threads_(threads) {
  if (threads == 0) throw std::invalid_argument("the thread count must be at least 1");
  control_ =
      std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism, threads);
  arena_ = std::make_unique<tbb::task_arena>(static_cast<int>(threads));
  arena_->initialize();
}

ThreadTeam::~ThreadTeam() = default;

namespace {

void check_shapes(std::span<const uint64_t> key_hashes, std::span<uint32_t> out) {
  if (key_hashes.size() != out.size())
    throw std::invalid_argument("key hashes and owners differ in length");
}

template <class Body>
void for_each_chunk(tbb::task_arena& arena, std::size_t n, Body body) {
  arena.execute([&] {
    tbb::parallel_for(
        tbb::blocked_range<std::size_t>(0, n),
        [&](const tbb::blocked_range<std::size_t>& r) { body(r.begin(), r.end()); },
        tbb::static_partitioner());
  });
}

}  // namespace

void ThreadTeam::owners(const OwnerTable& table, std::span<const uint64_t> key_hashes,
                        std::span<uint32_t> out) {
  check_shapes(key_hashes, out);
  for_each_chunk(*arena_, key_hashes.size(), [&](std::size_t b, std::size_t e) {
    table.owners(key_hashes.subspan(b, e - b), out.subspan(b, e - b));
  });
}

unsigned ThreadTeam::owners_counting_threads(const OwnerTable& table,
                                             std::span<const uint64_t> key_hashes,
                                             std::span<uint32_t> out) {
  check_shapes(key_hashes, out);
  std::vector<std::atomic<bool>> seen(threads_ + 1);
  for_each_chunk(*arena_, key_hashes.size(), [&](std::size_t b, std::size_t e) {
    const int slot = tbb::this_task_arena::current_thread_index();
    if (slot >= 0 && static_cast<unsigned>(slot) < seen.size()) seen[slot] = true;
    table.owners(key_hashes.subspan(b, e - b), out.subspan(b, e - b));
  });
  unsigned ran = 0;
  for (const auto& s : seen) ran += s.load() ? 1 : 0;
  return ran;
}

}  // namespace chbench
