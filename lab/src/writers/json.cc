// JSON (nlohmann, keys in the order written): one object per command. The
// owners, the moved keys and balance's nodes, which can be millions (2^31
// buckets), are streamed rather than built as a tree, formatted as dump()
// formats a tree. A key is written losslessly: "key" with its string when it
// is UTF-8 (JSON escapes NUL and the other control bytes), else "key_hex"
// with its bytes in hex; node names and the rest, UTF-8 from the command
// line, would have any byte that is not UTF-8 replaced by U+FFFD.
#include <nlohmann/json.hpp>

#include "key_codec.h"
#include "param_options.h"
#include "writers/json_head.h"
#include "writers/load.h"
#include "writers/tokens.h"
#include "writers/writer.h"

namespace chbench::lab {

namespace {

using json = nlohmann::ordered_json;

// A JSON string.
std::string json_string(std::string_view s) {
  return json(std::string(s)).dump(-1, ' ', false, json::error_handler_t::replace);
}

// The key member, '"key":"..."' or '"key_hex":"..."' (see above).
std::string key_member(std::string_view key) {
  if (is_utf8(key)) return "\"key\":" + json_string(key);
  return "\"key_hex\":\"" + hex_bytes(key) + '"';
}

std::string dump(const json& j) { return j.dump(1, ' ', false, json::error_handler_t::replace); }

// dump(j) for a value `depth` levels deep in the document: its lines after
// the first indented by depth more, as dump() of the whole would print them.
std::string dump_at(const json& j, int depth) {
  const std::string text = dump(j);
  std::string out;
  for (char c : text) {
    out += c;
    if (c == '\n') out.append(static_cast<std::size_t>(depth), ' ');
  }
  return out;
}

// An object dumped without its closing "\n}", for members streamed after it.
std::string open_object(const json& j) {
  std::string text = dump(j);
  text.resize(text.rfind('\n'));
  return text;
}

// The scheme whose placement rule is followed: for a profile its
// profile_placement_scheme(), null for Redis (the slot table is no scheme's;
// "kernel" names the table kernel that looks slots up).
json scheme_json(const Setup& s) {
  if (!s.placement.profile) return scheme_name(s.scheme);
  const std::optional<Scheme> scheme = profile_placement_scheme(*s.placement.profile);
  return scheme ? json(scheme_name(*scheme)) : json(nullptr);
}

// The scheme's title from its registry entry ("jump hash"), null where
// scheme_json is.
json title_json(const Setup& s) {
  const std::optional<Scheme> scheme =
      s.placement.profile ? profile_placement_scheme(*s.placement.profile) : s.scheme;
  return scheme ? json(std::string(scheme_info(*scheme).title)) : json(nullptr);
}

json profile_json(const Setup& s) {
  return s.placement.profile ? json(profile_name(*s.placement.profile)) : json(nullptr);
}

// The removal scenario, or null: the initial N, the order (and seed), the
// fractions or the names removed, the re-adds.
json scenario_json(const Setup& s) {
  if (!s.scenario) return nullptr;
  const ScenarioRequest& r = *s.scenario;
  return {{"initial_nodes", s.initial.size()},
          {"order", removal_order_name(r.order)},
          {"seed", r.order == RemovalOrder::kRandom ? json(r.seed) : json(nullptr)},
          {"remove_fractions", r.is_explicit() ? json(nullptr) : json(r.fractions)},
          {"removed", r.is_explicit() ? json(r.removed) : json(nullptr)},
          {"readds", r.readds}};
}

// The kernel: a profile whose table is no scheme's (Redis's slot table) names
// the table and the kernel that reads it, "redis slot table, read by
// maglev/simd", not the kernel alone as if the profile were Maglev.
json kernel_json(const Setup& s) {
  if (s.placement.profile && !profile_placement_scheme(*s.placement.profile))
    return std::string(profile_name(*s.placement.profile)) + " slot table, read by " +
           s.kernel_name;
  return s.kernel_name;
}

// The members every command's JSON starts with: the command, the placement
// (scheme, profile, their parameters), the kernel and the scenario.
json head_json(const char* command, const Setup& s, json scenario) {
  json head = {{"command", command},
               {"scheme", scheme_json(s)},
               {"title", title_json(s)},
               {"profile", profile_json(s)}};
  // Each kCount parameter by its name, null where the placement takes none.
  for (const ParamInfo& p : kParams) {
    if (p.kind != ParamKind::kCount) continue;
    const std::optional<uint64_t> v = param_value(s, p);
    head[std::string(p.name)] = v ? json(*v) : json(nullptr);
  }
  head["kernel"] = kernel_json(s);
  head["scenario"] = std::move(scenario);
  return head;
}

// Appends `members` to object `j`, in their order.
void add_members(json& j, const json& members) {
  for (const auto& item : members.items()) j[item.key()] = item.value();
}

const char* step_name(MoveStep step) {
  return step == MoveStep::kRemovals ? "removals" : step == MoveStep::kReadds ? "readds" : "change";
}

// One flow: the node, its keys, how many peers and each peer's keys.
json flow_json(const Flow& f, const Fleet& own, const Fleet& peers, const char* count,
               const char* list) {
  json j = {{"node", owner_name(own, f.node)},
            {"keys", f.keys},
            {count, f.peers.size()},
            {list, json::array()}};
  for (const auto& [node, keys] : f.peers)
    j[list].push_back({{"node", owner_name(peers, node)}, {"keys", keys}});
  return j;
}

json spread_json(const Spread& s, bool pooled) {
  json j = {{"mean", s.mean}, {"sd", s.sd}, {"min", s.min}, {"max", s.max}};
  // Every ring's shares have mean exactly 1/N, so the standard deviation of all
  // R * N shares together is the root mean square of the per-ring ones.
  if (pooled) j["pooled"] = s.rms;
  return j;
}

json stats_json(const ShareStats& st) {
  return {{"busiest_over_mean", st.busiest_over_mean}, {"share_std_pct", st.std_pct}};
}

class JsonWriter final : public Writer {
 public:
  explicit JsonWriter(Out& out) : out_(out), b_(out.buffer()) {}

