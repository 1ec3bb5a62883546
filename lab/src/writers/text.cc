// Plain text for a reader: owners as tab-separated key, owner[, hash]; move
// and balance as aligned summaries. Keys are escaped (append_text_escaped:
// backslash, tab, line breaks and control bytes), so each row's key bytes are
// recovered exactly; node names hold no control byte (check_node_names).
#include <cinttypes>
#include <cstdint>

#include "key_codec.h"
#include "writers/load.h"
#include "writers/tokens.h"
#include "writers/writer.h"

namespace chbench::lab {

namespace {

class TextWriter final : public Writer {
 public:
  explicit TextWriter(Out& out) : out_(out), b_(out.buffer()) {}

  // Rows of more than key and owner (replicas, a profile's key hash) start
  // with a header naming the columns, "# key<TAB>owner<TAB>...".
  void owners_begin(const Setup& s, const KeySet&) override {
    profile_ = s.placement.profile;
    if (s.replicas < 2 && !profile_) return;
    b_ += "# key\towner";
    for (uint32_t j = 2; j <= s.replicas; ++j) b_ += "\treplica_" + std::to_string(j);
    if (profile_) (b_ += '\t') += hash_column(*profile_);
    b_ += '\n';
  }

  void owner(const OwnerRow& row) override {
    append_text_escaped(b_, row.key);
    b_ += '\t';
    b_ += row.owner;
    for (std::size_t j = 1; j < row.replicas.size(); ++j) (b_ += '\t') += row.replicas[j];
    if (profile_) (b_ += '\t') += row.hash;
    b_ += '\n';
    out_.maybe_flush();
  }

  void owners_end() override {}

  void move(const Setup& s, const MoveReport& r) override {
    move_summary(s, r);
    flows(r);
    if (!r.list) return;
    b_ += "moved keys (key, from, to):\n";
    for_each_moved_key(r, [&](std::string_view key, std::string_view from, std::string_view to) {
      append_text_escaped(b_, key);
      b_ += '\t';
      b_ += from;
      b_ += '\t';
      b_ += to;
      b_ += '\n';
      out_.maybe_flush();
    });
  }

  void balance(const Setup& s, const BalanceReport& r) override {
    b_ += "scheme    " + scheme_label(s, s.nodes().vnodes) + ", kernel " + s.kernel_name + "\n";
    b_ += fmt("nodes     %u", r.nodes);
    if (r.rings > 1)
      b_ += fmt(" per ring, %u rings (names suffixed @1 ... @%u)", r.rings, r.rings - 1);
    b_ += fmt("\nkeys      %" PRIu64 "\n", r.keys);
    if (r.rings == 1)
      one_ring(s, r);
    else
      over_rings(r);
    if (r.weighted())
      b_ += "weights   busiest and share std: each node's share over its fair share w / sum(w)\n";
    else if (r.circle)
      b_ += fmt("theory    share std %.2f%% of fair (circle, sqrt((N-1)/(N*V+1))), %.2f%% (keys)\n",
                r.theory_circle, r.theory_keys);
    else
      b_ += fmt("theory    share std %.2f%% of fair (keys, sampling noise sqrt((N-1)/K))\n",
                r.theory_keys);
    if (r.theory_busiest)
      b_ += fmt("          busiest / mean %.3f on average (H_N, one token per node)\n",
                *r.theory_busiest);
  }

  void balance_removals(const Setup& s, const RemovalBalanceReport& r) override {
    b_ += "scheme    " + scheme_label(s, s.nodes().vnodes) + ", kernel " + s.kernel_name + "\n";
    b_ += "scenario  " + scenario_label(s) + "\n";
    b_ += fmt("keys      %" PRIu64 "\n", r.keys);
    b_ += fmt("%9s %10s %10s %12s %12s %14s %15s %10s\n", "fraction", "removed", "nodes", "min",
              "max", "mean", "busiest / mean", "share std");
    for (const RemovalBalanceRow& row : r.rows)
      b_ += fmt("%9s %10u %10u %12" PRIu64 " %12" PRIu64 " %14.2f %15.4f %9.2f%%\n",
                shortest(row.fraction).c_str(), row.removed, row.nodes, row.min, row.max, row.mean,
                row.stats.busiest_over_mean, row.stats.std_pct);
    b_ += "(min, max, mean: keys per node in service; share std: % of the fair share)\n";
  }

