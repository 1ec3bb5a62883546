#include "writers/load.h"

#include <algorithm>
#include <cinttypes>
#include <nlohmann/json.hpp>
#include <string>

#include "commands/balance.h"
#include "writers/json_head.h"

namespace chbench::lab {

namespace {

using json = nlohmann::ordered_json;

// A weighted fleet's stats are of share / fair (fair_share_stats): "busiest
// / fair" then.
std::string stats_text(const char* what, const ShareStats& st, bool weighted) {
  return fmt("%-9s busiest / %s %.4f, share std %.2f%% of fair\n", what, weighted ? "fair" : "mean",
             st.busiest_over_mean, st.std_pct);
}

}  // namespace

void load_balance_text(Out& out, const Setup& s, const LoadBalanceReport& r) {
  out << "scheme    " << scheme_label(s, s.nodes().vnodes) << ", kernel " << s.kernel_name << "\n";
  out << fmt("nodes     %u\nkeys      %" PRIu64 "\nrequests  %" PRIu64 "\n", r.fleet->size(),
             r.keys, r.requests);
  const bool weighted = !fair_shares(s).empty();
  out << stats_text("keys", r.key_stats, weighted)
      << stats_text("requests", r.request_stats, weighted);
  out << fmt("hottest   key takes %.4f%% of requests (%.3f x a fair node share)\n", 100 * r.hottest,
             r.hottest * r.fleet->size());
  if (r.bounded)
    out << fmt("bounded   c = %g, capacity %s%" PRIu64 ", max load %" PRIu64
               " (%.4f x %s), %" PRIu64 " requests walked past their owner\n",
               *r.c, weighted ? "by weight, up to " : "", r.bounded->capacity,
               *std::max_element(r.bounded->load.begin(), r.bounded->load.end()),
               r.bounded_stats.busiest_over_mean, weighted ? "fair" : "mean", r.bounded->walked)
        << stats_text("bounded", r.bounded_stats, weighted);
  out << fmt("%-20s %12s %14s%s\n", "node", "keys", "requests", r.bounded ? "        bounded" : "");
  for (uint32_t i = 0; i < r.fleet->size(); ++i) {
    out << fmt("%-20s %12" PRIu64 " %14" PRIu64, owner_name(*r.fleet, i).c_str(), r.node_keys[i],
               r.node_requests[i]);
    out << (r.bounded ? fmt(" %14" PRIu64 "\n", r.bounded->load[i]) : std::string("\n"));
  }
}

void load_balance_csv(Out& out, const LoadBalanceReport& r) {
  out << (r.bounded ? "node,keys,requests,bounded\n" : "node,keys,requests\n");
  for (uint32_t i = 0; i < r.fleet->size(); ++i) {
    append_csv(out.buffer(), owner_name(*r.fleet, i));
    out << fmt(",%" PRIu64 ",%" PRIu64, r.node_keys[i], r.node_requests[i]);
    out << (r.bounded ? fmt(",%" PRIu64 "\n", r.bounded->load[i]) : std::string("\n"));
  }
}

namespace {

// Appends `members` to object `j`, in their order.
void append(json& j, const json& members) {
  for (const auto& item : members.items()) j[item.key()] = item.value();
}

json stats_json(const ShareStats& st) {
  return {{"busiest_over_mean", st.busiest_over_mean}, {"share_std_pct", st.std_pct}};
}

}  // namespace

void load_balance_json(Out& out, const Setup& s, const LoadBalanceReport& r) {
  json j = json_head("balance", s);
  const json members = {{"nodes", r.fleet->size()},
                        {"keys", r.keys},
                        {"requests", r.requests},
                        {"key_load", stats_json(r.key_stats)},
                        {"request_load", stats_json(r.request_stats)},
                        {"hottest_key_share", r.hottest},
                        {"bounded", nullptr},
                        {"per_node", json::array()}};
  append(j, members);
  if (r.bounded)
    j["bounded"] = {{"c", *r.c},
                    {"capacity", r.bounded->capacity},
                    {"max_load", *std::max_element(r.bounded->load.begin(), r.bounded->load.end())},
                    {"walked", r.bounded->walked},
                    {"load", stats_json(r.bounded_stats)}};
  for (uint32_t i = 0; i < r.fleet->size(); ++i) {
    json row = {{"node", owner_name(*r.fleet, i)},
                {"keys", r.node_keys[i]},
                {"requests", r.node_requests[i]}};
    if (r.bounded) {
      row["bounded"] = r.bounded->load[i];
      row["capacity"] = r.bounded->capacities[i];
    }
    j["per_node"].push_back(row);
  }
  out << j.dump(1, ' ', false, json::error_handler_t::replace) << '\n';
}

void load_move_csv(Out& out, const LoadMoveReport& r) {
  const double keys = static_cast<double>(r.keys), reqs = static_cast<double>(r.requests);
  out << "placement,keys_moved,key_share,requests_moved,request_share\n";
  out << fmt("plain,%" PRIu64 ",%.6f,%" PRIu64 ",%.6f\n", r.plain.keys, r.plain.keys / keys,
             r.plain.requests, r.plain.requests / reqs);
  if (r.bounded)
    out << fmt("bounded,%" PRIu64 ",%.6f,%" PRIu64 ",%.6f\n", r.bounded->keys,
               r.bounded->keys / keys, r.bounded->requests, r.bounded->requests / reqs);
}

void load_move_json(Out& out, const Setup& s, const LoadMoveReport& r) {
  auto moved = [&](const LoadMoved& m) { return json{{"keys", m.keys}, {"requests", m.requests}}; };
  json j = json_head("move", s);
  const json bounded = r.bounded ? json{{"c", *r.c},
                                        {"capacity_before", r.capacity_before},
                                        {"capacity_after", r.capacity_after},
                                        {"moved", moved(*r.bounded)}}
                                 : json(nullptr);
  const json members = {
      {"nodes_before", r.nodes_before}, {"nodes_after", r.nodes_after}, {"keys", r.keys},
      {"requests", r.requests},         {"plain", moved(r.plain)},      {"bounded", bounded}};
  append(j, members);
  out << j.dump(1, ' ', false, json::error_handler_t::replace) << '\n';
}

void load_move_text(Out& out, const Setup& s, const LoadMoveReport& r) {
  const double keys = static_cast<double>(r.keys), reqs = static_cast<double>(r.requests);
  out << "scheme    " << scheme_label(s, s.nodes().vnodes) << ", kernel " << s.kernel_name << "\n";
  out << fmt("nodes     %u -> %u\nkeys      %" PRIu64 "\nrequests  %" PRIu64 "\n", r.nodes_before,
             r.nodes_after, r.keys, r.requests);
  out << fmt("moved     %" PRIu64 " keys (%s), %" PRIu64 " requests (%s)\n", r.plain.keys,
             pct(r.plain.keys / keys).c_str(), r.plain.requests,
             pct(r.plain.requests / reqs).c_str());
  if (r.bounded)
    out << fmt("bounded   c = %g (capacity %" PRIu64 " -> %" PRIu64 "): moved %" PRIu64
               " keys (%s), %" PRIu64 " requests (%s)\n",
               *r.c, r.capacity_before, r.capacity_after, r.bounded->keys,
               pct(r.bounded->keys / keys).c_str(), r.bounded->requests,
               pct(r.bounded->requests / reqs).c_str());
}

}  // namespace chbench::lab
