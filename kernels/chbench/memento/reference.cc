// MementoHash's reference and the scheme's registry functions. The paper's
// algorithms (Coluzzi et al., IEEE/ACM ToN 2024, arXiv:2306.09783: lookup,
// remove bucket, add bucket, as the authors' Java and C++ engines carry them;
// docs/schemes/memento.md) written out plainly, the replacement set a hash
// map of removed bucket -> (replacer, previously removed bucket), independent
// of the kernels' flat arrays. The key hash h stands for the key:
// JumpHash(key, n) is jump_hash(h, n) and hash(key, b) mod r is
// memento_rehash(h, b, r).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <unordered_map>
#include <vector>

#include "chbench/jump/jump.h"
#include "chbench/kernel_glue.h"
#include "chbench/memento/memento.h"
#include "chbench/registry.h"
#include "chbench/scheme.h"

namespace chbench {

namespace {

// The paper's state: the b-array size n, the last removed bucket l, and the
// replacement set R.
class PaperState {
 public:
  explicit PaperState(uint32_t n) : n_(n), l_(n) {}

  // Removing bucket b: with R empty and b the last bucket, jump hash's own
  // case (n shrinks); otherwise R remembers (b, w - 1, l) and l becomes b.
  void remove(uint32_t b) {
    if (r_.empty() && b == n_ - 1) {
      n_ = b;
      l_ = b;
      return;
    }
    const uint32_t working = n_ - static_cast<uint32_t>(r_.size());
    r_[b] = Entry{working - 1, l_};
    l_ = b;
  }

  // Adding a bucket restores l: from R (l becomes its previously removed
  // bucket), or with R empty the bucket n, which grows the b-array.
  uint32_t add() {
    const uint32_t b = l_;
    const auto it = r_.find(b);
    if (it == r_.end()) {
      l_ = b + 1;
    } else {
      l_ = it->second.prev;
      r_.erase(it);
    }
    if (b >= n_) n_ = b + 1;
    return b;
  }

  // The lookup: jump hash over the b-array; while the bucket was removed,
  // rehash into [0, r) with r its replacer, and follow the replacers of
  // buckets removed before it (u >= r) until a working bucket or a bucket
  // removed after it.
  uint32_t bucket(uint64_t h) const {
    uint32_t b = jump_hash(h, n_);
    int64_t r = replacer(b);
    while (r >= 0) {
      b = memento_rehash(h, b, static_cast<uint32_t>(r));
      int64_t u = replacer(b);
      while (u >= r) {
        b = static_cast<uint32_t>(u);
        u = replacer(b);
      }
      r = u;
    }
    return b;
  }

  uint32_t array_size() const noexcept { return n_; }
  std::size_t memory_bytes() const noexcept {
    return r_.size() * 48 + r_.bucket_count() * sizeof(void*);
  }

 private:
  struct Entry {
    uint32_t replacer;
    uint32_t prev;
  };
  // R.replacer(b): the replacer of a removed bucket, -1 for a working one.
  int64_t replacer(uint32_t b) const {
    const auto it = r_.find(b);
    return it == r_.end() ? -1 : int64_t{it->second.replacer};
  }

  uint32_t n_;
  uint32_t l_;
  std::unordered_map<uint32_t, Entry> r_;
};

class MementoReference final : public OwnerTable {
 public:
  explicit MementoReference(const Fleet& f)
      : state_((memento_check_fleet(f), static_cast<uint32_t>(f.initial().size()))),
        owners_(replay_fleet(f, state_)) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    for (std::size_t i = 0; i < h.size(); ++i) out[i] = owners_[state_.bucket(h[i])];
  }
  std::size_t memory_bytes() const noexcept override {
    return state_.memory_bytes() + owners_.size() * sizeof(uint32_t);
  }

 private:
  PaperState state_;
  std::vector<uint32_t> owners_;  // bucket -> owner index
};

}  // namespace

std::unique_ptr<OwnerTable> registry::memento_reference(const Fleet& f) {
  return std::make_unique<MementoReference>(f);
}

void registry::memento_check(const Fleet& f) { memento_check_fleet(f); }

// The replay, and R: at most one entry (48 bytes with malloc's rounding) and
// two bucket pointers per bucket.
uint64_t registry::memento_reference_bytes(const Fleet& f) {
  const uint64_t entries = glue::saturating_mul(memento_max_buckets(f), 48 + 16);
  return glue::saturating_add(memento_replay_bytes(f), entries);
}

constinit const SchemeInfo registry::memento_scheme{
    .id = Scheme::kMemento,
    .name = "memento",
    .aliases = {},
    .title = "MementoHash",
    .source =
        "Coluzzi, Brocco, Antonucci and Leidi, MementoHash: A Stateful, Minimal Memory, "
        "Best Performing Consistent Hash Algorithm, IEEE/ACM ToN 2024 (arXiv:2306.09783), "
        "its lookup, remove and add algorithms; docs/schemes/memento.md",
    .params = 0,
    .removal = Removal::kAnyNode,
    .removal_note =
        "any node can leave, with no capacity fixed: only its keys move; a join "
        "restores the last removed bucket, or adds a new one when none is removed",
    .max_nodes = kMementoMaxBuckets,
    .reference = &registry::memento_reference,
    .check = &registry::memento_check,
    .reference_bytes = &registry::memento_reference_bytes,
    .reads_history = true,
    .growth = &minimal_growth};

}  // namespace chbench
