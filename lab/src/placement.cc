#include "placement.h"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <limits>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

#include "chbench/hash.h"
#include "chbench/memory.h"
#include "chbench/ring/ring.h"

namespace chbench::lab {

namespace {

// Keys per block: the hashes and both owner arrays of a block (32 KiB) stay in
// L1/L2 while the kernels run, and 10^7 keys still make thousands of tasks.
constexpr uint64_t kBlock = 2048;

// Runs body(first, hashes) over keys [begin, end) in blocks of kBlock, in
// parallel; `hashes` holds the key hashes of keys first ... first + size - 1.
template <class Body>
void for_each_block(const KeySet& keys, uint64_t begin, uint64_t end,
                    std::optional<Profile> profile, const Body& body) {
  const uint64_t blocks = (end - begin + kBlock - 1) / kBlock;
  tbb::parallel_for(tbb::blocked_range<uint64_t>(0, blocks), [&](const auto& range) {
    std::array<uint64_t, kBlock> hashes;
    for (uint64_t b = range.begin(); b != range.end(); ++b) {
      const uint64_t first = begin + b * kBlock;
      const std::span<uint64_t> h(hashes.data(), std::min(kBlock, end - first));
      keys.hashes(first, h, profile);
      body(first, std::span<const uint64_t>(h));
    }
  });
}

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// "-" followed by digits: a negative count, not a file or a node name.
bool negative_number(std::string_view s) {
  return s.size() > 1 && s[0] == '-' && all_digits(s.substr(1));
}

uint64_t parse_count(std::string_view s, const char* what) {
  uint64_t value = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || end != s.data() + s.size())
    throw std::invalid_argument(std::string(what) + " '" + std::string(s) +
                                "' does not fit in 64 bits");
  return value;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// Name -> index of a node list.
std::unordered_map<std::string_view, uint32_t> index_of(const NodeSet& nodes) {
  std::unordered_map<std::string_view, uint32_t> index;
  index.reserve(nodes.names.size());
  for (uint32_t i = 0; i < nodes.size(); ++i) index.emplace(nodes.names[i], i);
  return index;
}

void check_distinct(std::span<const std::string> names, const char* option) {
  std::unordered_set<std::string_view> seen;
  for (const auto& name : names)
    if (!seen.insert(name).second)
      throw std::invalid_argument("node '" + name + "' is listed twice in " + option);
}

}  // namespace

// ---- Kernels ----------------------------------------------------------------------

std::string_view fastest_kernel(Scheme scheme) noexcept {
  // Fastest first, as the bench's committed results rank them on this machine
  // (ring: the scalar Eytzinger kernel, 16 keys in lockstep, beats the gather
  // based SIMD one); a name the registry does not have is skipped.
  static constexpr std::string_view kRing[] = {"eytzinger", "simd_eytzinger"};
  static constexpr std::string_view kRendezvous[] = {"simd_keys", "scalar"};
  static constexpr std::string_view kJump[] = {"simd", "interleaved", "scalar"};
  static constexpr std::string_view kModN[] = {"simd", "scalar"};
  static constexpr std::string_view kMaglev[] = {"scalar", "simd"};
  std::span<const std::string_view> order;
  switch (scheme) {
    case Scheme::kRing:
      order = kRing;
      break;
    case Scheme::kRendezvous:
      order = kRendezvous;
      break;
    case Scheme::kJump:
      order = kJump;
      break;
    case Scheme::kModN:
      order = kModN;
      break;
    case Scheme::kMaglev:
      order = kMaglev;
      break;
  }
  for (std::string_view name : order)
    for (const KernelInfo& k : all_kernels())
      if (k.scheme == scheme && k.name == name) return k.name;
  // Every scheme has at least one kernel; the first registered is as good as any.
  for (const KernelInfo& k : all_kernels())
    if (k.scheme == scheme) return k.name;
  return {};
}

std::unique_ptr<OwnerTable> make_table(Scheme scheme, const NodeSet& nodes,
                                       std::string_view kernel) {
  if (kernel == "reference") return build_reference(scheme, nodes);
  if (kernel.empty()) kernel = fastest_kernel(scheme);
  return find_kernel(scheme, kernel).build(nodes);
}

ProfileCluster profile_cluster(const Placement& placement, const NodeSet& nodes) {
  ProfileCluster cluster{nodes, {}};
  if (placement.profile == Profile::kKetama && !placement.weights.empty())
    for (const auto& name : nodes.names) {
      const auto it = placement.weights.find(name);
      cluster.weights.push_back(it == placement.weights.end() ? 1 : it->second);
    }
  validate_profile(*placement.profile, cluster);
  return cluster;
}

std::unique_ptr<OwnerTable> make_table(const Placement& placement, const NodeSet& nodes,
                                       std::string_view kernel) {
  if (!placement.profile) return make_table(placement.scheme, nodes, kernel);
  const ProfileCluster cluster = profile_cluster(placement, nodes);
  if (kernel == "reference") return build_profile_reference(*placement.profile, cluster);
  return build_profile_table(*placement.profile, cluster, kernel);
}

// ---- Inputs -----------------------------------------------------------------------

void check_memory(uint64_t bytes, const std::string& what) {
  const uint64_t available = available_memory_bytes();
  if (available == 0 || bytes <= available / 10 * 9) return;
  char msg[160];
  std::snprintf(msg, sizeof msg,
                " would need about %.1f GiB but only %.1f GiB of memory is available",
                static_cast<double>(bytes) / (1 << 30), static_cast<double>(available) / (1 << 30));
  throw std::invalid_argument(what + msg);
}

KeySet KeySet::counted(uint64_t count) {
  if (count == 0) throw std::invalid_argument("the key count must be at least 1 (K = 0)");
  if (count > kMaxKeys)
    throw std::invalid_argument("K = " + std::to_string(count) +
                                " keys is more than the lab takes (10^10: minutes of lookups "
                                "already); use fewer");
  KeySet keys;
  keys.count_ = count;
  return keys;
}

KeySet KeySet::from_stream(std::istream& in, std::string_view source) {
  KeySet keys;
  keys.offsets_.push_back(0);
  std::vector<char> buffer(std::size_t{1} << 20);
  // The key being read may span reads; `line` holds its start until its '\n'.
  std::string line;
  uint64_t line_number = 0;
  auto refuse = [&](const std::string& why) {
    throw std::invalid_argument(std::string(source) + " line " + std::to_string(line_number) + " " +
                                why + ": not a file of keys (one key per line)");
  };
  auto finish_line = [&](std::string_view s) {
    ++line_number;
    if (!s.empty() && s.back() == '\r') s.remove_suffix(1);
    if (s.size() > kMaxKeyBytes)
      refuse("is " + std::to_string(s.size()) + " bytes long, more than a key's " +
             std::to_string(kMaxKeyBytes));
    if (s.empty()) return;
    if (keys.offsets_.size() > kMaxKeys) refuse("is key 10^10 + 1, more than the lab takes");
    keys.bytes_.insert(keys.bytes_.end(), s.begin(), s.end());
    keys.offsets_.push_back(keys.bytes_.size());
  };
  while (in) {
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    const std::string_view chunk(buffer.data(), static_cast<std::size_t>(in.gcount()));
    if (chunk.find('\0') != std::string_view::npos) {
      // The line holding it: the lines finished so far, plus those of this chunk before it.
      line_number += static_cast<uint64_t>(
          std::count(chunk.begin(), chunk.begin() + chunk.find('\0'), '\n') + 1);
      refuse("holds a NUL byte (a binary file?)");
    }
    std::size_t start = 0;
    for (std::size_t nl; (nl = chunk.find('\n', start)) != std::string_view::npos; start = nl + 1) {
      if (line.empty()) {
        finish_line(chunk.substr(start, nl - start));
      } else {
        line.append(chunk.substr(start, nl - start));
        finish_line(line);
        line.clear();
      }
    }
    line.append(chunk.substr(start));
    if (line.size() > kMaxKeyBytes + 1) {  // + 1: a '\r' may end it
      ++line_number;                       // a runaway line, stopped before it fills memory
      refuse("is longer than a key's " + std::to_string(kMaxKeyBytes) + " bytes");
    }
  }
  // Bad input, not an internal failure: e.g. a directory given as the key file.
  if (in.bad()) throw std::invalid_argument("cannot read keys from " + std::string(source));
  finish_line(line);
  keys.count_ = keys.offsets_.size() - 1;
  if (keys.count_ == 0)
    throw std::invalid_argument(std::string(source) + " contains no keys (one key per line)");
  keys.bytes_.shrink_to_fit();
  keys.offsets_.shrink_to_fit();
  keys.hashes_.resize(keys.count_);
  tbb::parallel_for(tbb::blocked_range<uint64_t>(0, keys.count_), [&](const auto& range) {
    for (uint64_t i = range.begin(); i != range.end(); ++i)
      keys.hashes_[i] = key_hash(std::string_view(keys.bytes_.data() + keys.offsets_[i],
                                                  keys.offsets_[i + 1] - keys.offsets_[i]));
  });
  return keys;
}

KeySet KeySet::from_strings(std::span<const std::string> strings) {
  if (strings.empty()) throw std::invalid_argument("the key list is empty");
  KeySet keys;
  keys.count_ = strings.size();
  keys.offsets_.push_back(0);
  for (const auto& s : strings) {
    keys.bytes_.insert(keys.bytes_.end(), s.begin(), s.end());
    keys.offsets_.push_back(keys.bytes_.size());
    keys.hashes_.push_back(key_hash(s));
  }
  return keys;
}

void KeySet::hashes(uint64_t first, std::span<uint64_t> out, std::optional<Profile> profile) const {
  if (profile) {
    // The profile hashes the key bytes itself: gather them first.
    std::string arena;
    std::vector<std::size_t> ends;
    ends.reserve(out.size());
    for (std::size_t i = 0; i < out.size(); ++i) {
      append_key(first + i, arena);
      ends.push_back(arena.size());
    }
    std::vector<std::string_view> views(out.size());
    for (std::size_t i = 0, start = 0; i < out.size(); start = ends[i], ++i)
      views[i] = std::string_view(arena).substr(start, ends[i] - start);
    profile_key_hashes(*profile, views, out);
    return;
  }
  if (!is_counted()) {
    std::copy_n(hashes_.begin() + static_cast<std::ptrdiff_t>(first), out.size(), out.begin());
    return;
  }
  // "user:" then the decimal number, formatted in place: the same bytes as
  // default_key(), without a string per key.
  char buf[5 + std::numeric_limits<uint64_t>::digits10 + 1] = {'u', 's', 'e', 'r', ':'};
  for (std::size_t i = 0; i < out.size(); ++i) {
    const auto end = std::to_chars(buf + 5, buf + sizeof buf, first + i + 1).ptr;
    out[i] = key_hash(std::string_view(buf, static_cast<std::size_t>(end - buf)));
  }
}

void KeySet::append_key(uint64_t i, std::string& out) const {
  if (is_counted()) {
    out += "user:";
    char buf[std::numeric_limits<uint64_t>::digits10 + 1];
    out.append(buf, std::to_chars(buf, buf + sizeof buf, i + 1).ptr);
  } else {
    out.append(bytes_.data() + offsets_[i], offsets_[i + 1] - offsets_[i]);
  }
}

std::string KeySet::key(uint64_t i) const {
  std::string out;
  append_key(i, out);
  return out;
}

KeySet parse_keys(std::string_view spec) {
  if (all_digits(spec)) return KeySet::counted(parse_count(spec, "the key count"));
  if (negative_number(spec))
    throw std::invalid_argument("the key count " + std::string(spec) + " is negative");
  if (spec == "-") return KeySet::from_stream(std::cin, "standard input");
  if (spec.empty()) throw std::invalid_argument("--keys is empty (give a count or a file)");
  const std::string path(spec);
  std::ifstream file(path, std::ios::binary);
  if (!file)
    throw std::invalid_argument("cannot open key file '" + path + "': " + std::strerror(errno));
  return KeySet::from_stream(file, "key file '" + path + "'");
}

NodeSet parse_nodes(std::string_view spec, uint32_t vnodes) {
  NodeSet nodes;
  if (negative_number(spec))
    throw std::invalid_argument("the node count " + std::string(spec) + " is negative");
  if (all_digits(spec)) {
    const uint64_t n = parse_count(spec, "the node count");
    if (n > 0xffffffffu)
      throw std::invalid_argument("the node count " + std::string(spec) +
                                  " exceeds the 2^32 - 1 nodes an index can name");
    // A name (32 bytes) and its entry in validate()'s set of names (~64).
    check_memory(n * 96, "N = " + std::string(spec) + " nodes");
    nodes = default_nodes(static_cast<uint32_t>(n), vnodes);
  } else {
    nodes.vnodes = vnodes;
    std::size_t start = 0;
    while (true) {
      const std::size_t comma = spec.find(',', start);
      nodes.names.emplace_back(trim(spec.substr(start, comma - start)));
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
    if (nodes.names.size() == 1 && nodes.names[0].empty()) nodes.names.clear();
  }
  validate(nodes);
  return nodes;
}

NodeSet apply_change(Scheme scheme, const NodeSet& before, std::span<const std::string> add,
                     std::span<const std::string> remove) {
  check_distinct(add, "--add");
  check_distinct(remove, "--remove");
  const auto index = index_of(before);
  std::vector<bool> gone(before.size(), false);
  for (const auto& name : remove) {
    const auto it = index.find(name);
    if (it == index.end())
      throw std::invalid_argument("unknown node '" + name + "' in --remove (not in --nodes)");
    gone[it->second] = true;
  }
  if (scheme == Scheme::kJump) {
    // Jump numbers buckets by position: only a suffix of the list can go.
    const std::size_t keep = before.size() - remove.size();
    for (std::size_t i = 0; i < keep; ++i) {
      if (!gone[i]) continue;
      const std::string last =
          remove.size() == 1 ? "only the last, '" + before.names.back() + "',"
                             : "only the last " + std::to_string(remove.size()) + ", '" +
                                   before.names[keep] + "' ... '" + before.names.back() + "',";
      throw std::invalid_argument("jump hash can only remove the last bucket(s): '" +
                                  before.names[i] + "' is bucket " + std::to_string(i) + " of 0.." +
                                  std::to_string(before.size() - 1) + ", so " + last +
                                  " can be removed");
    }
  }
  NodeSet after = before;  // vnodes, table size
  after.names.clear();
  for (uint32_t i = 0; i < before.size(); ++i)
    if (!gone[i]) after.names.push_back(before.names[i]);
  for (const auto& name : add) {
    if (index.count(name))
      throw std::invalid_argument("node '" + name + "' in --add is already in --nodes");
    after.names.push_back(name);
  }
  if (after.names.empty())
    throw std::invalid_argument("removing every node leaves no node (N = 0)");
  validate(after);
  return after;
}

void lookup_owners(const OwnerTable& table, const KeySet& keys, uint64_t first,
                   std::span<uint32_t> out, std::optional<Profile> profile) {
  for_each_block(keys, first, first + out.size(), profile,
                 [&](uint64_t block_first, std::span<const uint64_t> hashes) {
                   table.owners(hashes, out.subspan(block_first - first, hashes.size()));
                 });
}

// ---- Moves ------------------------------------------------------------------------

MoveResult measure_move(Scheme scheme, const NodeSet& before, const NodeSet& after,
                        const KeySet& keys, bool list, std::string_view kernel) {
  return measure_move(Placement{scheme, std::nullopt, {}}, before, after, keys, list, kernel);
}

MoveResult measure_move(const Placement& placement, const NodeSet& before, const NodeSet& after,
                        const KeySet& keys, bool list, std::string_view kernel) {
  const auto old_table = make_table(placement, before, kernel);
  const auto new_table = make_table(placement, after, kernel);

  constexpr uint32_t kNone = 0xffffffffu;
  // Per node: its index in the other list (kNone if absent) and its rank among
  // the removed / added nodes (kNone if it stays).
  MoveResult result;
  result.keys = keys.size();
  std::vector<uint32_t> old_to_new(before.size(), kNone), new_to_old(after.size(), kNone);
  std::vector<uint32_t> removed_rank(before.size(), kNone), added_rank(after.size(), kNone);
  const auto new_index = index_of(after);
  for (uint32_t b = 0; b < before.size(); ++b) {
    const auto it = new_index.find(before.names[b]);
    if (it != new_index.end()) {
      old_to_new[b] = it->second;
      new_to_old[it->second] = b;
    } else {
      removed_rank[b] = static_cast<uint32_t>(result.removed.size());
      result.removed.push_back(b);
    }
  }
  for (uint32_t a = 0; a < after.size(); ++a)
    if (new_to_old[a] == kNone) {
      added_rank[a] = static_cast<uint32_t>(result.added.size());
      result.added.push_back(a);
    }

  struct Tally {
    uint64_t moved = 0, between_old = 0, from_removed = 0, to_added = 0;
    std::vector<uint64_t> removed_to, added_from;  // flattened [rank][node]
  };
  const std::size_t removed_cells = result.removed.size() * after.size();
  const std::size_t added_cells = result.added.size() * before.size();
  tbb::enumerable_thread_specific<Tally> tallies([&] {
    Tally t;
    t.removed_to.assign(removed_cells, 0);
    t.added_from.assign(added_cells, 0);
    return t;
  });
  // With `list`, each block's moved keys go to that block's slot, so that the
  // list comes out in key order however the blocks were scheduled.
  const uint64_t blocks = (keys.size() + kBlock - 1) / kBlock;
  std::vector<std::vector<MovedKey>> moved_per_block(list ? blocks : 0);

  for_each_block(keys, 0, keys.size(), placement.profile,
                 [&](uint64_t first, std::span<const uint64_t> hashes) {
                   std::array<uint32_t, kBlock> from_buf, to_buf;
                   const std::span<uint32_t> from(from_buf.data(), hashes.size()),
                       to(to_buf.data(), hashes.size());
                   old_table->owners(hashes, from);
                   new_table->owners(hashes, to);
                   Tally& t = tallies.local();
                   std::vector<MovedKey>* listed =
                       list ? &moved_per_block[first / kBlock] : nullptr;
                   for (std::size_t i = 0; i < hashes.size(); ++i) {
                     const uint32_t b = from[i], a = to[i];
                     if (old_to_new[b] == a) continue;
                     ++t.moved;
                     const bool left = old_to_new[b] == kNone, arrived = new_to_old[a] == kNone;
                     t.between_old += !left && !arrived;
                     if (left) {
                       ++t.from_removed;
                       ++t.removed_to[std::size_t{removed_rank[b]} * after.size() + a];
                     }
                     if (arrived) {
                       ++t.to_added;
                       ++t.added_from[std::size_t{added_rank[a]} * before.size() + b];
                     }
                     if (listed) listed->push_back({first + i, b, a});
                   }
                 });

  result.removed_to.assign(result.removed.size(), std::vector<uint64_t>(after.size(), 0));
  result.added_from.assign(result.added.size(), std::vector<uint64_t>(before.size(), 0));
  for (const Tally& t : tallies) {
    result.moved += t.moved;
    result.between_old += t.between_old;
    result.from_removed += t.from_removed;
    result.to_added += t.to_added;
    for (std::size_t c = 0; c < removed_cells; ++c)
      result.removed_to[c / after.size()][c % after.size()] += t.removed_to[c];
    for (std::size_t c = 0; c < added_cells; ++c)
      result.added_from[c / before.size()][c % before.size()] += t.added_from[c];
  }
  if (list) {
    result.moved_keys.reserve(result.moved);
    for (auto& block : moved_per_block) {
      result.moved_keys.insert(result.moved_keys.end(), block.begin(), block.end());
      std::vector<MovedKey>().swap(block);
    }
  }
  return result;
}

// ---- Balance ----------------------------------------------------------------------

Balance measure_balance(Scheme scheme, const NodeSet& nodes, const KeySet& keys,
                        std::string_view kernel) {
  return measure_balance(Placement{scheme, std::nullopt, {}}, nodes, keys, kernel);
}

Balance measure_balance(const Placement& placement, const NodeSet& nodes, const KeySet& keys,
                        std::string_view kernel) {
  const auto table = make_table(placement, nodes, kernel);
  tbb::enumerable_thread_specific<std::vector<uint64_t>> counts(
      [&] { return std::vector<uint64_t>(nodes.size(), 0); });
  for_each_block(keys, 0, keys.size(), placement.profile,
                 [&](uint64_t, std::span<const uint64_t> hashes) {
                   std::array<uint32_t, kBlock> owner_buf;
                   const std::span<uint32_t> owners(owner_buf.data(), hashes.size());
                   table->owners(hashes, owners);
                   auto& c = counts.local();
                   for (uint32_t o : owners) ++c[o];
                 });
  Balance balance;
  balance.keys = keys.size();
  balance.node_keys.assign(nodes.size(), 0);
  for (const auto& c : counts)
    for (std::size_t n = 0; n < c.size(); ++n) balance.node_keys[n] += c[n];
  if (!placement.profile && placement.scheme == Scheme::kRing)
    balance.circle = circle_shares(nodes);
  return balance;
}

std::vector<double> circle_shares(const NodeSet& nodes) {
  const auto entries = ring_entries(nodes);
  const auto ring = SortedRing<uint64_t>::from_entries(entries);
  std::vector<double> shares(nodes.size(), 0.0);
  const std::size_t n = ring.tokens.size();
  if (n == 1) {
    shares[ring.owners[0]] = 1.0;
    return shares;
  }
  // Arc lengths are exact in uint64_t (unsigned wrap gives the first token's
  // arc across 2^64); summing per node in long double keeps 64 bits of them.
  std::vector<long double> sum(nodes.size(), 0.0L);
  sum[ring.owners[0]] += static_cast<long double>(ring.tokens[0] - ring.tokens[n - 1]);
  for (std::size_t i = 1; i < n; ++i)
    sum[ring.owners[i]] += static_cast<long double>(ring.tokens[i] - ring.tokens[i - 1]);
  const long double circle = 18446744073709551616.0L;  // 2^64
  for (std::size_t i = 0; i < shares.size(); ++i) shares[i] = static_cast<double>(sum[i] / circle);
  return shares;
}

ShareStats share_stats(std::span<const double> shares) {
  const double n = static_cast<double>(shares.size());
  double total = 0, busiest = 0;
  for (double s : shares) {
    total += s;
    busiest = std::max(busiest, s);
  }
  const double mean = total / n;
  double squares = 0;
  for (double s : shares) squares += (s - mean) * (s - mean);
  return {busiest / mean, 100.0 * std::sqrt(squares / n) / mean};
}

ShareStats share_stats(std::span<const uint64_t> counts) {
  std::vector<double> shares(counts.begin(), counts.end());
  return share_stats(std::span<const double>(shares));
}

NodeSet replica_nodes(const NodeSet& nodes, uint32_t r) {
  NodeSet out = nodes;
  if (r == 0) return out;
  // Built by appending: GCC 12 warns falsely (-Wrestrict) on "@" + to_string().
  std::string suffix(1, '@');
  suffix += std::to_string(r);
  for (auto& name : out.names) name += suffix;
  return out;
}

// ---- Theory -----------------------------------------------------------------------

double ring_share_std_theory(uint64_t n, uint64_t v) {
  const double nd = static_cast<double>(n);
  return std::sqrt((nd - 1) / (nd * static_cast<double>(v) + 1));
}

double key_share_std_theory(uint64_t n, uint64_t v, uint64_t k) {
  const double nd = static_cast<double>(n);
  const double circle = v == 0 ? 0.0 : (nd - 1) / (nd * static_cast<double>(v) + 1);
  return std::sqrt(circle + (nd - 1) / static_cast<double>(k));
}

double ring_busiest_theory_v1(uint64_t n) {
  double h = 0;
  for (uint64_t i = n; i >= 1; --i) h += 1.0 / static_cast<double>(i);
  return h;
}

GrowthTheory growth_theory(Scheme scheme, uint64_t n) {
  const double nd = static_cast<double>(n);
  if (scheme == Scheme::kModN) return {nd / (nd + 1), (nd - 1) / (nd + 1)};
  return {1 / (nd + 1), 0.0};
}

}  // namespace chbench::lab
