// Inside the placement measurements: keys hashed and looked up in parallel
// blocks on oneTBB, in the current task arena.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <span>

#include "chbench/profiles/profiles.h"
#include "keys.h"

namespace chbench::lab {

// Keys per block: the hashes and both owner arrays of a block (32 KiB) stay in
// L1/L2 while the kernels run, and 10^7 keys still make thousands of tasks.
inline constexpr uint64_t kBlock = 2048;

// Runs body(first, hashes) over keys [begin, end) in blocks of kBlock, in
// parallel; `hashes` holds the key hashes of keys first ... first + size - 1.
template <class Body>
void for_each_block(const KeySet& keys, uint64_t begin, uint64_t end,
                    std::optional<Profile> profile, const Body& body) {
  const uint64_t blocks = (end - begin + kBlock - 1) / kBlock;
  tbb::parallel_for(tbb::blocked_range<uint64_t>(0, blocks), [&](const auto& range) {
    std::array<uint64_t, kBlock> hashes;
    for (uint64_t b = range.begin(); b != range.end(); ++b) {
      const uint64_t first = begin + b * kBlock;
      const std::span<uint64_t> h(hashes.data(), std::min(kBlock, end - first));
      keys.hashes(first, h, profile);
      body(first, std::span<const uint64_t>(h));
    }
  });
}

}  // namespace chbench::lab
