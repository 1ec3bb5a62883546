#include "plan.h"

#include <algorithm>
#include <cstdio>
#include <set>

#include "chbench/saturate.h"

namespace chbench::bench {

// ---- comparison groups -------------------------------------------------------------

std::vector<GroupSpan> comparison_groups(std::span<const Config> configs) {
  std::vector<GroupSpan> out;
  for (std::size_t i = 0; i < configs.size(); ++i)
    if (out.empty() || configs[i].group != configs[i - 1].group)
      out.push_back({i, i + 1});
    else
      out.back().last = i + 1;
  return out;
}

// ---- the plan -----------------------------------------------------------------------

namespace {

using namespace cost;  // the parts the simulation adds up (plan_cost.h)

// What a sweep holds between configurations, as the runner does, and what
// each configuration adds.
class Simulation {
 public:
  Simulation(const std::map<ReferenceKey, uint64_t>& pools,
             const std::map<RingKey, std::size_t>& ring_last,
             const std::map<ReferenceKey, std::size_t>& reference_last,
             const std::map<TableKey, std::size_t>& table_last)
      : pools_(pools),
        ring_last_(ring_last),
        reference_last_(reference_last),
        table_last_(table_last) {}

  // Before a group's first member: its tables are held together until its
  // rounds end, and the large tables of earlier groups go.
  void begin_group(std::span<const Config> members, const TimeModel& model) {
    double slowest = 0;
    for (const Config& c : members) slowest = std::max(slowest, batch_seconds(c));
    rounds_ = group_rounds(model, slowest);
    visits_ = group_visits(model, rounds_);
    pinned_.clear();
    for (const Config& c : members) pinned_.insert(table_key(c));
    std::erase_if(tables_, [&](const auto& t) {
      if (t.second <= kKeepTableBytes || pinned_.count(t.first)) return false;
      std::erase(table_order_, t.first);
      return true;
    });
    group_owners_ = 0;
    canary_ = kCanaryEstimateSeconds;
  }

  // A later visit (0-based `visit`, TimeModel::visits) starts over: nothing is
  // held but the key pool, the tables are built again, and neither the
  // references nor the checks nor the change builds are repeated.
  void restart(unsigned visit) {
    visit_ = visit;
    rings_.clear();
    references_.clear();
    tables_.clear();
    table_order_.clear();
  }

  // Whether the current group (begin_group) is timed in the current visit.
  bool visited() const { return visit_ < visits_; }

  // `i` is the configuration's index; `last` that of its group's last member.
  Step step(const Config& c, std::size_t i, std::size_t last, const TimeModel& model) {
    Step s;
    prep_ = 0;
    transient_ = 0;
    group_owners_ =
        saturating_add(group_owners_, saturating_mul(c.checked(), 4));  // the kernel's owners
    keys(c, s);
    ring(c, s);
    reference(c, s);
    table(c, s);
    changes(c, s);
    check(c, s);
    s.peak_bytes = saturating_add(held_bytes(), saturating_add(group_owners_, transient_));
    s.seconds = (visit_ == 0 ? kConfigSeconds : 0) + canary_ + prep_ +
                timing_seconds(c, model, visit_rounds(model, rounds_, visit_), visit_ > 0);
    s.rounds = rounds_;
    s.visits = visits_;
    canary_ = 0;  // once a group
    last_ = last;
    if (i == last) drop_group();
    return s;
  }

 private:
  // The longest pool so far.
  void keys(const Config& c, Step& s) {
    if (c.pool() > key_hashes_) {
      s.new_key_hashes = c.pool() - key_hashes_;
      key_hashes_ = c.pool();
    }
    if (c.needs_key_bytes() && c.pool() > key_strings_) {
      s.new_key_bytes = c.pool() - key_strings_;
      key_strings_ = c.pool();
    }
    prep_ += (s.new_key_hashes * kKeyHashNs + s.new_key_bytes * kKeyStringNs) * 1e-9;
  }

  void ring(const Config& c, Step& s) {
    const auto key = ring_key(c);
    if (!key || rings_.count(*key)) return;
    s.new_ring = true;
    rings_[*key] = saturating_mul(c.tokens(), kSortedRingBytes);
    transient_ = saturating_add(transient_, saturating_mul(c.tokens(), kEntryBytes));
    prep_ += c.tokens() * kRingTokenNs * 1e-9;
  }