  void load_balance(const Setup& s, const LoadBalanceReport& r) override {
    load_balance_text(out_, s, r);
  }
  void load_move(const Setup& s, const LoadMoveReport& r) override { load_move_text(out_, s, r); }
  void tokens(const std::string& ring, const std::vector<AllocationRow>& rows) override {
    tokens_text(out_, ring, rows);
  }

 private:
  // The counts of a move, and the theory of a growth N -> N + 1.
  void move_summary(const Setup& s, const MoveReport& r) {
    const MoveResult& m = r.result;
    const uint64_t k = m.keys;
    b_ += "scheme    " + scheme_label(s, r.before.nodes().vnodes) + ", kernel " + s.kernel_name +
          "\n";
    if (s.scenario) b_ += "scenario  " + scenario_label(s) + "\nstep      " + step_label(r) + "\n";
    b_ += fmt("keys      %" PRIu64 "\n", k);
    b_ += fmt("nodes     %u -> %u", r.before.size(), r.after.size());
    // A scenario's step may name millions of nodes: the first few.
    const std::size_t shown = r.step == MoveStep::kChange ? SIZE_MAX : 8;
    auto names = [shown](const std::vector<uint32_t>& idx, const Fleet& fleet) {
      std::string list;
      for (std::size_t i = 0; i < idx.size() && i < shown; ++i)
        list += (list.empty() ? "" : ", ") + owner_name(fleet, idx[i]);
      if (idx.size() > shown) list += ", ... (" + std::to_string(idx.size()) + " in all)";
      return list;
    };
    if (!m.removed.empty()) b_ += " (removed " + names(m.removed, r.before) + ")";
    if (!m.added.empty()) b_ += " (added " + names(m.added, r.after) + ")";
    b_ += "\n";
    b_ += fmt("moved     %" PRIu64 " keys, %s of all keys\n", m.moved,
              pct(ratio(m.moved, k)).c_str());
    auto part = [&](const char* what, uint64_t n) {
      b_ += fmt("  %-18s %12" PRIu64 "  %9s of keys  %9s of moved\n", what, n,
                pct(ratio(n, k)).c_str(), pct(ratio(n, m.moved)).c_str());
    };
    part("between old nodes", m.between_old);
    part("to added nodes", m.to_added);
    part("from removed nodes", m.from_removed);
    if (r.returns) returns(*r.returns);
    if (r.replica_sets) replica_sets(*r.replica_sets, k);
    if (r.theory)
      b_ += fmt("theory    %s moved, %s between old nodes (N -> N + 1, uniform hashes)\n",
                pct(r.theory->moved).c_str(), pct(r.theory->between_old).c_str());
  }

  // move --replicas: the keys whose replica set changed, by new members.
  void replica_sets(const ReplicaMove& m, uint64_t k) {
    b_ += fmt("replica sets (R = %u): %" PRIu64 " keys changed, %s of all keys; %" PRIu64
              " new members\n",
              m.r, m.changed, pct(ratio(m.changed, k)).c_str(), m.members);
    for (uint32_t j = 1; j <= m.r; ++j)
      b_ += fmt("  %u new member%s %12" PRIu64 " keys\n", j, j == 1 ? " " : "s", m.by_members[j]);
  }

  // What the re-adds gave back, against the fleet before the removals.
  void returns(const ReturnResult& t) {
    b_ += fmt("returned  %" PRIu64 " of the %" PRIu64
              " keys the re-added nodes owned before the removals, %s\n",
              t.returned, t.old_keys, pct(ratio(t.returned, t.old_keys)).c_str());
    b_ += fmt("relocated %" PRIu64
              " keys, %s of all keys, are on another node than before the removals\n",
              t.relocated, pct(ratio(t.relocated, t.keys)).c_str());
  }

  // "1000 nodes, 300 removed (fraction 0.3) in random order, seed 7, then 10
  // re-added (the last removed first)".
  static std::string scenario_label(const Setup& s) {
    const ScenarioRequest& r = *s.scenario;
    std::string removed;
    if (r.fractions.size() > 1)
      removed = "each row's fraction removed";
    else if (r.is_explicit())
      removed = std::to_string(r.removed.size()) + " removed";
    else
      removed = std::to_string(removed_count(s.initial, r, r.fractions[0])) +
                fmt(" removed (fraction %g)", r.fractions[0]);
    std::string label =
        std::to_string(s.initial.size()) + " nodes, " + removed + " in " + order_label(r);
    if (r.readds != 0)
      label += ", then " + std::to_string(r.readds) + " re-added (the last removed first)";
    return label;
  }

