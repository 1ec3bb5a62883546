#include "workbench.h"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include "batch.h"
#include "chbench/hash.h"
#include "replica_owners.h"

namespace chbench::bench {

namespace {

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

std::string describe_mismatch(const Config& c, std::span<const uint64_t> hashes,
                              std::span<const uint32_t> got, std::span<const uint32_t> want) {
  std::size_t bad = 0, first = got.size();
  for (std::size_t i = 0; i < got.size(); ++i)
    if (got[i] != want[i]) {
      if (first == got.size()) first = i;
      ++bad;
    }
  std::ostringstream s;
  s << "ownership mismatch in " << c.name() << ": " << bad << " of " << got.size()
    << " keys differ from the reference; first: key user:" << first + 1 << " (key hash 0x"
    << std::hex << hashes[first] << std::dec << ") owner " << got[first] << ", reference "
    << want[first];
  return s.str();
}

}  // namespace

// ---- keys ---------------------------------------------------------------------------

std::span<const uint64_t> KeyPool::hashes(uint64_t count, unsigned window_bits) {
  if (hashes_.size() < count) {
    const auto more = default_key_hashes(count - hashes_.size(), hashes_.size() + 1);
    hashes_.insert(hashes_.end(), more.begin(), more.end());
  }
  if (window_bits == 0) return std::span<const uint64_t>(hashes_).first(count);
  auto& squeezed = clustered_[window_bits];
  for (std::size_t i = squeezed.size(); i < count; ++i)
    squeezed.push_back(into_cluster(hashes_[i], window_bits));
  return std::span<const uint64_t>(squeezed).first(count);
}

KeyBytes KeyPool::strings(uint64_t count) {
  for (uint64_t i = offsets_.size(); i <= count; ++i) {
    const std::string key = default_key(i);
    bytes_.insert(bytes_.end(), key.begin(), key.end());
    offsets_.push_back(static_cast<uint32_t>(bytes_.size()));
  }
  return {bytes_.data(), std::span<const uint32_t>(offsets_).first(count + 1)};
}

// ---- the workbench -------------------------------------------------------------------

Workbench::Workbench(std::span<const Config> configs, const Plan& plan, bool corrupt_one_owner)
    : configs_(configs), plan_(plan), corrupt_one_owner_(corrupt_one_owner) {}

void Workbench::drop_unused(std::size_t first) {
  // What no group from the one starting at `first` on needs (by the plan;
  // an entry dropped too early is only built again), and the large tables
  // but the group's own, before anything of the group is built.
  std::erase_if(rings_, [&](const auto& r) { return plan_.last_use(r.first) < first; });
  std::erase_if(references_, [&](const auto& r) { return plan_.last_use(r.first) < first; });
  for (auto it = tables_.begin(); it != tables_.end();) {
    const bool large = it->second.bytes > kKeepTableBytes && !pinned_.count(it->first);
    if (large || plan_.last_use(it->first) < first) {
      std::erase(table_order_, it->first);
      it = tables_.erase(it);
    } else {
      ++it;
    }
  }
}

void Workbench::begin_group(GroupSpan g) {
  prepared_.clear();  // the previous group's owners go first
  pinned_.clear();
  for (std::size_t i = g.first; i < g.last; ++i) pinned_.insert(table_key(configs_[i]));
  drop_unused(g.first);
}

void Workbench::revisit() {
  prepared_.clear();
  pinned_.clear();
  rings_.clear();
  references_.clear();
  tables_.clear();
  table_order_.clear();
  release_entries();
  revisit_ = true;
}

void Workbench::release_entries() {
  entries_ = {};
  entries_key_.reset();
}

const std::vector<RingEntry<uint64_t>>& Workbench::entries_for(const Config& c) {
  const RingKey key{c.nodes, c.vnodes, c.window_bits, c.removals, c.change};
  if (entries_key_ != key) {
    release_entries();
    const auto fleet = config_fleet(c);
    const auto start = std::chrono::steady_clock::now();
    entries_ = c.window_bits != 0 ? clustered_ring_entries(fleet->nodes(), c.window_bits)
                                  : ring_entries(fleet->nodes());
    entries_ms_ = ms_since(start);
    entries_key_ = key;
  }
  return entries_;
}

const Workbench::Ring& Workbench::ring_for(const Config& c) {
  const RingKey key = *ring_key(c);
  if (auto it = rings_.find(key); it != rings_.end()) return it->second;
  const auto& entries = entries_for(c);
  const auto start = std::chrono::steady_clock::now();
  // Huge pages (for arrays of 40 MiB or more: rings of 5M tokens and up):
  // the kernels copy the ring into tables of their own. The bounded walk
  // (path kBounded) reads it as it is, on huge pages too at such sizes;
  // family bounded's rings are far smaller.
  auto ring = std::make_shared<const SortedRing<uint64_t>>(
      SortedRing<uint64_t>::from_entries(entries, /*huge_pages=*/true));
  // From the node list: the entries' hashing and sorting, then the ring.
  const double ms = entries_ms_ + ms_since(start);
  release_entries();  // the reference, if needed, was computed first
  return rings_[key] = Ring{std::move(ring), ms};
}

const std::vector<uint32_t>& Workbench::reference_for(const Config& c) {
  const ReferenceKey key = *reference_key(c);
  const uint64_t pool = std::max(c.checked(), plan_.reference_pool(key));
  if (auto it = references_.find(key); it != references_.end() && it->second.size() >= c.checked())
    return it->second;
  std::vector<uint32_t> owners;
  if (c.profile) {
    owners = profile_reference_owners(c, keys_.strings(pool), pool);
  } else {
    const auto hashes = keys_.hashes(pool, c.window_bits);
    std::unique_ptr<OwnerTable> reference;
    if (ring_key(c) || c.window_bits != 0)
      reference = build_ring_reference(entries_for(c));  // the same entries as the shared ring
    else
      reference = c.kernel->scheme_info().reference(*config_fleet(c));
    owners.resize(pool);
    reference->owners(hashes, owners);
  }
  return references_[key] = std::move(owners);
}

Workbench::Table Workbench::build_table(const Config& c) {
  Table t;
  if (c.profile) {
    const auto start = std::chrono::steady_clock::now();
    t.lookup = make_profile_lookup(c);
    t.build_ms = ms_since(start);
    return t;
  }
  const auto fleet = config_fleet(c);
  if (c.replicas != 0) {
    const auto start = std::chrono::steady_clock::now();
    t.table = replica_owners(build_replicas(*c.kernel, *fleet, c.replicas));
    t.build_ms = ms_since(start);
  } else if (ring_key(c)) {
    const Ring& ring = ring_for(c);
    const auto start = std::chrono::steady_clock::now();
    t.table = c.kernel->make_over_ring(*ring.ring, c.in_flight);
    t.shared_ms = ring.ms;
    t.build_ms = ring.ms + ms_since(start);
  } else {
    if (c.window_bits != 0)
      throw std::invalid_argument(c.kernel->full_name() +
                                  " cannot be built over a given ring (a cluster window)");
    const auto start = std::chrono::steady_clock::now();
    t.table = c.kernel->make(*fleet, c.in_flight);
    t.build_ms = ms_since(start);
  }
  t.bytes = c.kernel->table_bytes(*fleet);
  return t;
}

// The change builds' tables, timed as build_ms is (a ring kernel's over a
// sorted ring of the changed fleet, kept for the other kernels of the point),
// then dropped: tables are immutable, so a removal or a re-add is a rebuild.
void Workbench::time_changes(const Config& c, Prepared& p) {
  for (const Config& b : change_builds(c)) {
    const double us = build_table(b).build_ms * 1e3;
    (b.change == Change::kRemoveOne ? p.remove_us : p.readd_us) = us;
  }
  release_entries();
}

Workbench::Table& Workbench::table_for(const Config& c) {
  const TableKey key = table_key(c);
  if (auto it = tables_.find(key); it != tables_.end()) return it->second;
  // Small tables stay to their last use, up to kKeptTablesBytes in all.
  Table& t = tables_[key] = build_table(c);
  table_order_.push_back(key);
  // The oldest go first, but none of the current group's.
  uint64_t kept = 0;
  for (const auto& [k, v] : tables_) kept += v.bytes;
  for (std::size_t j = 0; kept > kKeptTablesBytes && j < table_order_.size();) {
    const TableKey oldest = table_order_[j];
    if (pinned_.count(oldest) || oldest == key) {
      ++j;
      continue;
    }
    kept -= tables_[oldest].bytes;
    tables_.erase(oldest);
    table_order_.erase(table_order_.begin() + static_cast<std::ptrdiff_t>(j));
  }
  return t;
}

// The first run is the warm-up and, unless the same table, path and threads
// were already checked over at least as many keys, the check: every checked
// key of the pool (Config::checked) against the reference (latency on both
// paths, batch and one key at a time). The batch path counts the threads. A
// configuration already checked warms up on its first batch only.
void Workbench::check(const Config& c, Prepared& p, const std::vector<uint32_t>* want) {
  if (c.path == Path::kBounded) return check_bounded(c, p, want);
  const CheckKey key = check_key(c);
  p.threads_ran = 1;
  if (!want || (!corrupt_one_owner_ && checked_[key] >= c.checked())) {
    if (c.path == Path::kThroughput)
      p.threads_ran = p.team->owners_counting_threads(*p.table, p.key_hashes.first(c.keys),
                                                      std::span(p.out).first(c.keys));
    else
      with_batch(c.path, p, [&](const auto& batch) { batch(0, c.keys); });
    return;
  }
  const std::size_t n = c.checked();
  const std::span<const uint64_t> hashes = p.key_hashes.first(n);
  const std::span<uint32_t> out = std::span(p.out).first(n);
  std::vector<uint32_t> chained;
  if (c.path == Path::kThroughput || c.path == Path::kLatency) {
    p.threads_ran = p.team->owners_counting_threads(*p.table, hashes, out);
    if (c.path == Path::kLatency) {
      chained.assign(n, 0);
      chained_owners(*p.table, hashes, 0, n, chained);
    }
  } else {
    with_batch(c.path, p, [&](const auto& batch) { batch(0, n); });
  }
  if (corrupt_one_owner_ && n != 0) out[n / 2] ^= 1;
  const std::span<const uint32_t> reference = std::span(*want).first(n);
  const bool out_ok = std::equal(out.begin(), out.end(), reference.begin());
  const bool chained_ok =
      chained.empty() || std::equal(chained.begin(), chained.end(), reference.begin());
  if (out_ok && chained_ok) {
    checked_[key] = n;
    return;
  }
  p.error =
      describe_mismatch(c, hashes, out_ok ? std::span<const uint32_t>(chained) : out, reference);
}

// Path kBounded: the ring of the configuration (the one its ring kernel was
// built over), loads with the capacity of one batch, the bounded table.
void Workbench::prepare_bounded(const Config& c, Prepared& p) {
  if (!c.kernel->make_over_ring)
    throw std::invalid_argument(c.kernel->full_name() + " is no ring kernel: no bounded loads");
  p.ring = ring_for(c).ring;
  p.loads = std::make_unique<BoundedLoads>(*p.ring, c.nodes,
                                           bounded_capacity(c.balance_factor, c.keys, c.nodes));
  p.bounded_table = std::make_unique<BoundedLoadsTable>(*p.table, *p.loads, c.threads > 1);
  p.memory_bytes = p.bounded_table->memory_bytes();
}

// Path kBounded: every checked batch of the pool, as the timed loop runs them, keeps
// every node within the capacity and places every request; on one thread
// each batch's nodes are also those of the walk from the reference's owners.
void Workbench::check_bounded(const Config& c, Prepared& p, const std::vector<uint32_t>* want) {
  p.team->reset_threads_seen();
  BoundedLoads expected(*p.ring, c.nodes, p.loads->capacity());
  for (uint64_t first = 0; first < c.checked() && p.error.empty(); first += c.keys) {
    BoundedBatch{p}(first, first + c.keys);
    uint64_t placed = 0;
    for (uint32_t n = 0; n < c.nodes; ++n) {
      placed += p.loads->load(n);
      if (p.loads->load(n) > p.loads->capacity())
        p.error = c.name() + ": node " + std::to_string(n) + " holds " +
                  std::to_string(p.loads->load(n)) + " requests, over the capacity " +
                  std::to_string(p.loads->capacity());
    }
    if (p.error.empty() && placed != c.keys)
      p.error = c.name() + ": " + std::to_string(placed) + " of " + std::to_string(c.keys) +
                " requests placed";
    if (!p.error.empty() || !want || c.threads > 1) continue;
    expected.reset();
    for (uint64_t i = first; i < first + c.keys && p.error.empty(); ++i)
      if (expected.place(p.key_hashes[i], (*want)[i]) != p.out[i - first])
        p.error = c.name() + ": request " + std::to_string(i) + " placed on node " +
                  std::to_string(p.out[i - first]) + ", the walk from the reference says another";
  }
  p.threads_ran = p.team->threads_seen();
}

Prepared& Workbench::prepare(std::size_t i) {
  if (auto it = prepared_.find(i); it != prepared_.end()) return it->second;
  const Config& c = configs_[i];
  Prepared& p = prepared_[i];
  p.index = i;
  try {
    const std::vector<uint32_t>* want = c.is_floor() || revisit_ ? nullptr : &reference_for(c);
    p.key_hashes = keys_.hashes(c.pool(), c.window_bits);
    if (c.needs_key_bytes()) p.key_strings = keys_.strings(c.pool());
    const Table& t = table_for(c);
    p.table = t.table.get();
    p.lookup = t.lookup.get();
    p.build_ms = t.build_ms;
    p.build_shared_ms = t.shared_ms;
    p.memory_bytes = t.table ? t.table->memory_bytes() : t.lookup ? t.lookup->memory_bytes() : 0;
    if (!revisit_) time_changes(c, p);  // before the check, which warms the table up
    p.team = std::make_unique<ThreadTeam>(c.threads);
    p.team->count_cpu_time(c.thread_cpu);
    p.out.assign(c.checked(), 0);
    if (c.path == Path::kBounded) prepare_bounded(c, p);
    check(c, p, want);
  } catch (const std::exception& e) {
    p.error = c.name() + ": " + e.what();
  }
  release_entries();
  if (!p.error.empty()) {
    ++failures_;
    std::cerr << "chbench_bench: " << p.error << "\n";
  }
  refresh_keys();
  return p;
}

// The pool may have grown for this member (its pool, or its reference's):
// the spans of the members prepared before it point into it again.
void Workbench::refresh_keys() {
  for (auto& [i, p] : prepared_) {
    const Config& c = configs_[i];
    if (p.key_hashes.empty()) continue;
    p.key_hashes = keys_.hashes(c.pool(), c.window_bits);
    if (c.needs_key_bytes()) p.key_strings = keys_.strings(c.pool());
  }
}

void Workbench::fail(std::size_t i, const std::string& error) {
  if (prepared_.count(i)) return;
  Prepared& p = prepared_[i];
  p.index = i;
  p.error = error;
  ++failures_;
  std::cerr << "chbench_bench: " << error << "\n";
}

}  // namespace chbench::bench
