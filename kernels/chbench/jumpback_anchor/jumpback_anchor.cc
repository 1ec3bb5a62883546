// JumpBackAnchor's bucket state as hash4j keeps it (JumpBackAnchorBuckets),
// the fleet check, and the kernels' packed table after a fleet's history
// (jumpback_anchor.h).
#include "chbench/jumpback_anchor/jumpback_anchor.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "chbench/kernel_glue.h"
#include "chbench/memento/memento.h"  // replay_fleet, memento_replay_bytes
#include "chbench/nodes.h"

namespace chbench {

JumpBackAnchorBuckets::JumpBackAnchorBuckets(uint32_t n) : n_max_(n), ka_(n, 0) {}

void JumpBackAnchorBuckets::reserve(uint64_t buckets) {
  const std::size_t size = std::min<uint64_t>(buckets, kJumpBackAnchorMaxBuckets);
  ka_.reserve(size);
  removed_.reserve(size);
}

uint32_t JumpBackAnchorBuckets::view_bucket(uint32_t p, uint32_t v) const noexcept {
  while (view(p) >= v) p = replacement(p);
  return p;
}

void JumpBackAnchorBuckets::remove(uint32_t b) {
  if (removed_.empty() && b == n_max_ - 1) {  // JumpBackHash's own case
    n_max_ = b;
    return;
  }
  removed_.push_back(b);
  const uint32_t n = working();
  // Position n of the view of n + 1 buckets, before b's own entry is set
  // (b itself when b held that position).
  const uint32_t k = view_bucket(n, n + 1);
  ka_[b] = uint64_t{k} << 32 | n;
}

uint32_t JumpBackAnchorBuckets::add() {
  if (!removed_.empty()) {
    const uint32_t b = removed_.back();
    removed_.pop_back();
    ka_[b] = 0;
    return b;
  }
  if (n_max_ >= kJumpBackAnchorMaxBuckets)
    throw std::length_error("JumpBackAnchor holds at most 2^31 - 1 buckets (a Java int)");
  const uint32_t b = n_max_++;
  if (ka_.size() < n_max_) ka_.push_back(0);  // a bucket shrunk away has its 0 still
  return b;
}

std::vector<uint8_t> JumpBackAnchorBuckets::state() const {
  std::vector<uint8_t> bytes;
  bytes.reserve(4 * (removed_.size() + 1));
  const auto put = [&bytes](uint32_t v) {
    for (int i = 0; i < 4; ++i) bytes.push_back(static_cast<uint8_t>(v >> (8 * i)));
  };
  put(n_max_);
  for (uint32_t b : removed_) put(b);
  return bytes;
}

std::size_t JumpBackAnchorBuckets::memory_bytes() const noexcept {
  return ka_.capacity() * sizeof(uint64_t) + removed_.capacity() * sizeof(uint32_t);
}

uint64_t jumpback_anchor_max_buckets(const Fleet& fleet) { return memento_max_buckets(fleet); }

void check_jumpback_anchor(const Fleet& fleet) {
  validate(fleet.nodes());
  const uint64_t buckets = jumpback_anchor_max_buckets(fleet);
  if (buckets > kJumpBackAnchorMaxBuckets)
    throw std::invalid_argument(
        "JumpBackAnchor takes at most 2^31 - 1 buckets (a Java int); this fleet's initial "
        "nodes and joins make " +
        std::to_string(buckets));
}

JumpBackAnchorTable jumpback_anchor_table(const Fleet& fleet) {
  check_jumpback_anchor(fleet);
  JumpBackAnchorTable t;
  if (fleet.history().empty()) {  // buckets 0 ... N-1 in list order: JumpBackHash alone
    t.shape = JumpBackShape(fleet.size());
    return t;
  }
  JumpBackAnchorBuckets state(static_cast<uint32_t>(fleet.initial().size()));
  state.reserve(jumpback_anchor_max_buckets(fleet));
  const std::vector<uint32_t> owners = replay_fleet(fleet, state);
  const uint32_t n = state.array_size();
  t.shape = JumpBackShape(n);
  bool identity = state.removed().empty();
  for (uint32_t b = 0; identity && b < n; ++b) identity = owners[b] == b;
  if (identity) return t;
  t.entries = allocate_table<uint64_t>(n);
  for (uint32_t b = 0; b < n; ++b)
    t.entries[b] = state.is_removed(b) ? uint64_t{state.replacement(b)} << 32 | state.view(b)
                                       : uint64_t{owners[b]} << 32;
  return t;
}

uint64_t jumpback_anchor_table_bytes(const Fleet& fleet) {
  if (fleet.history().empty()) return 0;
  // The state (8 bytes an entry, 4 a removed bucket) and the table (8).
  const uint64_t buckets = jumpback_anchor_max_buckets(fleet);
  const uint64_t arrays = glue::saturating_mul(buckets, 8 + 4 + 8);
  return glue::saturating_add(memento_replay_bytes(fleet), arrays);
}

}  // namespace chbench
