// chbench-lab: what each placement scheme does to the data. Three commands:
//   owners   each key's owner;
//   move     which keys change owner when nodes join or leave;
//   balance  how evenly keys (and, for the ring, the circle) spread.
// The measurements live in src/placement.{h,cc}; this file parses the command
// line and prints text, CSV or JSON. Exit status: 0 ok, 1 an internal failure
// (out of memory, a write error), 2 bad input, always with a one-line message
// on stderr and nothing on stdout for that error.
#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <exception>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <new>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "chbench/maglev/maglev.h"
#include "placement.h"

namespace chbench::lab {
namespace {

// Keys in the order written, so that reports read top-down.
using json = nlohmann::ordered_json;

constexpr const char* kProgram = "chbench-lab";

// ---- options -------------------------------------------------------------------

struct Options {
  std::string scheme;
  std::string profile;
  std::string nodes;
  std::string keys;
  std::optional<uint32_t> vnodes;  // default 100 (ring), 256 (cassandra profile)
  std::string weights;             // ketama profile
  uint32_t table_size = 65537;     // Maglev
  std::string format = "text";
  std::string kernel;
  unsigned threads = 0;
  // move
  std::vector<std::string> add, remove;
  bool list = false;
  // balance
  uint32_t rings = 1;
};

enum class Format { kText, kCsv, kJson };

Format parse_format(const std::string& s) {
  if (s == "text") return Format::kText;
  if (s == "csv") return Format::kCsv;
  if (s == "json") return Format::kJson;
  throw std::invalid_argument("unknown format '" + s + "' (known: text, csv, json)");
}

// Everything a command needs, parsed and checked before anything is printed.
struct Setup {
  Scheme scheme{};  // for a profile, the scheme whose kernels it uses
  Placement placement;
  Format format{};
  NodeSet nodes;
  std::string kernel;       // as given to make_table
  std::string kernel_name;  // "scheme/kernel" for reports
};

// "2,1,1" -> one weight per node of `nodes`, by name.
std::map<std::string, uint32_t, std::less<>> parse_weights(const std::string& spec,
                                                           const NodeSet& nodes) {
  std::vector<uint32_t> weights;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = spec.find(',', start);
    const std::string item = spec.substr(start, comma - start);
    uint32_t w = 0;
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), w);
    if (ec != std::errc() || end != item.data() + item.size() || w == 0 || w > 0x80000000u)
      throw std::invalid_argument("--weights: '" + item + "' is not a weight 1 ... 2^31");
    weights.push_back(w);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (weights.size() != nodes.size())
    throw std::invalid_argument("--weights gives " + std::to_string(weights.size()) +
                                " weights for " + std::to_string(nodes.size()) + " nodes");
  std::map<std::string, uint32_t, std::less<>> by_name;
  for (uint32_t i = 0; i < nodes.size(); ++i) by_name[nodes.names[i]] = weights[i];
  return by_name;
}

Setup setup_from(const Options& o) {
  Setup s;
  if (o.scheme.empty() == o.profile.empty())
    throw std::invalid_argument("give --scheme or --profile (one of them)");
  if (!o.profile.empty()) {
    s.placement.profile = parse_profile(o.profile);
    s.scheme = profile_scheme(*s.placement.profile);
  } else {
    s.scheme = parse_scheme(o.scheme);
  }
  s.placement.scheme = s.scheme;
  s.format = parse_format(o.format);
  const uint32_t vnodes = o.vnodes.value_or(s.placement.profile == Profile::kCassandra ? 256 : 100);
  if (vnodes == 0) throw std::invalid_argument("--vnodes must be at least 1 (V = 0)");
  s.nodes = parse_nodes(o.nodes, vnodes);
  s.nodes.table_size = o.table_size;
  if (!o.weights.empty()) {
    if (s.placement.profile != Profile::kKetama)
      throw std::invalid_argument("--weights applies to --profile ketama only");
    s.placement.weights = parse_weights(o.weights, s.nodes);
  }
  s.kernel = o.kernel;
  const std::string_view default_kernel =
      s.placement.profile ? default_profile_kernel(*s.placement.profile) : fastest_kernel(s.scheme);
  if (s.kernel != "reference")  // find_kernel throws for an unknown name
    s.kernel_name = find_kernel(s.scheme, o.kernel.empty() ? default_kernel : o.kernel).full_name();
  else
    s.kernel_name = std::string(s.placement.profile ? profile_name(*s.placement.profile)
                                                    : scheme_name(s.scheme)) +
                    "/reference";
  if (s.placement.profile) {
    profile_cluster(s.placement, s.nodes);  // throws for a cluster the profile refuses
    return s;
  }
  if (s.scheme == Scheme::kMaglev) validate_maglev(s.nodes);
  if (s.scheme == Scheme::kRing && uint64_t{s.nodes.size()} * s.nodes.vnodes > 0xffffffffu)
    throw std::invalid_argument("N * V = " + std::to_string(uint64_t{s.nodes.size()} * vnodes) +
                                " tokens exceeds the 2^32 - 1 a ring indexes");
  if (s.scheme == Scheme::kJump && s.nodes.size() > 0x7fffffffu)
    throw std::invalid_argument("jump hash takes at most 2^31 - 1 buckets");
  return s;
}

