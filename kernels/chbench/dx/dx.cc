// DxHash's buckets after a fleet's history (dx_state), its checks and byte
// estimates, and the kernels' scalar lookup of one key (dx_bucket).
#include "chbench/dx/dx.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "chbench/dx/sequence.h"
#include "chbench/kernel_glue.h"
#include "chbench/nodes.h"
#include "chbench/scenario.h"

namespace chbench {

namespace {

std::invalid_argument join_beyond(uint32_t a) {
  return std::invalid_argument("a join beyond the capacity of " + std::to_string(a) +
                               " buckets (DxHash re-adds removed buckets, then new ones up to A)");
}

// Replays a fleet's history on the bit array: the buckets of the names in
// service, and which bucket each join takes.
class Replay {
 public:
  Replay(const Fleet& f, DxProfile profile, DxState& s) : profile_(profile), s_(s) {
    const auto& initial = f.initial();
    next_ = static_cast<uint32_t>(initial.size());
    for (uint32_t b = 0; b < next_; ++b) {
      set(b, true);
      bucket_of_.emplace(initial[b], b);
    }
    for (const FleetChange& c : f.history())
      c.kind == FleetChange::Kind::kLeave ? leave(c.node) : join(c.node);
  }
  uint32_t next_unused() const noexcept { return next_; }
  uint32_t bucket_of(std::string_view name) const { return bucket_of_.at(name); }

 private:
  void set(uint32_t b, bool on) {
    const uint32_t bit = uint32_t{1} << (b & 31);
    if (on) {
      s_.words[b >> 5] |= bit;
      ++s_.active;
    } else {
      s_.words[b >> 5] &= ~bit;
      --s_.active;
    }
  }
  void leave(std::string_view name) {
    const auto it = bucket_of_.find(name);
    set(it->second, false);
    removed_.push_back(it->second);
    bucket_of_.erase(it);
  }
  void join(std::string_view name) {
    const uint32_t b = profile_ == DxProfile::kChaosD ? chaosd_pick() : last_removed_pick();
    set(b, true);
    next_ = std::max(next_, b + 1);
    bucket_of_.emplace(name, b);
  }
  uint32_t last_removed_pick() {
    if (removed_.empty()) {
      if (next_ == s_.capacity) throw join_beyond(s_.capacity);
      return next_;
    }
    const uint32_t b = removed_.back();
    removed_.pop_back();
    return b;
  }
  // ChaosD's updateAddition: getInactiveNodeID(1228), which gives up (and
  // writes out of bounds) after 4A probes.
  uint32_t chaosd_pick() const {
    if (s_.active == s_.capacity) throw join_beyond(s_.capacity);
    dx::ChaosDSequence seq(dx::kChaosDJoinKey, s_.capacity);
    for (uint64_t i = 1; i < uint64_t{4} * s_.capacity; ++i, seq.next())
      if (!s_.is_active(seq.bucket())) return seq.bucket();
    throw std::invalid_argument("ChaosD's re-add: key 1228 finds no inactive bucket in 4A probes");
  }

  DxProfile profile_;
  DxState& s_;
  uint32_t next_ = 0;  // the lowest bucket never used
  std::vector<uint32_t> removed_;
  std::unordered_map<std::string_view, uint32_t> bucket_of_;
};

// Drops the words above bucket `used` (the buckets never used, all clear):
// the kernels clamp their probes to bit `used`, clear.
void limit_to_used(DxState& s, uint32_t used) {
  s.limit = used;
  s.words.resize(used / 32 + 1);
  s.words.shrink_to_fit();
}

}  // namespace

uint32_t dx_capacity(const Fleet& f) {
  validate(f.nodes());
  return fleet_capacity(f, kDxMaxCapacity);
}

void validate_dx(const Fleet& f) {
  const uint32_t a = dx_capacity(f);
  uint64_t removed = 0, used = f.initial().size();
  for (const FleetChange& c : f.history()) {
    if (c.kind == FleetChange::Kind::kLeave) {
      ++removed;
    } else if (removed > 0) {
      --removed;
    } else if (++used > a) {
      throw join_beyond(a);
    }
  }
}

DxState dx_state(const Fleet& f, DxProfile profile) {
  DxState s;
  s.capacity = dx_capacity(f);
  if (profile != DxProfile::kChaosD) validate_dx(f);
  s.words.assign(s.capacity / 32 + 1, 0);  // A + 1 bits: bit A stays clear
  const auto& names = f.nodes().names;
  if (f.history().empty()) {
    s.active = static_cast<uint32_t>(names.size());
    for (uint32_t b = 0; b < s.active; ++b) s.words[b >> 5] |= uint32_t{1} << (b & 31);
    s.owner.resize(s.active);
    for (uint32_t b = 0; b < s.active; ++b) s.owner[b] = b;
    limit_to_used(s, s.active);
    return s;
  }
  const Replay replay(f, profile, s);
  s.owner.assign(replay.next_unused(), 0);
  for (uint32_t i = 0; i < names.size(); ++i) s.owner[replay.bucket_of(names[i])] = i;
  limit_to_used(s, replay.next_unused());
  return s;
}

uint64_t dx_state_bytes(const Fleet& f) {
  const uint64_t n0 = f.initial().size();
  const uint64_t a = f.nodes().capacity != 0 ? f.nodes().capacity : 10 * n0;
  uint64_t joins = 0;
  for (const FleetChange& c : f.history()) joins += c.kind == FleetChange::Kind::kJoin;
  const uint64_t leaves = f.history().size() - joins;
  // The owners cover the slots ever used: the initial ones and one per join at most.
  const uint64_t used = std::min(a, n0 + joins);
  const uint64_t tables = glue::saturating_add(a / 8 + 8, glue::saturating_mul(used, 4));
  if (f.history().empty()) return tables;
  // The replay's name map (a node of string_view, slot and hash, about 56
  // bytes measured, and its slot array), holding at most the initial names
  // and the joined ones; the stack of removed slots, grown by doubling.
  const uint64_t replay =
      glue::saturating_add(glue::saturating_mul(n0 + joins, 80), glue::saturating_mul(leaves, 8));
  return glue::saturating_add(tables, replay);
}

uint32_t dx_bucket(const DxState& s, DxProfile profile, uint64_t h, uint32_t* probes) {
  const uint32_t* w = s.words.data();
  switch (profile) {
    case DxProfile::kChaosD:
      return dx::first_active(w, s.limit, dx::ChaosDSequence(h, s.capacity), probes);
    case DxProfile::kSupsi:
      return dx::first_active(w, s.limit, dx::SupsiSequence(h, s.capacity), probes);
    case DxProfile::kChbench:
      break;
  }
  return dx::first_active(w, s.limit, dx::LcgSequence(h, s.capacity), probes);
}

}  // namespace chbench
