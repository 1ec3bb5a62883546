#include "commands/move.h"

#include <algorithm>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "chbench/profiles/profile_info.h"
#include "commands/owners.h"

namespace chbench::lab {

namespace {

// A flow: the nodes with a positive count (given in list order), busiest
// first (ties: list order).
Flow flow_of(uint32_t node, const std::vector<std::pair<uint32_t, uint64_t>>& counts) {
  Flow f;
  f.node = node;
  f.peers = counts;
  std::stable_sort(f.peers.begin(), f.peers.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  for (const auto& p : f.peers) f.keys += p.second;
  return f;
}

}  // namespace

namespace {

// The report's fleets: the change asked for after s.fleet, or the scenario's
// last step (its re-adds after s.fleet, else its removals from s.initial).
MoveReport report_for(const Setup& s, const MoveRequest& request, const KeySet& keys) {
  const bool change = !request.add.empty() || !request.remove.empty();
  if (!s.scenario && !change)
    throw std::invalid_argument(
        "move needs --add NODE[,NODE...], --remove NODE[,NODE...] or a removal scenario "
        "(--removed, --remove-fraction)");
  if (change || !s.scenario)
    return MoveReport(keys, s.fleet, apply_change(s.scheme, s.fleet, request.add, request.remove));
  if (s.scenario->readds == 0) {
    MoveReport r(keys, s.initial, s.fleet);
    r.step = MoveStep::kRemovals;
    return r;
  }
  const std::vector<std::string> back = rejoining(s.fleet, s.initial.size(), s.scenario->readds);
  MoveReport r(keys, s.fleet, apply_change(s.scheme, s.fleet, back, {}));
  r.step = MoveStep::kReadds;
  return r;
}

// Each key's replica set before and after, slice by slice; a member is new
// when its name is not in the key's set before.
ReplicaMove measure_replica_move(const Setup& s, const Fleet& before, const Fleet& after,
                                 const KeySet& keys) {
  const auto old_table = make_replica_table(s, before), new_table = make_replica_table(s, after);
  ReplicaMove m;
  m.r = s.replicas;
  m.by_members.assign(m.r + 1, 0);
  constexpr uint64_t kSlice = uint64_t{1} << 14;
  std::vector<uint64_t> hashes(std::min(kSlice, keys.size()));
  std::vector<uint32_t> old_sets(hashes.size() * m.r), new_sets(old_sets.size());
  for (uint64_t first = 0; first < keys.size(); first += kSlice) {
    const std::size_t count = std::min(kSlice, keys.size() - first);
    keys.hashes(first, std::span(hashes).first(count));
    old_table->replicas(std::span(hashes).first(count), std::span(old_sets).first(count * m.r));
    new_table->replicas(std::span(hashes).first(count), std::span(new_sets).first(count * m.r));
    for (std::size_t i = 0; i < count; ++i) {
      uint32_t fresh = 0;
      for (uint32_t j = 0; j < m.r; ++j) {
        const std::string& name = after.nodes().names[new_sets[i * m.r + j]];
        bool was = false;
        for (uint32_t o = 0; o < m.r && !was; ++o)
          was = before.nodes().names[old_sets[i * m.r + o]] == name;
        fresh += !was;
      }
      ++m.by_members[fresh];
      m.changed += fresh != 0;
      m.members += fresh;
    }
  }
  return m;
}

}  // namespace

MoveReport run_move(const Setup& s, const MoveRequest& request, const KeySet& keys) {
  if (s.placement.profile && !request.remove.empty() &&
      !profile_info(*s.placement.profile).removal_refusal.empty())
    throw std::invalid_argument(std::string(profile_info(*s.placement.profile).removal_refusal));
  MoveReport r = report_for(s, request, keys);
  r.list = request.list;
  // Every key may move (mod-N moves almost all): the list must fit as a whole.
  if (r.list)
    check_memory(keys.size() * sizeof(MovedKey),
                 "--list of " + std::to_string(keys.size()) + " keys");
  if (s.replicas != 0) {
    check_replica_count(r.after, s.replicas);
    r.replica_sets = measure_replica_move(s, r.before, r.after, keys);
  }
  r.result = measure_move(s.placement, r.before, r.after, keys, r.list, s.kernel);
  if (r.step == MoveStep::kReadds)
    r.returns = measure_return(s.placement, s.initial, r.after, r.before.size(), keys, s.kernel);
  if (r.step != MoveStep::kChange) return r;
  for (std::size_t i = 0; i < r.result.removed.size(); ++i)
    r.from_removed.push_back(flow_of(r.result.removed[i], r.result.removed_to[i]));
  for (std::size_t i = 0; i < r.result.added.size(); ++i)
    r.to_added.push_back(flow_of(r.result.added[i], r.result.added_from[i]));
  // The classic growth N -> N + 1 has a closed form where the scheme's entry
  // gives one (SchemeInfo::growth; not Maglev, whose table shifts between
  // old nodes too, nor the profiles its table answers, such as Redis's
  // slots), for equal weights: a newcomer of weight 1 among weights takes
  // 1 / (sum + 1) instead.
  const bool weighted = !s.nodes().weights.empty() || !s.placement.weights.empty();
  const auto growth = scheme_info(s.scheme).growth;
  if (r.result.removed.empty() && r.result.added.size() == 1 && growth && !weighted)
    r.theory = growth(r.before.size());
  return r;
}

}  // namespace chbench::lab
