// CSV (RFC 4180): owners as key,owner[,hash]; move as measure rows or, with
// --list, the moved keys as key,from,to; balance as one row per ring and node,
// or after a removal scenario one row per removed fraction.
#include <cinttypes>

#include "writers/load.h"
#include "writers/tokens.h"
#include "writers/writer.h"

namespace chbench::lab {

namespace {

class CsvWriter final : public Writer {
 public:
  explicit CsvWriter(Out& out) : out_(out), b_(out.buffer()) {}

  void owners_begin(const Setup& s, const KeySet&) override {
    profile_ = s.placement.profile;
    std::string head = "key,owner";
    for (uint32_t j = 2; j <= s.replicas; ++j) head += ",replica_" + std::to_string(j);
    out_ << (profile_ ? head + "," + hash_column(*profile_) + "\n" : head + "\n");
  }

  void owner(const OwnerRow& row) override {
    append_csv(b_, row.key);
    b_ += ',';
    append_csv(b_, row.owner);
    for (std::size_t j = 1; j < row.replicas.size(); ++j) append_csv(b_ += ',', row.replicas[j]);
    if (profile_) (b_ += ',') += row.hash;
    b_ += '\n';
    out_.maybe_flush();
  }

  void owners_end() override {}

  void move(const Setup&, const MoveReport& r) override {
    if (r.list) {
      out_ << "key,from,to\n";
      for_each_moved_key(r, [&](std::string_view key, std::string_view from, std::string_view to) {
        append_csv(b_, key);
        b_ += ',';
        append_csv(b_, from);
        b_ += ',';
        append_csv(b_, to);
        b_ += '\n';
        out_.maybe_flush();
      });
      return;
    }
    const MoveResult& m = r.result;
    out_ << "measure,from,to,keys,fraction\n";
    auto row = [&](std::string_view what, std::string_view from, std::string_view to, uint64_t n) {
      b_ += what;
      b_ += ',';
      append_csv(b_, from);
      b_ += ',';
      append_csv(b_, to);
      b_ += fmt(",%" PRIu64 ",%.9g\n", n, ratio(n, m.keys));
      out_.maybe_flush();
    };
    row("keys", "", "", m.keys);
    row("moved", "", "", m.moved);
    row("between_old", "", "", m.between_old);
    row("to_added", "", "", m.to_added);
    row("from_removed", "", "", m.from_removed);
    if (r.replica_sets) {
      row("replica_sets_changed", "", "", r.replica_sets->changed);
      row("replica_members_new", "", "", r.replica_sets->members);
      for (uint32_t j = 1; j <= r.replica_sets->r; ++j)
        row("replica_sets_with_new", std::to_string(j), "", r.replica_sets->by_members[j]);
    }
    if (r.returns) {
      row("readded_old_keys", "", "", r.returns->old_keys);
      row("returned", "", "", r.returns->returned);
      row("relocated", "", "", r.returns->relocated);
    }
    for (const Flow& f : r.from_removed)
      for (const auto& [node, count] : f.peers)
        row("flow", owner_name(r.before, f.node), owner_name(r.after, node), count);
    for (const Flow& f : r.to_added)
      for (const auto& [node, count] : f.peers)
        row("flow", owner_name(r.before, node), owner_name(r.after, f.node), count);
  }

  void balance(const Setup&, const BalanceReport& r) override {
    b_ += "ring,node,keys,key_share,";
    if (r.weighted()) b_ += "fair_share,";
    b_ += r.points.empty() ? "circle_share\n" : "circle_share,points\n";
    for (uint32_t ring = 0; ring < r.rings; ++ring)
      for (uint32_t i = 0; i < r.nodes; ++i) {
        const uint64_t keys = r.results[ring].node_keys[i];
        b_ += std::to_string(ring) + ',';
        append_csv(b_, r.name(ring, i));
        b_ += fmt(",%" PRIu64 ",%.9g,", keys, ratio(keys, r.keys));
        if (r.weighted()) b_ += fmt("%.9g,", r.fair[i]);
        if (r.circle) b_ += fmt("%.9g", r.results[ring].circle[i]);
        if (!r.points.empty()) b_ += ',' + std::to_string(r.points[i]);
        b_ += '\n';
        out_.maybe_flush();
      }
  }

  void balance_removals(const Setup&, const RemovalBalanceReport& r) override {
    b_ += "fraction,removed,nodes,keys,min,max,mean,busiest_over_mean,share_std_pct\n";
    for (const RemovalBalanceRow& row : r.rows)
      b_ += fmt("%.9g,%u,%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.9g,%.9g,%.9g\n", row.fraction,
                row.removed, row.nodes, r.keys, row.min, row.max, row.mean,
                row.stats.busiest_over_mean, row.stats.std_pct);
  }

  void load_balance(const Setup&, const LoadBalanceReport& r) override {
    load_balance_csv(out_, r);
  }
  void load_move(const Setup&, const LoadMoveReport& r) override { load_move_csv(out_, r); }
  void tokens(const std::string&, const std::vector<AllocationRow>& rows) override {
    tokens_csv(out_, rows);
  }

 private:
  Out& out_;
  std::string& b_;
  std::optional<Profile> profile_;
};

}  // namespace

std::unique_ptr<Writer> make_csv_writer(Out& out) { return std::make_unique<CsvWriter>(out); }

}  // namespace chbench::lab
