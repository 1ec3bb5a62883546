// JSON (nlohmann, keys in the order written): one object per command. The
// owners and the moved keys, which can be millions, are streamed rather than
// built as a tree. Bytes that are not UTF-8 become U+FFFD.
#include <nlohmann/json.hpp>

#include "writers/writer.h"

namespace chbench::lab {

namespace {

using json = nlohmann::ordered_json;

// A JSON string.
std::string json_string(std::string_view s) {
  return json(std::string(s)).dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string dump(const json& j) { return j.dump(1, ' ', false, json::error_handler_t::replace); }

json vnodes_json(const Setup& s) { return uses_vnodes(s) ? json(s.nodes().vnodes) : json(nullptr); }

json profile_json(const Setup& s) {
  return s.placement.profile ? json(profile_name(*s.placement.profile)) : json(nullptr);
}

// One flow: the node, its keys, how many peers and each peer's keys.
json flow_json(const Flow& f, const std::vector<std::string>& own,
               const std::vector<std::string>& peers, const char* count, const char* list) {
  json j = {
      {"node", own[f.node]}, {"keys", f.keys}, {count, f.peers.size()}, {list, json::array()}};
  for (const auto& [node, keys] : f.peers)
    j[list].push_back({{"node", peers[node]}, {"keys", keys}});
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
    json head = {{"command", "owners"},        {"scheme", scheme_name(s.scheme)},
                 {"profile", profile_json(s)}, {"vnodes", vnodes_json(s)},
                 {"kernel", s.kernel_name},    {"nodes", s.nodes().names},
                 {"keys", keys.size()}};
    std::string text = head.dump(-1, ' ', false, json::error_handler_t::replace);
    text.pop_back();  // reopen the object for the streamed "owners" array
    out_ << text << ",\"owners\":[";
  }

  void owner(const OwnerRow& row) override {
    b_ += row.index == 0 ? "\n{\"key\":" : ",\n{\"key\":";
    b_ += json_string(row.key);
    b_ += ",\"owner\":";
    b_ += json_string(row.owner);
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
      b_ += first ? "\n  {\"key\":" : ",\n  {\"key\":";
      first = false;
      b_ += json_string(key);
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
    json j = {{"command", "balance"},
              {"scheme", scheme_name(s.scheme)},
              {"profile", profile_json(s)},
              {"vnodes", vnodes_json(s)},
              {"kernel", s.kernel_name},
              {"nodes", r.nodes},
              {"keys", r.keys},
              {"rings", r.rings},
              {"per_ring", json::array()}};
    for (uint32_t ring = 0; ring < r.rings; ++ring) j["per_ring"].push_back(ring_json(r, ring));
    j["summary"] = {
        {"keys",
         {{"busiest_over_mean", spread_json(r.key_busiest, false)},
          {"share_std_pct", spread_json(r.key_std, true)}}},
        {"circle", r.circle ? json{{"busiest_over_mean", spread_json(r.circle_busiest, false)},
                                   {"share_std_pct", spread_json(r.circle_std, true)}}
                            : json(nullptr)}};
    j["theory"] = {
        {"key_share_std_pct", r.theory_keys},
        {"circle_share_std_pct", r.circle ? json(r.theory_circle) : json(nullptr)},
        {"busiest_over_mean", r.theory_busiest ? json(*r.theory_busiest) : json(nullptr)}};
    out_ << dump(j) << '\n';
  }

 private:
  static json move_json(const Setup& s, const MoveReport& r) {
    const MoveResult& m = r.result;
    const auto& before = r.before.nodes().names;
    const auto& after = r.after.nodes().names;
    json j = {{"command", "move"},
              {"scheme", scheme_name(s.scheme)},
              {"profile", profile_json(s)},
              {"vnodes", vnodes_json(s)},
              {"kernel", s.kernel_name},
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
              {"flows_to_added", json::array()}};
    for (const Flow& f : r.from_removed) {
      j["removed"].push_back(before[f.node]);
      j["flows_from_removed"].push_back(flow_json(f, before, after, "receivers", "to"));
    }
    for (const Flow& f : r.to_added) {
      j["added"].push_back(after[f.node]);
      j["flows_to_added"].push_back(flow_json(f, after, before, "donors", "from"));
    }
    j["theory"] = r.theory ? json{{"moved_fraction", r.theory->moved},
                                  {"between_old_fraction", r.theory->between_old}}
                           : json(nullptr);
    return j;
  }

  static json ring_json(const BalanceReport& r, uint32_t ring) {
    json nodes = json::array();
    for (uint32_t i = 0; i < r.nodes; ++i) {
      const uint64_t keys = r.results[ring].node_keys[i];
      json node = {{"name", r.name(ring, i)}, {"keys", keys}, {"key_share", ratio(keys, r.keys)}};
      if (r.circle) node["circle_share"] = r.results[ring].circle[i];
      nodes.push_back(node);
    }
    json one = {{"nodes", nodes}, {"keys", stats_json(r.key_stats[ring])}};
    one["circle"] = r.circle ? stats_json(r.circle_stats[ring]) : json(nullptr);
    return one;
  }

  Out& out_;
  std::string& b_;
  const char* column_ = nullptr;
};

}  // namespace

std::unique_ptr<Writer> make_json_writer(Out& out) { return std::make_unique<JsonWriter>(out); }

}  // namespace chbench::lab