  void owners_begin(const Setup& s, const KeySet& keys) override {
    column_ = s.placement.profile ? hash_column(*s.placement.profile) : nullptr;
    // A fleet of buckets lists no names (node-0 ... node-(N-1): 2^31 of them).
    json head = head_json("owners", s, scenario_json(s));
    add_members(head, {{"node_count", s.fleet.size()},
                       {"nodes", s.fleet.named() ? json(s.nodes().names) : json(nullptr)},
                       {"key_format", key_format_name(s.key_format)},
                       {"keys", keys.size()},
                       {"replicas", s.replicas == 0 ? json(nullptr) : json(s.replicas)}});
    std::string text = head.dump(-1, ' ', false, json::error_handler_t::replace);
    text.pop_back();  // reopen the object for the streamed "owners" array
    out_ << text << ",\"owners\":[";
  }

  void owner(const OwnerRow& row) override {
    b_ += row.index == 0 ? "\n{" : ",\n{";
    b_ += key_member(row.key);
    b_ += ",\"owner\":";
    b_ += json_string(row.owner);
    if (!row.replicas.empty()) {
      b_ += ",\"replicas\":[";
      for (std::size_t j = 0; j < row.replicas.size(); ++j)
        (b_ += j == 0 ? "" : ",") += json_string(row.replicas[j]);
      b_ += ']';
    }
    if (column_) (((b_ += ",\"") += column_) += "\":") += row.hash;
    b_ += '}';
    out_.maybe_flush();
  }

  void owners_end() override { out_ << "\n]}\n"; }

  void move(const Setup& s, const MoveReport& r) override {
    std::string text = dump(move_json(s, r));
    if (!r.list) {
      out_ << text << '\n';
      return;
    }
    // The moved keys can be millions: streamed, not built as a JSON tree.
    text.resize(text.rfind('}'));
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    out_ << text << ",\n \"moved_keys\": [";
    bool first = true;
    for_each_moved_key(r, [&](std::string_view key, std::string_view from, std::string_view to) {
      b_ += first ? "\n  {" : ",\n  {";
      first = false;
      b_ += key_member(key);
      b_ += ",\"from\":";
      b_ += json_string(from);
      b_ += ",\"to\":";
      b_ += json_string(to);
      b_ += '}';
      out_.maybe_flush();
    });
    out_ << "\n ]\n}\n";
  }

  void balance(const Setup& s, const BalanceReport& r) override {
    json head = head_json("balance", s, nullptr);
    add_members(head, {{"nodes", r.nodes}, {"keys", r.keys}, {"rings", r.rings}});
    out_ << open_object(head) << ",\n \"per_ring\": [";
    for (uint32_t ring = 0; ring < r.rings; ++ring) ring_stream(r, ring);
    const json summary = {
        {"keys",
         {{"busiest_over_mean", spread_json(r.key_busiest, false)},
          {"share_std_pct", spread_json(r.key_std, true)}}},
        {"circle", r.circle ? json{{"busiest_over_mean", spread_json(r.circle_busiest, false)},
                                   {"share_std_pct", spread_json(r.circle_std, true)}}
                            : json(nullptr)}};
    const json theory = {
        {"key_share_std_pct", r.theory_keys},
        {"circle_share_std_pct", r.circle ? json(r.theory_circle) : json(nullptr)},
        {"busiest_over_mean", r.theory_busiest ? json(*r.theory_busiest) : json(nullptr)}};
    // With weights, the stats are of share / fair share and no theory applies.
    out_ << "\n ],\n \"summary\": " << dump_at(summary, 1)
         << ",\n \"weighted\": " << (r.weighted() ? "true" : "false")
         << ",\n \"theory\": " << dump_at(r.weighted() ? json(nullptr) : theory, 1) << "\n}\n";
  }

