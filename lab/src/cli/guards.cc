#include "cli/guards.h"

#include <charconv>
#include <stdexcept>
#include <string>

#include "chbench/saturate.h"
#include "commands/balance.h"
#include "keys.h"
#include "removals.h"

namespace chbench::lab {

namespace {

// A fleet of buckets (setup_from: a buckets_only scheme, --nodes N) holds no
// names, and a move keeps it one (bucket_change): its tables are the
// registry's estimate (none for today's such schemes) and a move matches
// buckets by index, its flows counted for the keys that move only. Only
// balance's key counts grow with N: kCountBytes a bucket.
void check_buckets_fit(const Setup& s, const Fleet& f, bool move, bool balance) {
  const uint64_t n = f.size();
  const uint64_t tables = saturating_mul(table_bytes(s.placement, f, s.kernel), move ? 2 : 1);
  const std::string scheme(scheme_name(s.scheme));
  check_memory(tables, "the " + scheme + " table(s) of N = " + std::to_string(n));
  if (balance)
    check_memory(saturating_add(tables, saturating_mul(n, kCountBytes)),
                 "balance's key count of every one of N = " + std::to_string(n) + " " + scheme +
                     " buckets (8 B a bucket)");
}

}  // namespace

void check_tables_fit(const Setup& s, const Options& o) {
  const bool move = o.command == Command::kMove, balance = o.command == Command::kBalance;
  if (balance && o.rings > kMaxRings)  // before the memory estimate that uses it
    throw std::invalid_argument("--rings takes at most 100000 rings");
  const Fleet& f = nodes_fleet(s);
  if (!f.named()) return check_buckets_fit(s, f, move, balance);
  const uint64_t n = f.size();
  uint64_t bytes = saturating_mul(table_bytes(s.placement, f, s.kernel), move ? 2 : 1);
  bytes = saturating_add(bytes, saturating_mul(n, kNodeBytes + (move ? kMoveNodeBytes : 0)));
  if (s.scenario) bytes = saturating_add(bytes, saturating_mul(n, kScenarioNodeBytes));
  if (balance) {
    bytes = saturating_add(bytes, saturating_mul(uint64_t{o.rings} * n, kBalanceNodeBytes));
    if (o.rings > 1) bytes = saturating_add(bytes, saturating_mul(n, kReplicaNodeBytes));
  }
  check_memory(bytes, tables_label(s) + (balance && o.rings > 1
                                             ? " over " + std::to_string(o.rings) + " rings"
                                             : std::string()));
}

void check_job_time(const Setup& s, const Options& o) {
  const bool move = o.command == Command::kMove, balance = o.command == Command::kBalance;
  uint64_t keys = 0;
  const auto [end, ec] = std::from_chars(o.keys.data(), o.keys.data() + o.keys.size(), keys);
  if (ec != std::errc() || end != o.keys.data() + o.keys.size()) return;  // a key file
  if (keys > kMaxKeys) return;  // refused with the lab's own limit when the keys are made
  const uint64_t lookups = saturating_mul(keys, move ? 2 : balance ? o.rings : 1);
  const bool scores = !s.placement.profile && scheme_info(s.scheme).scores_every_node;
  check_time(lookups, scores ? nodes_fleet(s).size() : 1,
             std::string(move      ? "move"
                         : balance ? "balance"
                                   : "owners") +
                 " of K = " + o.keys + " keys over N = " + std::to_string(nodes_fleet(s).size()),
             o.allow_long);
}

}  // namespace chbench::lab
