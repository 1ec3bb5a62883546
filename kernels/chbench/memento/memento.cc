// MementoHash's bucket state with flat arrays (MementoBuckets), the fleet
// checks and estimates, and the kernels' slot table (memento.h).
#include "chbench/memento/memento.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "chbench/kernel_glue.h"
#include "chbench/nodes.h"

namespace chbench {

MementoBuckets::MementoBuckets(uint32_t n)
    : n_(n), last_removed_(n), replacer_(n, kWorking), prev_(n, 0) {}

void MementoBuckets::reserve(uint64_t buckets) {
  const std::size_t size = std::min<uint64_t>(buckets, kMementoMaxBuckets);
  replacer_.reserve(size);
  prev_.reserve(size);
}

void MementoBuckets::remove(uint32_t b) {
  if (removed_ == 0 && b == n_ - 1) {  // jump hash's case: the b-array shrinks
    n_ = b;
    last_removed_ = b;
    return;
  }
  replacer_[b] = working() - 1;
  prev_[b] = last_removed_;
  last_removed_ = b;
  ++removed_;
}

uint32_t MementoBuckets::add() {
  const uint32_t b = last_removed_;
  if (removed_ == 0) {  // none removed: last_removed_ == n_, the b-array grows
    if (b >= kMementoMaxBuckets)
      throw std::length_error("MementoHash's b-array holds at most 2^31 - 1 buckets");
    last_removed_ = b + 1;
    n_ = b + 1;
    if (replacer_.size() < n_) {
      replacer_.push_back(kWorking);
      prev_.push_back(0);
    }
    return b;
  }
  last_removed_ = prev_[b];
  replacer_[b] = kWorking;
  --removed_;
  return b;
}

std::size_t MementoBuckets::memory_bytes() const noexcept {
  return (replacer_.capacity() + prev_.capacity()) * sizeof(uint32_t);
}

uint64_t memento_max_buckets(const Fleet& fleet) {
  uint64_t buckets = fleet.initial().size();
  for (const FleetChange& change : fleet.history())
    buckets += change.kind == FleetChange::Kind::kJoin;
  return buckets;
}

void memento_check_fleet(const Fleet& fleet) {
  validate(fleet.nodes());
  const uint64_t buckets = memento_max_buckets(fleet);
  if (buckets > kMementoMaxBuckets)
    throw std::invalid_argument(
        "MementoHash takes at most 2^31 - 1 buckets (jump hash's int32_t); "
        "this fleet's initial nodes and joins make " +
        std::to_string(buckets));
}

// The name map of replay_fleet: a node of 48 bytes (a string_view, the
// bucket, the cached hash and the link, as malloc rounds it) and up to two
// bucket pointers per name; the owner array.
uint64_t memento_replay_bytes(const Fleet& fleet) {
  const uint64_t buckets = memento_max_buckets(fleet);
  if (fleet.history().empty()) return glue::saturating_mul(buckets, sizeof(uint32_t));
  return glue::saturating_mul(buckets, 48 + 16 + sizeof(uint32_t));
}

MementoSlots memento_slots(const MementoBuckets& state, const std::vector<uint32_t>& owners) {
  MementoSlots s;
  s.size = state.array_size();
  s.slot = allocate_table<uint32_t>(std::size_t{s.size} + 1);
  bool identity = true;
  for (uint32_t b = 0; b < s.size; ++b) {
    const uint32_t entry = state.is_removed(b) ? kMementoRemoved | state.replacer(b) : owners[b];
    s.slot[b] = entry;
    identity = identity && entry == b;
  }
  s.slot[s.size] = 0;
  s.identity = identity;
  return s;
}

MementoSlots memento_slots(const Fleet& fleet) {
  memento_check_fleet(fleet);
  if (fleet.history().empty()) {  // buckets 0 ... N-1 in list order: jump hash alone
    MementoSlots s;
    s.size = fleet.size();
    s.identity = true;
    return s;
  }
  MementoBuckets state(static_cast<uint32_t>(fleet.initial().size()));
  state.reserve(memento_max_buckets(fleet));
  const std::vector<uint32_t> owners = replay_fleet(fleet, state);
  return memento_slots(state, owners);
}

uint64_t memento_slots_bytes(const Fleet& fleet) {
  if (fleet.history().empty()) return 0;
  const uint64_t buckets = memento_max_buckets(fleet);
  // The state's two arrays and the slots (one padding entry).
  const uint64_t arrays = glue::saturating_mul(glue::saturating_add(buckets, 1), 3 * 4);
  return glue::saturating_add(memento_replay_bytes(fleet), arrays);
}

}  // namespace chbench