  void reference(const Config& c, Step& s) {
    const auto key = reference_key(c);
    if (!key || references_.count(*key) || visit_ > 0) return;
    s.reference_pool = pools_.at(*key);
    references_[*key] = saturating_mul(s.reference_pool, 4);
    const uint64_t bytes = c.profile ? table_bytes(c) : reference_bytes(c);
    transient_ = saturating_add(transient_, bytes);
    // A ring reference copies the entries the shared ring was made from.
    prep_ += (ring_key(c) ? c.tokens() * 5.0 : bytes * kBuildNsPerByte) * 1e-9 +
             named_build_seconds(c) + s.reference_pool * reference_key_ns(c) * 1e-9;
  }

  void table(const Config& c, Step& s) {
    const TableKey key = table_key(c);
    if (tables_.count(key)) return;
    s.new_table = true;
    const uint64_t bytes = table_bytes(c);
    prep_ += (bytes - std::min(bytes, shared_ring_bytes(c))) * kBuildNsPerByte * 1e-9 +
             named_build_seconds(c);
    tables_[key] = bytes;
    table_order_.push_back(key);
    uint64_t kept = 0;
    for (const auto& t : tables_) kept = saturating_add(kept, t.second);
    // The oldest go first, but none of the group's own.
    for (std::size_t j = 0; kept > kKeptTablesBytes && j < table_order_.size();) {
      const TableKey oldest = table_order_[j];
      if (pinned_.count(oldest)) {
        ++j;
        continue;
      }
      kept -= tables_[oldest];
      drop_table(oldest);
    }
  }

  // The change builds (remove_us, readd_us): a ring of their own for a ring
  // kernel, kept as the configuration's ring is, then the table, built and
  // dropped; one at a time beside the configuration's table.
  void changes(const Config& c, Step& s) {
    const auto builds = change_builds(c);
    if (builds.empty() || visit_ > 0) return;
    const uint64_t bytes = table_bytes(c);
    for (const Config& b : builds) {
      if (const auto key = ring_key(b); key && !rings_.count(*key)) {
        rings_[*key] = saturating_mul(c.tokens(), kSortedRingBytes);
        prep_ += c.tokens() * kRingTokenNs * 1e-9;
      }
      prep_ += (bytes - std::min(bytes, shared_ring_bytes(c))) * kBuildNsPerByte * 1e-9 +
               named_build_seconds(b);
    }
    s.change_builds = builds.size();
    transient_ = saturating_add(transient_, bytes);
  }

  void check(const Config& c, Step& s) {
    const CheckKey key = check_key(c);
    s.check = reference_key(c) && checked_[key] < c.checked();
    if (s.check) checked_[key] = c.checked();
    const double passes = s.check ? (c.path == Path::kLatency ? 2.0 : 1.0) * c.checked() : c.keys;
    prep_ += passes * key_ns(c) * 1e-9;
  }

  // After a group's rounds: what no later group needs (the plan's last uses
  // are by group).
  void drop_group() {
    std::erase_if(rings_, [&](const auto& r) { return ring_last_.at(r.first) <= last_; });
    std::erase_if(references_, [&](const auto& r) { return reference_last_.at(r.first) <= last_; });
    for (auto it = tables_.begin(); it != tables_.end();)
      if (table_last_.at(it->first) <= last_) {
        std::erase(table_order_, it->first);
        it = tables_.erase(it);
      } else {
        ++it;
      }
  }

  void drop_table(const TableKey& key) {
    tables_.erase(key);
    std::erase(table_order_, key);
  }

  uint64_t held_bytes() const {
    uint64_t b = saturating_add(saturating_mul(key_hashes_, 8),
                                saturating_mul(key_strings_, kKeyStringBytes));
    for (const auto& r : rings_) b = saturating_add(b, r.second);
    for (const auto& r : references_) b = saturating_add(b, r.second);
    for (const auto& t : tables_) b = saturating_add(b, t.second);
    return b;
  }