  void balance_removals(const Setup& s, const RemovalBalanceReport& r) override {
    json j = head_json("balance", s, scenario_json(s));
    add_members(j, {{"keys", r.keys}, {"removals", json::array()}});
    for (const RemovalBalanceRow& row : r.rows)
      j["removals"].push_back({{"fraction", row.fraction},
                               {"removed", row.removed},
                               {"nodes", row.nodes},
                               {"min", row.min},
                               {"max", row.max},
                               {"mean", row.mean},
                               {"busiest_over_mean", row.stats.busiest_over_mean},
                               {"share_std_pct", row.stats.std_pct}});
    out_ << dump(j) << '\n';
  }

  void load_balance(const Setup& s, const LoadBalanceReport& r) override {
    load_balance_json(out_, s, r);
  }
  void load_move(const Setup& s, const LoadMoveReport& r) override { load_move_json(out_, s, r); }
  void tokens(const std::string& ring, const std::vector<AllocationRow>& rows) override {
    tokens_json(out_, ring, rows);
  }

 private:
  static json move_json(const Setup& s, const MoveReport& r) {
    const MoveResult& m = r.result;
    json j = head_json("move", s, scenario_json(s));
    add_members(j, {{"step", step_name(r.step)},
                    {"keys", m.keys},
                    {"nodes_before", r.before.size()},
                    {"nodes_after", r.after.size()},
                    {"added", json::array()},
                    {"removed", json::array()},
                    {"moved", m.moved},
                    {"moved_fraction", ratio(m.moved, m.keys)},
                    {"between_old", m.between_old},
                    {"between_old_fraction", ratio(m.between_old, m.keys)},
                    {"between_old_share_of_moved", ratio(m.between_old, m.moved)},
                    {"to_added", m.to_added},
                    {"from_removed", m.from_removed},
                    {"flows_from_removed", json::array()},
                    {"flows_to_added", json::array()}});
    if (r.replica_sets)
      j["replica_sets"] = {{"replicas", r.replica_sets->r},
                           {"changed", r.replica_sets->changed},
                           {"changed_fraction", ratio(r.replica_sets->changed, m.keys)},
                           {"new_members", r.replica_sets->members},
                           {"keys_by_new_members", r.replica_sets->by_members}};
    for (uint32_t b : m.removed) j["removed"].push_back(owner_name(r.before, b));
    for (uint32_t a : m.added) j["added"].push_back(owner_name(r.after, a));
    for (const Flow& f : r.from_removed)
      j["flows_from_removed"].push_back(flow_json(f, r.before, r.after, "receivers", "to"));
    for (const Flow& f : r.to_added)
      j["flows_to_added"].push_back(flow_json(f, r.after, r.before, "donors", "from"));
    j["returns"] =
        r.returns
            ? json{{"readded_old_keys", r.returns->old_keys},
                   {"returned", r.returns->returned},
                   {"returned_share_of_old_keys", ratio(r.returns->returned, r.returns->old_keys)},
                   {"relocated", r.returns->relocated},
                   {"relocated_fraction", ratio(r.returns->relocated, m.keys)}}
            : json(nullptr);
    j["theory"] = r.theory ? json{{"moved_fraction", r.theory->moved},
                                  {"between_old_fraction", r.theory->between_old}}
                           : json(nullptr);
    return j;
  }

  // One element of "per_ring", at depth 2: its nodes streamed one by one.
  void ring_stream(const BalanceReport& r, uint32_t ring) {
    b_ += ring == 0 ? "\n  {\n   \"nodes\": [" : ",\n  {\n   \"nodes\": [";
    for (uint32_t i = 0; i < r.nodes; ++i) {
      const uint64_t keys = r.results[ring].node_keys[i];
      json node = {{"name", r.name(ring, i)}, {"keys", keys}, {"key_share", ratio(keys, r.keys)}};
      if (r.weighted()) node["fair_share"] = r.fair[i];
      if (r.circle) node["circle_share"] = r.results[ring].circle[i];
      if (!r.points.empty()) node["points"] = r.points[i];
      b_ += i == 0 ? "\n    " : ",\n    ";
      b_ += dump_at(node, 4);
      out_.maybe_flush();
    }
    b_ += "\n   ],\n   \"keys\": " + dump_at(stats_json(r.key_stats[ring]), 3);
    b_ += ",\n   \"circle\": " +
          dump_at(r.circle ? stats_json(r.circle_stats[ring]) : json(nullptr), 3) + "\n  }";
  }

  Out& out_;
  std::string& b_;
  const char* column_ = nullptr;
};

}  // namespace

std::unique_ptr<Writer> make_json_writer(Out& out) { return std::make_unique<JsonWriter>(out); }

nlohmann::ordered_json json_head(const char* command, const Setup& s) {
  return head_json(command, s, nullptr);
}

}  // namespace chbench::lab