  static std::string step_label(const MoveReport& r) {
    switch (r.step) {
      case MoveStep::kRemovals:
        return "the scenario's removals, from the nodes of --nodes";
      case MoveStep::kReadds:
        return "the scenario's re-adds, after its removals";
      case MoveStep::kChange:
        break;
    }
    return "--add / --remove after the scenario";
  }

  // Where each removed node's keys went, and where each added node's came from.
  void flows(const MoveReport& r) {
    auto peers = [&](const Flow& f, const Fleet& fleet) {
      for (const auto& [node, count] : f.peers) {
        b_ += fmt("  %-20s %12" PRIu64 "  %9s\n", owner_name(fleet, node).c_str(), count,
                  pct(ratio(count, f.keys)).c_str());
        out_.maybe_flush();
      }
    };
    for (const Flow& f : r.from_removed) {
      b_ += fmt("%s's %" PRIu64 " keys went to %zu node(s):\n",
                owner_name(r.before, f.node).c_str(), f.keys, f.peers.size());
      peers(f, r.after);
    }
    for (const Flow& f : r.to_added) {
      b_ += fmt("%s took %" PRIu64 " keys from %zu node(s):\n", owner_name(r.after, f.node).c_str(),
                f.keys, f.peers.size());
      peers(f, r.before);
    }
  }

  // One ring: a row per node, then busiest / mean and share std.
  void one_ring(const Setup& s, const BalanceReport& r) {
    const Balance& b = r.results[0];
    b_ += fmt("%-20s %12s %12s", "node", "keys", "key share");
    if (r.weighted()) b_ += fmt(" %12s %12s", "fair share", "share / fair");
    if (r.circle) b_ += fmt(" %12s", "circle share");
    b_ += r.points.empty() ? "\n" : fmt(" %12s\n", "points");
    for (uint32_t i = 0; i < r.nodes; ++i) {
      const double share = ratio(b.node_keys[i], r.keys);
      b_ += fmt("%-20s %12" PRIu64 " %12s", owner_name(s.fleet, i).c_str(), b.node_keys[i],
                pct(share).c_str());
      if (r.weighted())
        b_ += r.fair[i] > 0 ? fmt(" %12s %12.4f", pct(r.fair[i]).c_str(), share / r.fair[i])
                            : fmt(" %12s %12s", pct(0).c_str(), "-");
      if (r.circle) b_ += fmt(" %12s", pct(b.circle[i]).c_str());
      b_ += r.points.empty() ? "\n" : fmt(" %12u\n", r.points[i]);
      out_.maybe_flush();
    }
    b_ += fmt("%-26s %10s", "", "keys");
    b_ += r.circle ? fmt(" %10s\n", "circle") : "\n";
    b_ += fmt("%-26s %10.3f", r.weighted() ? "busiest share / fair" : "busiest / mean",
              r.key_busiest.mean);
    b_ += r.circle ? fmt(" %10.3f\n", r.circle_busiest.mean) : "\n";
    b_ += fmt("%-26s %9.2f%%", "share std / fair share", r.key_std.mean);
    b_ += r.circle ? fmt(" %9.2f%%\n", r.circle_std.mean) : "\n";
  }

  // Several rings: the spread of each metric over them.
  void over_rings(const BalanceReport& r) {
    b_ +=
        fmt("%-30s %9s %9s %9s %9s %9s\n", "over the rings", "mean", "sd", "min", "max", "pooled");
    auto line = [&](const char* what, const Spread& sp, bool pooled) {
      b_ += fmt("%-30s %9.3f %9.3f %9.3f %9.3f", what, sp.mean, sp.sd, sp.min, sp.max);
      b_ += pooled ? fmt(" %9.3f\n", sp.rms) : "\n";
    };
    line("busiest / mean (keys)", r.key_busiest, false);
    line("share std % of fair (keys)", r.key_std, true);
    if (r.circle) {
      line("busiest / mean (circle)", r.circle_busiest, false);
      line("share std % of fair (circle)", r.circle_std, true);
    }
  }

  Out& out_;
  std::string& b_;
  std::optional<Profile> profile_;
};

}  // namespace

std::unique_ptr<Writer> make_text_writer(Out& out) { return std::make_unique<TextWriter>(out); }

}  // namespace chbench::lab