  const std::map<ReferenceKey, uint64_t>& pools_;
  const std::map<RingKey, std::size_t>& ring_last_;
  const std::map<ReferenceKey, std::size_t>& reference_last_;
  const std::map<TableKey, std::size_t>& table_last_;
  uint64_t key_hashes_ = 0, key_strings_ = 0;
  std::map<RingKey, uint64_t> rings_;            // bytes of the sorted ring
  std::map<ReferenceKey, uint64_t> references_;  // bytes of owners
  std::map<TableKey, uint64_t> tables_;          // bytes by the registry's estimate
  std::vector<TableKey> table_order_;            // oldest first
  std::map<CheckKey, uint64_t> checked_;         // the longest pool checked
  std::set<TableKey> pinned_;                    // the current group's tables
  std::size_t last_ = 0;                         // the current group's last member
  double prep_ = 0;                              // this configuration's seconds before timing
  double canary_ = 0;                            // the group's canary, on its first member
  unsigned rounds_ = 0;                          // the group's (group_rounds)
  unsigned visits_ = 1;                          // the group's (group_visits)
  unsigned visit_ = 0;                           // the visit simulated, 0 the first
  uint64_t transient_ = 0;                       // its bytes alive only while it is prepared
  uint64_t group_owners_ = 0;                    // the owners of the group's members so far
};

}  // namespace

Plan::Plan(std::span<const Config> configs, const TimeModel& model) {
  const auto groups = comparison_groups(configs);
  for (const GroupSpan& g : groups)
    for (std::size_t i = g.first; i < g.last; ++i) {
      const Config& c = configs[i];
      const std::size_t last = g.last - 1;  // what a group uses lives through its rounds
      if (auto r = ring_key(c)) ring_last_[*r] = last;
      for (const Config& b : change_builds(c))
        if (auto r = ring_key(b)) ring_last_[*r] = last;
      if (auto r = reference_key(c)) {
        reference_last_[*r] = last;
        reference_pools_[*r] = std::max(reference_pools_[*r], c.checked());
      }
      table_last_[table_key(c)] = last;
    }
  Simulation simulation(reference_pools_, ring_last_, reference_last_, table_last_);
  for (unsigned v = 0; v < std::max(1u, model.visits); ++v) {
    if (v > 0) simulation.restart(v);
    for (const GroupSpan& g : groups) {
      simulation.begin_group(configs.subspan(g.first, g.last - g.first), model);
      if (!simulation.visited()) continue;
      for (std::size_t i = g.first; i < g.last; ++i)
        add_step(simulation.step(configs[i], i, g.last - 1, model), v, i);
    }
  }
}

void Plan::add_step(const Step& s, unsigned visit, std::size_t i) {
  if (visit == 0) return steps_.push_back(s);
  steps_[i].later_seconds += s.seconds;
  steps_[i].peak_bytes = std::max(steps_[i].peak_bytes, s.peak_bytes);
}

double Plan::seconds() const noexcept {
  double total = 0;
  for (const auto& s : steps_) total += s.seconds + s.later_seconds;
  return total;
}

std::size_t Plan::peak_step() const noexcept {
  std::size_t best = 0;
  for (std::size_t i = 1; i < steps_.size(); ++i)
    if (steps_[i].peak_bytes > steps_[best].peak_bytes) best = i;
  return best;
}

uint64_t Plan::reference_pool(const ReferenceKey& key) const {
  const auto it = reference_pools_.find(key);
  return it == reference_pools_.end() ? 0 : it->second;
}

std::size_t Plan::last_use(const RingKey& key) const {
  const auto it = ring_last_.find(key);
  return it == ring_last_.end() ? 0 : it->second;
}
std::size_t Plan::last_use(const ReferenceKey& key) const {
  const auto it = reference_last_.find(key);
  return it == reference_last_.end() ? 0 : it->second;
}
std::size_t Plan::last_use(const TableKey& key) const {
  const auto it = table_last_.find(key);
  return it == table_last_.end() ? 0 : it->second;
}

std::string clock_string(double seconds) {
  const long s = static_cast<long>(seconds + 0.5);
  char buf[32];
  if (s >= 3600)
    std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  else
    std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
  return buf;
}

}  // namespace chbench::bench
