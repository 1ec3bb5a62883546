// What one batch of a configuration does, by path (config.h): each is a
// function object that looks up pool keys [first, last) into out[0, last -
// first), used alike by the check before timing and by the one timed loop.
// The keys move through the pool from batch to batch, so that no branch
// predictor learns them; the owners of every batch go to the same place, as
// a client's would, so that a batch in the caches writes into the caches.
#pragma once

#include <cstddef>
#include <span>
#include <utility>

#include "workbench.h"

namespace chbench::bench {

// Hashes key strings [first, last) in blocks and looks each block up into
// out[0, last - first): the cost a client pays from key bytes to owner. The
// block keeps the hashes in L1.
void hashed_owners(const OwnerTable& table, const KeyBytes& keys, std::size_t first,
                   std::size_t last, std::span<uint32_t> out);

// Keys [first, last) one at a time into out[0, last - first), each xor-ed
// with (previous owner & an opaque zero): the latency of a lookup, not its
// throughput, while the keys looked up stay the pool's own (and their owners
// comparable with the reference).
void chained_owners(const OwnerTable& table, std::span<const uint64_t> keys, std::size_t first,
                    std::size_t last, std::span<uint32_t> out);

// The kernel's owners() on the team's threads (path kThroughput).
struct ThroughputBatch {
  Prepared& p;
  void operator()(std::size_t first, std::size_t last) const {
    p.team->owners(*p.table, p.key_hashes.subspan(first, last - first),
                   std::span(p.out).first(last - first));
  }
};

struct LatencyBatch {
  Prepared& p;
  void operator()(std::size_t first, std::size_t last) const {
    chained_owners(*p.table, p.key_hashes, first, last, p.out);
  }
};

struct HashedBatch {
  Prepared& p;
  void operator()(std::size_t first, std::size_t last) const {
    hashed_owners(*p.table, p.key_strings, first, last, p.out);
  }
};

struct ProfileBatch {
  Prepared& p;
  void operator()(std::size_t first, std::size_t last) const {
    p.lookup->owners(p.key_strings, first, last, p.out);
  }
};

// A stream of requests with bounded loads (path kBounded): the loads start
// at 0, then the bounded table (the kernel's owners, then the walk past full
// nodes) runs on the team's threads, concurrent placement on more than one.
struct BoundedBatch {
  Prepared& p;
  void operator()(std::size_t first, std::size_t last) const {
    p.loads->reset();
    p.team->owners(*p.bounded_table, p.key_hashes.subspan(first, last - first),
                   std::span(p.out).first(last - first));
  }
};

// Calls f with the batch function object of the configuration's path.
template <class F>
decltype(auto) with_batch(Path path, Prepared& p, F&& f) {
  switch (path) {
    case Path::kLatency:
      return std::forward<F>(f)(LatencyBatch{p});
    case Path::kHashed:
      return std::forward<F>(f)(HashedBatch{p});
    case Path::kProfile:
      return std::forward<F>(f)(ProfileBatch{p});
    case Path::kBounded:
      return std::forward<F>(f)(BoundedBatch{p});
    case Path::kThroughput:
      break;
  }
  return std::forward<F>(f)(ThroughputBatch{p});
}

}  // namespace chbench::bench