// Refuses a command whose tables would not fit in memory, before any is
// built: a ring's sorted entries, tokens, owners and kernel layout (about 48
// bytes a token at their peak; ketama places 160 points per unit of weight),
// rendezvous seeds (16 bytes a node), a Maglev table (4 bytes a slot, plus
// 16 a node); move builds two tables; balance keeps, per repetition, every
// node's name and counts (about 96 bytes a node).
void check_tables_fit(const Setup& s, const Options& o, bool move, bool balance) {
  const uint64_t n = s.nodes.size();
  uint64_t table = 0;
  if (s.scheme == Scheme::kRing) {
    uint64_t tokens = n * s.nodes.vnodes;
    if (s.placement.profile == Profile::kKetama) {
      tokens = 0;
      for (const auto& name : s.nodes.names) {
        const auto w = s.placement.weights.find(name);
        tokens += 160 * uint64_t{w == s.placement.weights.end() ? 1u : w->second};
      }
    }
    table = tokens * 48;
  } else if (s.scheme == Scheme::kRendezvous) {
    table = n * 16;
  } else if (s.scheme == Scheme::kMaglev) {
    table = uint64_t{s.nodes.table_size} * 4 + n * 16;
  }
  uint64_t bytes = table * (move ? 2 : 1);
  if (balance) bytes += uint64_t{o.rings} * n * 96;
  check_memory(
      bytes,
      "the " + std::string(scheme_name(s.scheme)) + " table(s) of N = " + std::to_string(n) +
          (s.scheme == Scheme::kRing ? ", V = " + std::to_string(s.nodes.vnodes) : std::string()) +
          (balance && o.rings > 1 ? " over " + std::to_string(o.rings) + " rings" : std::string()));
}

// True where --vnodes means something: the ring scheme, the cassandra profile.
bool uses_vnodes(const Setup& s) {
  return s.placement.profile ? s.placement.profile == Profile::kCassandra
                             : s.scheme == Scheme::kRing;
}

// "ring (V = 100)", "hrw", "maglev (M = 65537)", "cassandra profile (num_tokens = 256)".
std::string scheme_label(const Setup& s, uint32_t vnodes) {
  std::string label(s.placement.profile ? profile_name(*s.placement.profile)
                                        : scheme_name(s.scheme));
  if (s.placement.profile) label += " profile";
  if (uses_vnodes(s))
    label += (s.placement.profile ? " (num_tokens = " : " (V = ") + std::to_string(vnodes) + ")";
  if (s.scheme == Scheme::kMaglev && s.placement.profile != Profile::kRedis)
    label += " (M = " + std::to_string(s.nodes.table_size) + ")";
  return label;
}

json vnodes_json(const Setup& s) { return uses_vnodes(s) ? json(s.nodes.vnodes) : json(nullptr); }

json profile_json(const Setup& s) {
  return s.placement.profile ? json(profile_name(*s.placement.profile)) : json(nullptr);
}

// The column owners prints beside a profile's owner: what the system itself
// would show for the key, from the profile's key hash.
const char* hash_column(Profile p) {
  return p == Profile::kRedis ? "slot" : p == Profile::kCassandra ? "token" : "hash";
}
std::string hash_value(Profile p, uint64_t h) {
  if (p == Profile::kKetama) return std::to_string(h >> 32);
  if (p == Profile::kCassandra)
    return std::to_string(static_cast<int64_t>(h ^ (uint64_t{1} << 63)));
  return std::to_string(h);
}

// ---- output ---------------------------------------------------------------------

// Buffered stdout: one fwrite per megabyte. Commands append to buffer() and
// call maybe_flush() in long loops. When an exception unwinds, what is left in
// the buffer is dropped rather than printed.
class Out {
 public:
  Out() : exceptions_(std::uncaught_exceptions()) {}
  ~Out() {
    if (std::uncaught_exceptions() == exceptions_) flush();
  }
  Out(const Out&) = delete;
  Out& operator=(const Out&) = delete;

  Out& operator<<(std::string_view s) {
    buf_.append(s);
    maybe_flush();
    return *this;
  }
  Out& operator<<(char c) {
    buf_.push_back(c);
    return *this;
  }
  std::string& buffer() { return buf_; }
  void maybe_flush() {
    if (buf_.size() >= (std::size_t{1} << 20)) flush();
  }
  void flush() {
    if (!buf_.empty()) std::fwrite(buf_.data(), 1, buf_.size(), stdout);
    buf_.clear();
  }

 private:
  int exceptions_;
  std::string buf_;
};

// printf into a std::string.
template <class... Args>
std::string fmt(const char* format, Args... args) {
  char buf[256];
  const int n = std::snprintf(buf, sizeof buf, format, args...);
  return std::string(buf, static_cast<std::size_t>(std::clamp(n, 0, int{sizeof buf} - 1)));
}

// RFC 4180: quote a field holding a comma, quote, CR or LF; double the quotes.
void append_csv(std::string& out, std::string_view field) {
  if (field.find_first_of(",\"\r\n") == std::string_view::npos) {
    out.append(field);
    return;
  }
  out.push_back('"');
  for (char c : field) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  out.push_back('"');
}

// A JSON string; bytes that are not UTF-8 become U+FFFD.
std::string json_string(std::string_view s) {
  return json(std::string(s)).dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string dump(const json& j) { return j.dump(1, ' ', false, json::error_handler_t::replace); }

std::string pct(double fraction) { return fmt("%.3f%%", 100.0 * fraction); }

double ratio(uint64_t a, uint64_t b) {
  return b == 0 ? 0.0 : static_cast<double>(a) / static_cast<double>(b);
}

// ---- owners ------------------------------------------------------------------------

int run_owners(const Setup& s, const KeySet& keys) {
  const auto table = make_table(s.placement, s.nodes, s.kernel);
  const std::optional<Profile> profile = s.placement.profile;
  Out out;
  std::string& b = out.buffer();
  if (s.format == Format::kCsv)
    out << (profile ? std::string("key,owner,") + hash_column(*profile) + "\n" : "key,owner\n");
  if (s.format == Format::kJson) {
    json head = {{"command", "owners"},        {"scheme", scheme_name(s.scheme)},
                 {"profile", profile_json(s)}, {"vnodes", vnodes_json(s)},
                 {"kernel", s.kernel_name},    {"nodes", s.nodes.names},
                 {"keys", keys.size()}};
    std::string text = head.dump(-1, ' ', false, json::error_handler_t::replace);
    text.pop_back();  // reopen the object for the streamed "owners" array
    out << text << ",\"owners\":[";
  }
  // Owners of a slice of keys at a time, looked up in parallel, printed in order.
  constexpr uint64_t kSlice = uint64_t{1} << 16;
  std::vector<uint32_t> owners(std::min(kSlice, keys.size()));
  std::vector<uint64_t> hashes(profile ? owners.size() : 0);
  std::string key;
  for (uint64_t first = 0; first < keys.size(); first += kSlice) {
    const std::span<uint32_t> slice(owners.data(), std::min(kSlice, keys.size() - first));
    lookup_owners(*table, keys, first, slice, profile);
    if (profile) keys.hashes(first, std::span(hashes).first(slice.size()), profile);
    for (std::size_t i = 0; i < slice.size(); ++i) {
      key.clear();
      keys.append_key(first + i, key);
      const std::string& owner = s.nodes.names[slice[i]];
      const std::string hash = profile ? hash_value(*profile, hashes[i]) : std::string();
      switch (s.format) {
        case Format::kText:
          b += key;
          b += '\t';
          b += owner;
          if (profile) (b += '\t') += hash;
          b += '\n';
          break;
        case Format::kCsv:
          append_csv(b, key);
          b += ',';
          append_csv(b, owner);
          if (profile) (b += ',') += hash;
          b += '\n';
          break;
        case Format::kJson:
          b += first + i == 0 ? "\n{\"key\":" : ",\n{\"key\":";
          b += json_string(key);
          b += ",\"owner\":";
          b += json_string(owner);
          if (profile) b += std::string(",\"") + hash_column(*profile) + "\":" + hash;
          b += '}';
          break;
      }
      out.maybe_flush();
    }
  }
  if (s.format == Format::kJson) out << "\n]}\n";
  return 0;
}

// ---- move -----------------------------------------------------------------------------

// Nodes with a positive count, busiest first (ties: list order).
std::vector<std::pair<uint32_t, uint64_t>> ranked(const std::vector<uint64_t>& counts) {
  std::vector<std::pair<uint32_t, uint64_t>> out;
  for (uint32_t i = 0; i < counts.size(); ++i)
    if (counts[i] > 0) out.emplace_back(i, counts[i]);
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  return out;
}

int run_move(const Setup& s, const Options& o, const KeySet& keys) {
  if (o.add.empty() && o.remove.empty())
    throw std::invalid_argument("move needs --add NODE[,NODE...] or --remove NODE[,NODE...]");
  if (s.placement.profile == Profile::kKafka && !o.remove.empty())
    throw std::invalid_argument(
        "Kafka cannot take partitions away from a topic (kafka-topics --alter only adds them)");
  const NodeSet& before = s.nodes;
  const NodeSet after = apply_change(s.scheme, before, o.add, o.remove);
  // Every key may move (mod-N moves almost all): the list must fit as a whole.
  if (o.list)
    check_memory(keys.size() * sizeof(MovedKey),
                 "--list of " + std::to_string(keys.size()) + " keys");
  const MoveResult r = measure_move(s.placement, before, after, keys, o.list, s.kernel);
  const uint64_t k = r.keys;
  // The classic growth N -> N + 1 has a closed form (placement.h) where the
  // newcomer only takes keys (not Maglev, whose table shifts between old
  // nodes too, nor Redis, whose slot ranges are laid out afresh).
  std::optional<GrowthTheory> theory;
  if (r.removed.empty() && r.added.size() == 1 && s.scheme != Scheme::kMaglev)
    theory = growth_theory(s.scheme, before.size());

  Out out;
  std::string& b = out.buffer();
  if (s.format == Format::kJson) {
    json j = {{"command", "move"},
              {"scheme", scheme_name(s.scheme)},
              {"profile", profile_json(s)},
              {"vnodes", vnodes_json(s)},
              {"kernel", s.kernel_name},
              {"keys", k},
              {"nodes_before", before.size()},
              {"nodes_after", after.size()},
              {"added", json::array()},
              {"removed", json::array()},
              {"moved", r.moved},
              {"moved_fraction", ratio(r.moved, k)},
              {"between_old", r.between_old},
              {"between_old_fraction", ratio(r.between_old, k)},
              {"between_old_share_of_moved", ratio(r.between_old, r.moved)},
              {"to_added", r.to_added},
              {"from_removed", r.from_removed},
              {"flows_from_removed", json::array()},
              {"flows_to_added", json::array()}};
    for (std::size_t i = 0; i < r.removed.size(); ++i) {
      const std::string& name = before.names[r.removed[i]];
      j["removed"].push_back(name);
      json flow = {{"node", name}, {"keys", 0}, {"receivers", 0}, {"to", json::array()}};
      uint64_t total = 0;
      for (const auto& [node, count] : ranked(r.removed_to[i])) {
        flow["to"].push_back({{"node", after.names[node]}, {"keys", count}});
        total += count;
      }
      flow["keys"] = total;
      flow["receivers"] = flow["to"].size();
      j["flows_from_removed"].push_back(flow);
    }
    for (std::size_t i = 0; i < r.added.size(); ++i) {
      const std::string& name = after.names[r.added[i]];
      j["added"].push_back(name);
      json flow = {{"node", name}, {"keys", 0}, {"donors", 0}, {"from", json::array()}};
      uint64_t total = 0;
      for (const auto& [node, count] : ranked(r.added_from[i])) {
        flow["from"].push_back({{"node", before.names[node]}, {"keys", count}});
        total += count;
      }
      flow["keys"] = total;
      flow["donors"] = flow["from"].size();
      j["flows_to_added"].push_back(flow);
    }
    j["theory"] = theory ? json{{"moved_fraction", theory->moved},
                                {"between_old_fraction", theory->between_old}}
                         : json(nullptr);
    std::string text = dump(j);
    if (!o.list) {
      out << text << '\n';
      return 0;
    }
    // The moved keys can be millions: streamed, not built as a JSON tree.
    text.resize(text.rfind('}'));
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    out << text << ",\n \"moved_keys\": [";
    std::string key;
    for (std::size_t i = 0; i < r.moved_keys.size(); ++i) {
      const MovedKey& m = r.moved_keys[i];
      key.clear();
      keys.append_key(m.key, key);
      b += i == 0 ? "\n  {\"key\":" : ",\n  {\"key\":";
      b += json_string(key);
      b += ",\"from\":";
      b += json_string(before.names[m.from]);
      b += ",\"to\":";
      b += json_string(after.names[m.to]);
      b += '}';
      out.maybe_flush();
    }
    out << "\n ]\n}\n";
    return 0;
  }

  if (s.format == Format::kCsv) {
    if (o.list) {
      out << "key,from,to\n";
      std::string key;
      for (const MovedKey& m : r.moved_keys) {
        key.clear();
        keys.append_key(m.key, key);
        append_csv(b, key);
        b += ',';
        append_csv(b, before.names[m.from]);
        b += ',';
        append_csv(b, after.names[m.to]);
        b += '\n';
        out.maybe_flush();
      }
      return 0;
    }
    out << "measure,from,to,keys,fraction\n";
    auto row = [&](std::string_view what, std::string_view from, std::string_view to, uint64_t n) {
      b += what;
      b += ',';
      append_csv(b, from);
      b += ',';
      append_csv(b, to);
      b += fmt(",%" PRIu64 ",%.9g\n", n, ratio(n, k));
    };
    row("keys", "", "", k);
    row("moved", "", "", r.moved);
    row("between_old", "", "", r.between_old);
    row("to_added", "", "", r.to_added);
    row("from_removed", "", "", r.from_removed);
    for (std::size_t i = 0; i < r.removed.size(); ++i)
      for (const auto& [node, count] : ranked(r.removed_to[i]))
        row("flow", before.names[r.removed[i]], after.names[node], count);
    for (std::size_t i = 0; i < r.added.size(); ++i)
      for (const auto& [node, count] : ranked(r.added_from[i]))
        row("flow", before.names[node], after.names[r.added[i]], count);
    return 0;
  }

  // Text.
  b += "scheme    " + scheme_label(s, before.vnodes) + ", kernel " + s.kernel_name + "\n";
  b += fmt("keys      %" PRIu64 "\n", k);
  b += fmt("nodes     %u -> %u", before.size(), after.size());
  auto names = [](const std::vector<uint32_t>& idx, const NodeSet& set) {
    std::string list;
    for (uint32_t i : idx) list += (list.empty() ? "" : ", ") + set.names[i];
    return list;
  };
  if (!r.removed.empty()) b += " (removed " + names(r.removed, before) + ")";
  if (!r.added.empty()) b += " (added " + names(r.added, after) + ")";
  b += "\n";
  b += fmt("moved     %" PRIu64 " keys, %s of all keys\n", r.moved, pct(ratio(r.moved, k)).c_str());
  b += fmt("  between old nodes  %12" PRIu64 "  %9s of keys  %9s of moved\n", r.between_old,
           pct(ratio(r.between_old, k)).c_str(), pct(ratio(r.between_old, r.moved)).c_str());
  b += fmt("  to added nodes     %12" PRIu64 "  %9s of keys  %9s of moved\n", r.to_added,
           pct(ratio(r.to_added, k)).c_str(), pct(ratio(r.to_added, r.moved)).c_str());
  b += fmt("  from removed nodes %12" PRIu64 "  %9s of keys  %9s of moved\n", r.from_removed,
           pct(ratio(r.from_removed, k)).c_str(), pct(ratio(r.from_removed, r.moved)).c_str());
  if (theory)
    b += fmt("theory    %s moved, %s between old nodes (N -> N + 1, uniform hashes)\n",
             pct(theory->moved).c_str(), pct(theory->between_old).c_str());
  for (std::size_t i = 0; i < r.removed.size(); ++i) {
    const auto flows = ranked(r.removed_to[i]);
    uint64_t total = 0;
    for (const auto& f : flows) total += f.second;
    b += fmt("%s's %" PRIu64 " keys went to %zu node(s):\n", before.names[r.removed[i]].c_str(),
             total, flows.size());
    for (const auto& [node, count] : flows)
      b += fmt("  %-20s %12" PRIu64 "  %9s\n", after.names[node].c_str(), count,
               pct(ratio(count, total)).c_str());
  }
  for (std::size_t i = 0; i < r.added.size(); ++i) {
    const auto flows = ranked(r.added_from[i]);
    uint64_t total = 0;
    for (const auto& f : flows) total += f.second;
    b += fmt("%s took %" PRIu64 " keys from %zu node(s):\n", after.names[r.added[i]].c_str(), total,
             flows.size());
    for (const auto& [node, count] : flows)
      b += fmt("  %-20s %12" PRIu64 "  %9s\n", before.names[node].c_str(), count,
               pct(ratio(count, total)).c_str());
  }
  if (o.list) {
    b += "moved keys (key, from, to):\n";
    std::string key;
    for (const MovedKey& m : r.moved_keys) {
      key.clear();
      keys.append_key(m.key, key);
      b += key;
      b += '\t';
      b += before.names[m.from];
      b += '\t';
      b += after.names[m.to];
      b += '\n';
      out.maybe_flush();
    }
  }
  return 0;
}

// ---- balance ----------------------------------------------------------------------------

// Mean, standard deviation, extremes and root mean square of one metric over
// the rings.
struct Spread {
  double mean = 0, sd = 0, min = 0, max = 0, rms = 0;
};

Spread spread_of(const std::vector<double>& values) {
  Spread s;
  const double n = static_cast<double>(values.size());
  s.min = *std::min_element(values.begin(), values.end());
  s.max = *std::max_element(values.begin(), values.end());
  double sum = 0, squares = 0;
  for (double v : values) {
    sum += v;
    squares += v * v;
  }
  s.mean = sum / n;
  s.rms = std::sqrt(squares / n);
  double dev = 0;
  for (double v : values) dev += (v - s.mean) * (v - s.mean);
  s.sd = values.size() > 1 ? std::sqrt(dev / (n - 1)) : 0.0;
  return s;
}

json spread_json(const Spread& s, bool pooled) {
  json j = {{"mean", s.mean}, {"sd", s.sd}, {"min", s.min}, {"max", s.max}};
  // Every ring's shares have mean exactly 1/N, so the standard deviation of all
  // R * N shares together is the root mean square of the per-ring ones.
  if (pooled) j["pooled"] = s.rms;
  return j;
}

int run_balance(const Setup& s, const Options& o, const KeySet& keys) {
  if (o.rings == 0) throw std::invalid_argument("--rings must be at least 1");
  if (o.rings > 100000) throw std::invalid_argument("--rings takes at most 100000 rings");
  const bool by_position =
      s.placement.profile
          ? s.placement.profile == Profile::kKafka || s.placement.profile == Profile::kRedis
          : s.scheme == Scheme::kModN || s.scheme == Scheme::kJump;
  if (o.rings > 1 && by_position)
    throw std::invalid_argument("--rings repeats over new node names, but " +
                                std::string(s.placement.profile ? profile_name(*s.placement.profile)
                                                                : scheme_name(s.scheme)) +
                                " places keys by node position only: every repetition would be "
                                "the same; use --scheme ring, hrw or maglev");
  const bool ring = !s.placement.profile && s.scheme == Scheme::kRing;
  const uint32_t n = s.nodes.size();
  std::vector<Balance> results;
  std::vector<NodeSet> sets;
  std::vector<ShareStats> key_stats, circle_stats;
  for (uint32_t r = 0; r < o.rings; ++r) {
    sets.push_back(replica_nodes(s.nodes, r));
    // Ketama weights follow their servers into the replica ("@r" names).
    Placement placement = s.placement;
    placement.weights.clear();
    for (uint32_t i = 0; i < s.nodes.size(); ++i) {
      const auto w = s.placement.weights.find(s.nodes.names[i]);
      if (w != s.placement.weights.end()) placement.weights[sets.back().names[i]] = w->second;
    }
    results.push_back(measure_balance(placement, sets.back(), keys, s.kernel));
    key_stats.push_back(share_stats(std::span<const uint64_t>(results.back().node_keys)));
    if (ring) circle_stats.push_back(share_stats(std::span<const double>(results.back().circle)));
  }
  auto spread = [](const std::vector<ShareStats>& stats, double ShareStats::*field) {
    std::vector<double> v;
    for (const auto& st : stats) v.push_back(st.*field);
    return spread_of(v);
  };
  const Spread kb = spread(key_stats, &ShareStats::busiest_over_mean);
  const Spread ks = spread(key_stats, &ShareStats::std_pct);
  Spread cb, cs;
  if (ring) {
    cb = spread(circle_stats, &ShareStats::busiest_over_mean);
    cs = spread(circle_stats, &ShareStats::std_pct);
  }
  const uint64_t k = keys.size();
  const uint64_t v = ring ? s.nodes.vnodes : 0;
  const double theory_keys = 100.0 * key_share_std_theory(n, v, k);
  const double theory_circle = ring ? 100.0 * ring_share_std_theory(n, v) : 0.0;
  const bool theory_busiest = ring && v == 1;

  Out out;
  std::string& b = out.buffer();
  if (s.format == Format::kJson) {
    json j = {{"command", "balance"},
              {"scheme", scheme_name(s.scheme)},
              {"profile", profile_json(s)},
              {"vnodes", vnodes_json(s)},
              {"kernel", s.kernel_name},
              {"nodes", n},
              {"keys", k},
              {"rings", o.rings},
              {"per_ring", json::array()}};
    for (uint32_t r = 0; r < o.rings; ++r) {
      json nodes = json::array();
      for (uint32_t i = 0; i < n; ++i) {
        json node = {{"name", sets[r].names[i]},
                     {"keys", results[r].node_keys[i]},
                     {"key_share", ratio(results[r].node_keys[i], k)}};
        if (ring) node["circle_share"] = results[r].circle[i];
        nodes.push_back(node);
      }
      json one = {{"nodes", nodes},
                  {"keys",
                   {{"busiest_over_mean", key_stats[r].busiest_over_mean},
                    {"share_std_pct", key_stats[r].std_pct}}}};
      one["circle"] = ring ? json{{"busiest_over_mean", circle_stats[r].busiest_over_mean},
                                  {"share_std_pct", circle_stats[r].std_pct}}
                           : json(nullptr);
      j["per_ring"].push_back(one);
    }
    j["summary"] = {
        {"keys",
         {{"busiest_over_mean", spread_json(kb, false)}, {"share_std_pct", spread_json(ks, true)}}},
        {"circle", ring ? json{{"busiest_over_mean", spread_json(cb, false)},
                               {"share_std_pct", spread_json(cs, true)}}
                        : json(nullptr)}};
    j["theory"] = {
        {"key_share_std_pct", theory_keys},
        {"circle_share_std_pct", ring ? json(theory_circle) : json(nullptr)},
        {"busiest_over_mean", theory_busiest ? json(ring_busiest_theory_v1(n)) : json(nullptr)}};
    out << dump(j) << '\n';
    return 0;
  }

  if (s.format == Format::kCsv) {
    b += "ring,node,keys,key_share,circle_share\n";
    for (uint32_t r = 0; r < o.rings; ++r)
      for (uint32_t i = 0; i < n; ++i) {
        b += std::to_string(r) + ',';
        append_csv(b, sets[r].names[i]);
        b += fmt(",%" PRIu64 ",%.9g,", results[r].node_keys[i], ratio(results[r].node_keys[i], k));
        if (ring) b += fmt("%.9g", results[r].circle[i]);
        b += '\n';
        out.maybe_flush();
      }
    return 0;
  }

  // Text.
  b += "scheme    " + scheme_label(s, s.nodes.vnodes) + ", kernel " + s.kernel_name + "\n";
  b += fmt("nodes     %u", n);
  if (o.rings > 1)
    b += fmt(" per ring, %u rings (names suffixed @1 ... @%u)", o.rings, o.rings - 1);
  b += fmt("\nkeys      %" PRIu64 "\n", k);
  if (o.rings == 1) {
    b += fmt("%-20s %12s %12s", "node", "keys", "key share");
    b += ring ? fmt(" %12s\n", "circle share") : "\n";
    for (uint32_t i = 0; i < n; ++i) {
      b += fmt("%-20s %12" PRIu64 " %12s", s.nodes.names[i].c_str(), results[0].node_keys[i],
               pct(ratio(results[0].node_keys[i], k)).c_str());
      b += ring ? fmt(" %12s\n", pct(results[0].circle[i]).c_str()) : "\n";
      out.maybe_flush();
    }
    b += fmt("%-26s %10s", "", "keys");
    b += ring ? fmt(" %10s\n", "circle") : "\n";
    b += fmt("%-26s %10.3f", "busiest / mean", kb.mean);
    b += ring ? fmt(" %10.3f\n", cb.mean) : "\n";
    b += fmt("%-26s %9.2f%%", "share std / fair share", ks.mean);
    b += ring ? fmt(" %9.2f%%\n", cs.mean) : "\n";
  } else {
    b += fmt("%-30s %9s %9s %9s %9s %9s\n", "over the rings", "mean", "sd", "min", "max", "pooled");
    auto line = [&](const char* what, const Spread& sp, bool pooled) {
      b += fmt("%-30s %9.3f %9.3f %9.3f %9.3f", what, sp.mean, sp.sd, sp.min, sp.max);
      b += pooled ? fmt(" %9.3f\n", sp.rms) : "\n";
    };
    line("busiest / mean (keys)", kb, false);
    line("share std % of fair (keys)", ks, true);
    if (ring) {
      line("busiest / mean (circle)", cb, false);
      line("share std % of fair (circle)", cs, true);
    }
  }
  if (ring)
    b += fmt("theory    share std %.2f%% of fair (circle, sqrt((N-1)/(N*V+1))), %.2f%% (keys)\n",
             theory_circle, theory_keys);
  else
    b += fmt("theory    share std %.2f%% of fair (keys, sampling noise sqrt((N-1)/K))\n",
             theory_keys);
  if (theory_busiest)
    b += fmt("          busiest / mean %.3f on average (H_N, one token per node)\n",
             ring_busiest_theory_v1(n));
  return 0;
}

// ---- command line ---------------------------------------------------------------------------

void add_common(CLI::App* cmd, Options& o, bool keys_required) {
  cmd->add_option("--scheme", o.scheme,
                  "placement scheme: modn, ring, hrw (rendezvous), jump, maglev");
  cmd->add_option("--profile", o.profile,
                  "instead of --scheme, place keys as a real system does: ketama (libmemcached), "
                  "redis (Cluster slots), kafka (default partitioner), cassandra "
                  "(Murmur3Partitioner), maglev; see docs/profiles.md");
  cmd->add_option("--weights", o.weights,
                  "ketama profile: one weight per node, W1,W2,... (default: all 1)");
  cmd->add_option("--table-size", o.table_size,
                  "Maglev lookup table size M, a prime >= N (default 65537)");
  cmd->add_option("--nodes", o.nodes,
                  "N (nodes node-0 ... node-(N-1)) or a comma list of names A,B,C")
      ->required();
  auto* keys = cmd->add_option(
      "--keys", o.keys,
      "K (keys user:1 ... user:K, K <= 10^10) or a file of one key per line ('-': standard "
      "input; a key is at most 65536 bytes, no NUL)" +
          std::string(keys_required ? "" : "; default 100000"));
  if (keys_required)
    keys->required();
  else
    o.keys = "100000";
  cmd->add_option(
      "--vnodes", o.vnodes,
      "tokens per node: ring (default 100), cassandra profile num_tokens (default 256)");
  cmd->add_option("--format", o.format, "text (default), csv or json");
  cmd->add_option("--kernel", o.kernel,
                  "kernel of the scheme (default: the fastest), or 'reference'");
  cmd->add_option("--threads", o.threads, "oneTBB threads (default 0: all cores)")
      ->check(CLI::Range(0u, 1024u));
}

int run(int argc, char** argv) {
  Options o;
  CLI::App app{
      "chbench-lab: what each consistent-hashing scheme does to the data: which keys move when "
      "nodes\njoin or leave, and how evenly keys spread. Placement as in SPEC.md, looked up with "
      "the\nlibrary's fast kernels on oneTBB. Exit status: 0 ok, 1 internal failure, 2 bad input.",
      kProgram};
  app.require_subcommand(1);
  app.footer(
      "Examples:\n"
      "  chbench-lab owners --scheme ring --nodes 5 --keys 10 --format csv\n"
      "  chbench-lab move --scheme modn --nodes 4 --add node-4\n"
      "  chbench-lab move --scheme ring --vnodes 1 --nodes 10 --remove node-3\n"
      "  chbench-lab balance --scheme ring --vnodes 16 --nodes 5 --rings 50\n"
      "  chbench-lab owners --profile redis --nodes 3 --keys 5\n"
      "  chbench-lab move --profile ketama --nodes a:11211,b:11211 --weights 1,2 --add c:11211\n"
      "  chbench-lab move --profile kafka --nodes 12 --add node-12");

  CLI::App* owners = app.add_subcommand("owners", "print each key's owner");
  owners->footer(
      "Prints key and owner name per line (text: tab-separated; csv: header key,owner).");
  add_common(owners, o, true);

  CLI::App* move = app.add_subcommand(
      "move", "keys whose owner changes when nodes join (--add) or leave (--remove)");
  add_common(move, o, false);
  auto* add =
      move->add_option("--add", o.add, "nodes that join, appended: X[,Y...]")->delimiter(',');
  auto* remove = move->add_option("--remove", o.remove,
                                  "nodes that leave: X[,Y...] (jump: only the last ones)")
                     ->delimiter(',');
  add->excludes(remove);
  move->add_flag("--list", o.list, "also name every moved key, with its old and new owner");
  move->footer(
      "Reports the keys whose owner (by name) changes: count and fraction; how many moved\n"
      "between two nodes present before and after (mod-N's waste); where each removed node's\n"
      "keys went and where each added node's came from. Jump numbers buckets 0 ... N-1 by list\n"
      "position, so it can only lose the last node(s); any other removal is refused.\n"
      "With --format csv --list, prints the moved keys as key,from,to instead of the summary.");

  CLI::App* balance = app.add_subcommand(
      "balance", "each node's share of keys (ring: and of the circle), busiest / mean, std");
  add_common(balance, o, false);
  balance->footer(
      "Share std is the population standard deviation of the node shares in % of a fair share\n"
      "(1/N); with --rings, 'pooled' is that over all R * N shares. Theory: for the ring\n"
      "sqrt((N-1)/(N*V+1)) (random tokens), plus sqrt((N-1)/K) from sampling K keys.");
  balance->add_option("--rings", o.rings,
                      "repeat over R independent rings (names suffixed @1 ... @R-1); "
                      "reports the spread across them (default 1)");

  // CLI11 would call an unknown command a missing one; name it instead.
  const std::string first = argc > 1 ? argv[1] : "";
  if (!first.empty() && first[0] != '-' && first != "owners" && first != "move" &&
      first != "balance")
    throw std::invalid_argument("unknown command '" + first +
                                "' (known: owners, move, balance; see chbench-lab --help)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string what = e.what();
    if (what.empty()) what = e.get_name();
    std::fprintf(stderr, "%s: error: %s (see %s --help)\n", kProgram, what.c_str(), kProgram);
    return 2;
  }

  // Input is checked here and at the top of each command, before the command
  // prints its first byte.
  const Setup setup = setup_from(o);
  if (balance->parsed() && o.rings > 100000)  // before the memory estimate that uses it
    throw std::invalid_argument("--rings takes at most 100000 rings");
  check_tables_fit(setup, o, move->parsed(), balance->parsed());
  std::function<int(const KeySet&)> command;
  if (owners->parsed()) command = [&](const KeySet& k) { return run_owners(setup, k); };
  if (move->parsed()) command = [&](const KeySet& k) { return run_move(setup, o, k); };
  if (balance->parsed()) command = [&](const KeySet& k) { return run_balance(setup, o, k); };

  auto body = [&] {
    const KeySet keys = parse_keys(o.keys);
    return command(keys);
  };
  int status = 0;
  if (o.threads == 0) {
    status = body();
  } else {
    tbb::global_control control(tbb::global_control::max_allowed_parallelism, o.threads);
    tbb::task_arena arena(static_cast<int>(o.threads));
    status = arena.execute(body);
  }
  std::fflush(stdout);
  if (std::ferror(stdout)) {
    std::fprintf(stderr, "%s: error: cannot write the output\n", kProgram);
    return 1;
  }
  return status;
}

}  // namespace
}  // namespace chbench::lab

int main(int argc, char** argv) {
  using chbench::lab::kProgram;
  try {
    return chbench::lab::run(argc, argv);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "%s: error: %s\n", kProgram, e.what());
    return 2;
  } catch (const std::length_error& e) {
    std::fprintf(stderr, "%s: error: %s\n", kProgram, e.what());
    return 2;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "%s: error: out of memory (try fewer keys or nodes)\n", kProgram);
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: error: %s\n", kProgram, e.what());
    return 1;
  }
}
