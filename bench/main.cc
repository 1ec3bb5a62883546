// chbench_bench: times every kernel of every scheme over a sweep of node, token,
// batch and thread counts, after checking each configuration's owners against
// the scheme's reference. Google Benchmark does the timing and the JSON.
#include <benchmark/benchmark.h>
#include <malloc.h>
#include <sys/stat.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "chbench/hash.h"
#include "chbench/memory.h"
#include "chbench/parallel.h"
#include "chbench/scheme.h"
#include "chbench/simd.h"
#include "context.h"
#include "profiles.h"
#include "sweep.h"

namespace chbench::bench {
namespace {

int g_mismatches = 0;
// Test hook (--corrupt-one-owner, hidden from --help): flips one owner of every
// configuration after the kernel ran, so tests can see the mismatch path fail
// the run loudly.
bool g_corrupt_one_owner = false;

// ---- prepared state, one configuration at a time ------------------------------
// Google Benchmark calls a benchmark function several times (to size the
// iteration count, then once per repetition); everything that is not timed is
// built once here and reused until the next configuration needs something else.

struct Keys {
  uint64_t count = 0;        // pool size: batch size * windows
  unsigned window_bits = 0;  // != 0: hashes squeezed into_cluster()
  std::vector<uint64_t> hashes;
  std::vector<char> bytes;        // key strings back to back ("hashed", "profiles")
  std::vector<uint32_t> offsets;  // count + 1 offsets into bytes
};

struct Expected {
  std::optional<Profile> profile;
  Scheme scheme{};
  uint32_t nodes = 0, vnodes = 0;
  uint64_t keys = 0;
  unsigned window_bits = 0;
  std::vector<uint32_t> owners;
};

struct Prepared {
  std::string name;
  std::unique_ptr<OwnerTable> table;
  std::unique_ptr<ProfileLookup> lookup;  // family "profiles"
  std::unique_ptr<ThreadTeam> team;
  std::vector<uint32_t> out;
  unsigned threads_ran = 0;
  uint64_t tokens = 0;
  double build_ms = 0;  // building the table from the node list
  std::string error;    // non-empty: do not time
};

Keys g_keys;
Expected g_expected;
Prepared g_prepared;

const Keys& keys_for(const Config& c) {
  const bool need_bytes = c.family == "hashed" || c.family == "profiles";
  const uint64_t pool = c.keys * pool_windows(c.keys);
  if (g_keys.count != pool || g_keys.window_bits != c.window_bits ||
      (need_bytes && g_keys.offsets.empty())) {
    g_keys = Keys{};
    g_keys.count = pool;
    g_keys.window_bits = c.window_bits;
    g_keys.hashes = default_key_hashes(pool);
    if (c.window_bits != 0)
      for (auto& h : g_keys.hashes) h = into_cluster(h, c.window_bits);
  }
  if (need_bytes && g_keys.offsets.empty()) {
    g_keys.offsets.reserve(pool + 1);
    g_keys.offsets.push_back(0);
    for (uint64_t i = 1; i <= pool; ++i) {
      const std::string key = default_key(i);
      g_keys.bytes.insert(g_keys.bytes.end(), key.begin(), key.end());
      g_keys.offsets.push_back(static_cast<uint32_t>(g_keys.bytes.size()));
    }
  }
  return g_keys;
}

KeyBytes key_bytes(const Keys& keys) { return {keys.bytes.data(), keys.offsets}; }

const std::vector<uint32_t>& expected_for(const Config& c, const NodeSet& nodes, const Keys& keys) {
  if (c.profile) {
    if (g_expected.profile != c.profile || g_expected.nodes != c.nodes ||
        g_expected.vnodes != c.vnodes || g_expected.keys != keys.count) {
      g_expected = Expected{};
      auto owners = profile_reference_owners(c, key_bytes(keys), keys.count);
      g_expected = Expected{c.profile, {}, c.nodes, c.vnodes, keys.count, 0, std::move(owners)};
    }
    return g_expected.owners;
  }
  const Scheme s = c.kernel->scheme;
  const uint32_t v = s == Scheme::kRing ? c.vnodes : 0;
  if (g_expected.profile || g_expected.scheme != s || g_expected.nodes != c.nodes ||
      g_expected.vnodes != v || g_expected.keys != keys.count ||
      g_expected.window_bits != c.window_bits || g_expected.owners.size() != keys.count) {
    g_expected = Expected{};
    auto reference = c.window_bits != 0
                         ? build_ring_reference(clustered_ring_entries(nodes, c.window_bits))
                         : build_reference(s, nodes);
    std::vector<uint32_t> owners(keys.count);
    reference->owners(keys.hashes, owners);
    g_expected = Expected{{}, s, c.nodes, v, keys.count, c.window_bits, std::move(owners)};
  }
  return g_expected.owners;
}

// Hashes key strings in blocks and looks each block up: the cost a client pays
// from key bytes to owner. Block size keeps the hashes in L1.
// Keys [first, last) of the pool.
void hashed_owners(const OwnerTable& table, const Keys& keys, std::size_t first, std::size_t last,
                   std::span<uint32_t> out) {
  constexpr std::size_t kBlock = 1024;
  uint64_t hashes[kBlock];
  const char* bytes = keys.bytes.data();
  for (std::size_t begin = first; begin < last; begin += kBlock) {
    const std::size_t n = std::min<std::size_t>(kBlock, last - begin);
    for (std::size_t i = 0; i < n; ++i) {
      const uint32_t from = keys.offsets[begin + i], to = keys.offsets[begin + i + 1];
      hashes[i] = key_hash(std::string_view(bytes + from, to - from));
    }
    table.owners(std::span<const uint64_t>(hashes, n), out.subspan(begin, n));
  }
}

// The opaque zero that chains latency lookups: the compiler cannot see that it
// is zero, so each key waits for the previous owner, while the keys looked up
// stay the pool's own (and their owners comparable with the reference).
volatile uint64_t g_chain_zero = 0;

// Keys [first, last) one at a time, each key xor-ed with (previous owner &
// zero): the latency of a lookup, not its throughput.
void chained_owners(const OwnerTable& table, std::span<const uint64_t> keys, std::size_t first,
                    std::size_t last, std::span<uint32_t> out) {
  const uint64_t zero = g_chain_zero;
  uint32_t previous = 0;
  for (std::size_t i = first; i < last; ++i) {
    previous = table.owner(keys[i] ^ (previous & zero));
    out[i] = previous;
  }
}

// The table a configuration times: the registry's kernel built from the node
// list, or, for clustered tokens or a set number of keys in flight, the ring
// kernel built over the ring made here; the stream baseline has none.
std::unique_ptr<OwnerTable> build_table(const Config& c, const NodeSet& nodes) {
  if (c.window_bits == 0 && c.in_flight == 0) return c.kernel->build(nodes);
  const auto entries =
      c.window_bits != 0 ? clustered_ring_entries(nodes, c.window_bits) : ring_entries(nodes);
  return build_ring_kernel(c.kernel->name, SortedRing<uint64_t>::from_entries(entries),
                           c.in_flight);
}

std::string describe_mismatch(const Config& c, const Keys& keys, std::span<const uint32_t> got,
                              std::span<const uint32_t> want) {
  std::size_t bad = 0, first = got.size();
  for (std::size_t i = 0; i < got.size(); ++i)
    if (got[i] != want[i]) {
      if (first == got.size()) first = i;
      ++bad;
    }
  std::ostringstream s;
  s << "ownership mismatch in " << c.name() << ": " << bad << " of " << got.size()
    << " keys differ from the reference; first: key user:" << first + 1 << " (key hash 0x"
    << std::hex << keys.hashes[first] << std::dec << ") owner " << got[first] << ", reference "
    << want[first];
  return s.str();
}

Prepared& prepare(const Config& c) {
  const std::string name = c.name();
  if (g_prepared.name == name) return g_prepared;
  g_prepared = Prepared{};  // free the previous configuration first
  g_prepared.name = name;
  try {
    const NodeSet nodes = default_nodes(c.nodes, c.vnodes);
    const Keys& keys = keys_for(c);
    static const std::vector<uint32_t> kNone;
    const auto& want = c.is_stream() ? kNone : expected_for(c, nodes, keys);
    const auto build_start = std::chrono::steady_clock::now();
    if (c.profile) {
      g_prepared.lookup = make_profile_lookup(c);
    } else {
      g_prepared.table = c.is_stream() ? c.kernel->build(nodes) : build_table(c, nodes);
    }
    g_prepared.build_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - build_start)
            .count();
    g_prepared.team = std::make_unique<ThreadTeam>(c.threads);
    g_prepared.out.assign(keys.count, 0);
    if (c.kernel && c.kernel->scheme == Scheme::kRing)
      g_prepared.tokens = uint64_t{c.nodes} * c.vnodes;
    // The first run is the warm-up and the check; it also counts the threads.
    // Latency runs are checked on both paths: batch and one key at a time.
    if (c.profile) {
      g_prepared.lookup->owners(key_bytes(keys), 0, keys.count, g_prepared.out);
      g_prepared.threads_ran = 1;
    } else if (c.family == "hashed") {
      hashed_owners(*g_prepared.table, keys, 0, keys.count, g_prepared.out);
      g_prepared.threads_ran = 1;
    } else {
      g_prepared.threads_ran =
          g_prepared.team->owners_counting_threads(*g_prepared.table, keys.hashes, g_prepared.out);
    }
    std::vector<uint32_t> chained;
    if (c.family == "latency") {
      chained.assign(keys.count, 0);
      chained_owners(*g_prepared.table, keys.hashes, 0, keys.count, chained);
    }
    if (g_corrupt_one_owner && !g_prepared.out.empty()) g_prepared.out[keys.count / 2] ^= 1;
    if (!c.is_stream() && (g_prepared.out != want || (!chained.empty() && chained != want))) {
      g_prepared.error =
          describe_mismatch(c, keys, g_prepared.out != want ? g_prepared.out : chained, want);
      ++g_mismatches;
      std::cerr << "chbench_bench: " << g_prepared.error << "\n";
    }
  } catch (const std::exception& e) {
    g_prepared.error = name + ": " + e.what();
    ++g_mismatches;
    std::cerr << "chbench_bench: " << g_prepared.error << "\n";
  }
  return g_prepared;
}

void time_config(benchmark::State& state, const Config& c) {
  // A forced target holds for the build, the check and the timed loop alike,
  // and is lifted on return. It is process-global, so it is set here, outside
  // the TBB region that runs the kernel.
  std::optional<simd::ForcedTarget> forced;
  try {
    forced.emplace(c.target);
  } catch (const std::exception& e) {
    const std::string error = c.name() + ": " + e.what();
    if (g_prepared.name != c.name()) {
      g_prepared = Prepared{};
      g_prepared.name = c.name();
      g_prepared.error = error;
      ++g_mismatches;
      std::cerr << "chbench_bench: " << error << "\n";
    }
    state.SkipWithError(error.c_str());
    return;
  }
  Prepared& p = prepare(c);
  if (!p.error.empty()) {
    state.SkipWithError(p.error.c_str());
    return;
  }
  const Keys& keys = g_keys;
  const std::size_t batch = c.keys;
  const uint64_t windows = pool_windows(c.keys);
  const std::span<const uint64_t> pool(keys.hashes);
  const std::span<uint32_t> out(p.out);
  uint64_t w = 0;
  const auto start = std::chrono::steady_clock::now();
  if (c.profile) {
    const KeyBytes bytes = key_bytes(keys);
    for (auto _ : state) {
      p.lookup->owners(bytes, w * batch, (w + 1) * batch, out);
      benchmark::DoNotOptimize(p.out.data());
      benchmark::ClobberMemory();
      if (++w == windows) w = 0;
    }
  } else if (c.family == "hashed") {
    for (auto _ : state) {
      hashed_owners(*p.table, keys, w * batch, (w + 1) * batch, out);
      benchmark::DoNotOptimize(p.out.data());
      benchmark::ClobberMemory();
      if (++w == windows) w = 0;
    }
  } else if (c.family == "latency") {
    for (auto _ : state) {
      chained_owners(*p.table, pool, w * batch, (w + 1) * batch, out);
      benchmark::DoNotOptimize(p.out.data());
      benchmark::ClobberMemory();
      if (++w == windows) w = 0;
    }
  } else {
    p.team->reset_threads_seen();
    for (auto _ : state) {
      p.team->owners(*p.table, pool.subspan(w * batch, batch), out.subspan(w * batch, batch));
      benchmark::DoNotOptimize(p.out.data());
      benchmark::ClobberMemory();
      if (++w == windows) w = 0;
    }
    // Threads that ran chunks during this repetition's timed iterations.
    p.threads_ran = p.team->threads_seen();
  }
  const double ns =
      std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
  const double ns_per_key = ns / (static_cast<double>(state.iterations()) * c.keys);
  state.counters["keys"] = static_cast<double>(c.keys);
  state.counters["nodes"] = c.nodes;
  state.counters["vnodes"] = c.vnodes;
  state.counters["tokens"] = static_cast<double>(p.tokens);
  state.counters["threads_requested"] = c.threads;
  state.counters["threads_ran"] = p.threads_ran;
  state.counters["ns_per_key"] = ns_per_key;
  state.counters["keys_per_second"] = 1e9 / ns_per_key;
  const std::size_t memory = p.table    ? p.table->memory_bytes()
                             : p.lookup ? p.lookup->memory_bytes()
                                        : 0;
  state.counters["memory_bytes"] = static_cast<double>(memory);
  if (p.tokens != 0 && !c.is_stream())
    state.counters["bytes_per_token"] = static_cast<double>(memory) / static_cast<double>(p.tokens);
  state.counters["build_ms"] = p.build_ms;
  if (c.in_flight != 0) state.counters["in_flight"] = c.in_flight;
  if (c.window_bits != 0) state.counters["window_bits"] = c.window_bits;
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * c.keys));
  if (c.kernel && simd::is_simd_kernel(*c.kernel)) {
    // The Highway target that ran, forced or dispatched: name and HWY_* bit.
    state.SetLabel(simd::dispatched_target_name());
    state.counters["hwy_target"] = static_cast<double>(simd::dispatched_target());
    state.counters["hwy_target_forced"] = c.target != 0;
  }
}

// ---- progress ------------------------------------------------------------------

// Console output as usual on stdout; one progress line per finished
// configuration on stderr: count, elapsed time and a rough time left.
class ProgressReporter : public benchmark::ConsoleReporter {
 public:
  explicit ProgressReporter(std::size_t total)
      : total_(total), start_(std::chrono::steady_clock::now()) {}

  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    if (runs.empty()) return;
    const std::string name = runs.front().run_name.str();
    if (name == last_) return;  // aggregates of a configuration already counted
    last_ = name;
    ++done_;
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const double left = elapsed / done_ * (total_ - done_);
    std::fprintf(stderr, "[%4zu/%zu] %s elapsed, ~%s left  %s\n", done_, total_,
                 clock_string(elapsed).c_str(), clock_string(left).c_str(), name.c_str());
    std::fflush(stderr);
  }

 private:
  static std::string clock_string(double seconds) {
    const long s = static_cast<long>(seconds + 0.5);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
    return buf;
  }

  std::size_t total_, done_ = 0;
  std::string last_;
  std::chrono::steady_clock::time_point start_;
};

// ---- command line ----------------------------------------------------------------

std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

struct Options {
  std::string sweep = "quick";
  std::optional<std::string> families, schemes, kernels;
  std::optional<uint32_t> nodes, vnodes;
  std::optional<uint64_t> keys;
  std::optional<unsigned> threads;
  std::optional<unsigned> in_flight, window_bits;
  std::string target;
  unsigned max_threads = std::max(1u, std::thread::hardware_concurrency());
  std::optional<unsigned> repetitions;
  std::optional<double> min_time;
  bool list = false;
  bool allow_emulated = false;
  std::string cpuinfo = "/proc/cpuinfo";
};

[[noreturn]] void fail(const std::string& message) {
  std::cerr << "chbench_bench: error: " << message << "\n";
  std::exit(2);
}

// Google Benchmark takes a count of 0 or a negative time without a word:
// `flag` (e.g. "--benchmark_repetitions=") must hold a number in [lo, hi].
void check_benchmark_number(const std::string& arg, const std::string& flag, double lo, double hi) {
  if (arg.rfind(flag, 0) != 0) return;
  const std::string value = arg.substr(flag.size());
  char* end = nullptr;
  const double x = std::strtod(value.c_str(), &end);
  if (value.empty() || end != value.c_str() + value.size() || !(x >= lo && x <= hi))
    fail("bad value in '" + arg + "': " + flag.substr(2, flag.size() - 3) + " takes " +
         std::to_string(static_cast<int>(lo)) + " to " + std::to_string(static_cast<int>(hi)));
}

// Google Benchmark opens --benchmark_out only after the sweep is set up, and
// exits with status 1 (an ownership mismatch, here) when it cannot: check it
// can be written before anything runs. A file this creates is removed again.
void check_out_file(const std::string& path) {
  if (path.empty()) fail("--benchmark_out= needs a file name");
  struct stat st {};
  const bool existed = ::stat(path.c_str(), &st) == 0;
  if (existed && S_ISDIR(st.st_mode)) fail("--benchmark_out=" + path + " is a folder, not a file");
  std::FILE* f = std::fopen(path.c_str(), "a");
  if (!f)
    fail("cannot write the results file --benchmark_out=" + path + ": " + std::strerror(errno));
  std::fclose(f);
  if (!existed) std::remove(path.c_str());
}

std::string kernel_list() {
  std::string out;
  auto line = [&](const KernelInfo& k) {
    out += "  " + k.full_name() +
           std::string(24 - std::min<std::size_t>(22, k.full_name().size()), ' ') +
           std::string(k.summary) + "\n";
  };
  for (const auto& k : all_kernels()) line(k);
  line(stream_baseline());
  return out;
}

std::vector<Config> configs_from(const Options& o) {
  const std::vector<std::string> known_families = {"tokens",  "latency", "inflight", "clustered",
                                                   "nodes",   "batch",   "threads",  "hashed",
                                                   "targets", "profiles"};
  // An option given with an empty list selects nothing; it never means "all".
  for (const auto& [flag, value] :
       {std::pair{"--families", o.families}, {"--schemes", o.schemes}, {"--kernels", o.kernels}})
    if (value && split_list(*value).empty()) fail(std::string(flag) + " was given an empty list");
  SweepOptions so;
  so.full = o.sweep == "full";
  so.max_threads = o.max_threads;
  for (const auto& f : split_list(o.families.value_or(""))) {
    if (std::find(known_families.begin(), known_families.end(), f) == known_families.end())
      fail("unknown family '" + f +
           "' (known: tokens, latency, inflight, clustered, nodes, batch, threads, hashed, "
           "targets, profiles)");
    so.families.push_back(f);
  }
  std::set<Scheme> schemes;
  for (const auto& s : split_list(o.schemes.value_or(""))) schemes.insert(parse_scheme(s));
  for (const auto& name : split_list(o.kernels.value_or(""))) {
    const auto slash = name.find('/');
    if (slash == std::string::npos)
      fail("kernel '" + name + "' must be written scheme/kernel, e.g. ring/eytzinger");
    if (name == "ring/stream") {
      so.kernels.push_back(&stream_baseline());
      continue;
    }
    so.kernels.push_back(&find_kernel(parse_scheme(name.substr(0, slash)), name.substr(slash + 1)));
  }
  if (so.kernels.empty() && !schemes.empty())
    for (const auto& k : all_kernels())
      if (schemes.count(k.scheme)) so.kernels.push_back(&k);
  if (!schemes.empty())
    std::erase_if(so.kernels, [&](const KernelInfo* k) { return !schemes.count(k->scheme); });
  if (so.kernels.empty() && (o.schemes || o.kernels))
    fail("--schemes and --kernels select no kernel together");

  int64_t target = 0;
  if (!o.target.empty()) {
    std::string names;
    for (int64_t t : simd::runnable_targets()) {
      if (simd::target_name(t) == o.target) target = t;
      names += (names.empty() ? "" : ", ") + simd::target_name(t);
    }
    if (target == 0)
      fail("--target " + o.target + " is not a Highway target this build and this CPU can run (" +
           names + ")");
  }
  const bool custom =
      o.nodes || o.vnodes || o.keys || o.threads || o.in_flight || o.window_bits || target != 0;
  if (!custom) return make_sweep(so);

  // One configuration per selected kernel, from the values given.
  Config c;
  c.family = "custom";
  c.nodes = o.nodes.value_or(1000);
  c.vnodes = o.vnodes.value_or(100);
  c.keys = o.keys.value_or(1'000'000);
  c.threads = o.threads.value_or(1);
  if (c.nodes == 0) fail("--nodes must be at least 1 (N = 0)");
  if (c.vnodes == 0) fail("--vnodes must be at least 1 (V = 0)");
  if (c.keys == 0) fail("--keys must be at least 1 (K = 0)");
  if (c.threads == 0) fail("--threads must be at least 1");
  std::vector<Config> out;
  const auto chosen = so.kernels.empty() ? [] {
    std::vector<const KernelInfo*> all;
    for (const auto& k : all_kernels()) all.push_back(&k);
    return all;
  }() : so.kernels;
  for (const auto* k : chosen) {
    if (k->scheme == Scheme::kRing && uint64_t{c.nodes} * c.vnodes > 0xffffffffu)
      fail("N * V = " + std::to_string(uint64_t{c.nodes} * c.vnodes) +
           " tokens exceeds the 2^32 - 1 a ring indexes");
    if (k->scheme == Scheme::kJump && c.nodes > 0x7fffffffu)
      fail("jump hash takes at most 2^31 - 1 buckets");
    c.kernel = k;
    c.target = simd::is_simd_kernel(*k) ? target : 0;  // the others have no target to force
    // Only ring kernels take a cluster window, only two of them keys in flight.
    const bool ring = k->scheme == Scheme::kRing && !c.is_stream();
    c.window_bits = ring ? o.window_bits.value_or(0) : 0;
    c.in_flight =
        ring && (k->name == "stree" || k->name == "bucketed") ? o.in_flight.value_or(0) : 0;
    if (o.in_flight && k->name == "stree" && *o.in_flight > 256)
      fail("--in-flight for ring/stree must be 1 to 256 (its lockstep group)");
    out.push_back(c);
  }
  return out;
}

void check_memory(const std::vector<Config>& configs) {
  const uint64_t available = available_memory_bytes();
  if (available == 0) return;
  const Config* worst = nullptr;
  for (const auto& c : configs)
    if (!worst || c.peak_bytes() > worst->peak_bytes()) worst = &c;
  // Leave a tenth for the process itself and the rest of the machine.
  if (worst && worst->peak_bytes() > available / 10 * 9) {
    char msg[512];
    std::snprintf(msg, sizeof msg,
                  "%s would need about %.1f GiB but only %.1f GiB of memory is available; "
                  "lower --nodes, --vnodes or --keys",
                  worst->name().c_str(), worst->peak_bytes() / 1073741824.0,
                  available / 1073741824.0);
    fail(msg);
  }
}

}  // namespace
}  // namespace chbench::bench

int main(int argc, char** argv) {
  using namespace chbench;
  using namespace chbench::bench;

  // Large buffers always come from fresh mappings and go back on free (no
  // dynamic mmap threshold), so one configuration's tables (a 16M-token ring
  // is hundreds of MiB) do not shape the memory of the ones timed after it.
  mallopt(M_MMAP_THRESHOLD, 1 << 20);

  Options o;
  CLI::App app{
      "chbench_bench: ns per key of every consistent-hashing kernel (ring, rendezvous/HRW, jump, "
      "mod-N),\nchecked owner for owner against each scheme's reference before it is timed.\n"
      "Google Benchmark's own flags (--benchmark_out=FILE, --benchmark_filter=REGEX, ...) pass "
      "through;\n--help-benchmark lists them. Exit status: 0 ok, 1 an ownership mismatch, 2 bad "
      "input,\n3 refused to time an emulated CPU (see --allow-emulated).",
      "chbench_bench"};
  app.footer("Kernels:\n" + kernel_list());
  app.add_option("--sweep", o.sweep, "quick (default, minutes on 2 cores) or full; the last wins")
      ->check(CLI::IsMember({"quick", "full"}))
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  app.add_option("--families", o.families,
                 "comma list of tokens,latency,inflight,clustered,nodes,batch,threads,hashed,"
                 "targets,profiles (default: all)");
  app.add_option("--schemes", o.schemes, "comma list of modn,ring,hrw,jump (default: all)");
  app.add_option("--kernels", o.kernels, "comma list of scheme/kernel (default: all)");
  app.add_option("--nodes", o.nodes, "custom run: node count N (default 1000)");
  app.add_option("--vnodes", o.vnodes, "custom run: virtual nodes per node V (default 100)");
  app.add_option("--keys", o.keys, "custom run: batch size K (default 1000000)")
      ->check(CLI::Range(uint64_t{0}, uint64_t{1} << 40));
  app.add_option("--threads", o.threads, "custom run: TBB threads (default 1)")
      ->check(CLI::Range(0u, 1024u));
  app.add_option("--in-flight", o.in_flight,
                 "custom run: keys in flight of ring/stree (lockstep group, 1-256) and "
                 "ring/bucketed (prefetch distance, 1-1024); default: theirs")
      ->check(CLI::Range(1u, 1024u));
  app.add_option("--cluster-window", o.window_bits,
                 "custom run: ring tokens and keys squeezed into a window of 2^W hash values "
                 "(1-63), the clustered-token worst case")
      ->check(CLI::Range(1u, 63u));
  app.add_option("--target", o.target,
                 "custom run with the SIMD kernels forced to this Highway target (x86: AVX3, "
                 "AVX2, SSE4, SSSE3, SCALAR; Arm: SVE2_128, SVE_256, SVE2, SVE, NEON; default: "
                 "dispatch picks)");
  app.add_option("--max-threads", o.max_threads, "thread sweep goes 1 ... this (default: all)")
      ->check(CLI::Range(1u, 1024u));
  app.add_option("--repetitions", o.repetitions,
                 "repetitions per configuration (default 5 quick, 10 full)")
      ->check(CLI::Range(1u, 1000u));
  app.add_option("--min-time", o.min_time,
                 "minimum seconds per repetition (default 0.1 quick, 0.5 full)")
      ->check(CLI::Range(0.0, 3600.0));
  app.add_flag("--list", o.list,
               "print the configurations, their memory and the Highway targets, then exit");
  app.add_flag("--allow-emulated", o.allow_emulated,
               "run even under an emulator (qemu), whose timings mean nothing; the results "
               "record chbench_emulated");
  app.add_flag("--corrupt-one-owner", g_corrupt_one_owner)->group("");
  // Test hook: read this file instead of /proc/cpuinfo (emulation signs, CPU model).
  app.add_option("--cpuinfo", o.cpuinfo)->group("");
  bool help_benchmark = false;
  app.add_flag("--help-benchmark", help_benchmark, "print Google Benchmark's flags and exit");
  // CLI11 parses ours and leaves the rest; Google Benchmark then takes its
  // --benchmark_* flags from the rest, after the defaults below (later flags
  // win, so a user's own --benchmark_repetitions overrides ours). Anything left
  // after both is an unknown flag.
  app.allow_extras();
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "chbench_bench: error: " << e.what() << " (see --help)\n";
    return 2;
  }
  if (help_benchmark) {
    char help[] = "--help";
    char* bargv[] = {argv[0], help, nullptr};
    int bargc = 2;
    benchmark::Initialize(&bargc, bargv);  // prints the usage and exits
  }
  const bool full = o.sweep == "full";
  const unsigned reps = o.repetitions.value_or(full ? 10 : 5);
  const double min_time = o.min_time.value_or(full ? 0.5 : 0.1);
  std::vector<std::string> bench_args = {argv[0], "--benchmark_repetitions=" + std::to_string(reps),
                                         "--benchmark_min_time=" + std::to_string(min_time),
                                         "--benchmark_display_aggregates_only=true"};
  // Google Benchmark answers a bad value of these with its usage and status 0.
  const std::vector<std::pair<std::string, std::vector<std::string>>> enums = {
      {"--benchmark_format=", {"console", "json", "csv"}},
      {"--benchmark_out_format=", {"console", "json", "csv"}},
      {"--benchmark_time_unit=", {"ns", "us", "ms", "s"}}};
  for (const auto& extra : app.remaining()) {
    for (const auto& [prefix, allowed] : enums)
      if (extra.rfind(prefix, 0) == 0 &&
          std::find(allowed.begin(), allowed.end(), extra.substr(prefix.size())) == allowed.end())
        fail("bad value in '" + extra + "' (see --help-benchmark)");
    check_benchmark_number(extra, "--benchmark_repetitions=", 1, 1000);
    check_benchmark_number(extra, "--benchmark_min_time=", 0, 3600);
    if (extra.rfind("--benchmark_out=", 0) == 0) check_out_file(extra.substr(16));
    bench_args.push_back(extra);
  }
  std::vector<char*> bargv;
  for (auto& a : bench_args) bargv.push_back(a.data());
  bargv.push_back(nullptr);
  int bargc = static_cast<int>(bench_args.size());
  benchmark::Initialize(&bargc, bargv.data());
  if (bargc > 1) fail(std::string("unknown option '") + bargv[1] + "' (see --help)");

  std::vector<Config> configs;
  std::string filter;
  try {
    configs = configs_from(o);
  } catch (const std::exception& e) {
    fail(e.what());
  }
  if (configs.empty()) fail("the selection leaves no configuration to run");
  // Google Benchmark's --benchmark_filter (POSIX extended regex, a leading '-'
  // negates; the last one given wins) applied here too, so that --list, the
  // memory check and the progress count see the configurations that will run.
  for (const auto& arg : bench_args)
    if (arg.rfind("--benchmark_filter=", 0) == 0) filter = arg.substr(19);
  if (!filter.empty() && filter != "all") {
    const bool negate = filter.front() == '-';
    try {
      const std::regex re(negate ? filter.substr(1) : filter, std::regex::extended);
      std::erase_if(configs, [&](const Config& c) {
        return std::regex_search(c.name() + "/real_time", re) == negate;
      });
    } catch (const std::regex_error&) {
      fail("--benchmark_filter=" + filter + " is not a valid regular expression");
    }
    if (configs.empty()) fail("no configuration matches --benchmark_filter=" + filter);
  }
  check_memory(configs);

  if (o.list) {
    for (const auto& c : configs)
      std::printf("%-60s %10.1f MiB\n", c.name().c_str(), c.peak_bytes() / 1048576.0);
    std::printf("%zu configurations\n", configs.size());
    std::printf("Highway targets: compiled %s; this CPU runs %s; dispatch picks %s\n",
                simd::target_names(simd::compiled_targets()).c_str(),
                simd::target_names(simd::runnable_targets()).c_str(),
                simd::dispatched_target_name().c_str());
    return 0;
  }

  // Timings under an emulator say nothing about any CPU: refuse them, or mark
  // them when asked to run anyway.
  const std::string emulated = emulation_evidence(o.cpuinfo);
  if (!emulated.empty() && !o.allow_emulated) {
    std::fprintf(stderr,
                 "chbench_bench: error: refusing to time an emulated CPU (%s); run the bench "
                 "on the target machine, or pass --allow-emulated to run anyway with the results "
                 "marked as emulated\n",
                 emulated.c_str());
    return 3;
  }
  if (!emulated.empty())
    std::fprintf(stderr,
                 "chbench_bench: WARNING: emulated CPU (%s): the timings mean nothing; the "
                 "results record chbench_emulated\n",
                 emulated.c_str());

  for (const auto& c : configs) {
    // Real time: with TBB the work runs on threads the timer does not see.
    benchmark::RegisterBenchmark(c.name().c_str(),
                                 [c](benchmark::State& st) { time_config(st, c); })
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
  }
  add_run_context(o.sweep, o.cpuinfo, emulated);
  benchmark::AddCustomContext("chbench_libmemcached_version", libmemcached_version());
  benchmark::AddCustomContext("chbench_repetitions", std::to_string(reps));

  ProgressReporter progress(configs.size());
  std::fprintf(stderr, "chbench_bench: %zu configurations, %u repetitions each\n", configs.size(),
               reps);
  const std::size_t ran = benchmark::RunSpecifiedBenchmarks(&progress);
  benchmark::Shutdown();
  if (g_mismatches > 0) {
    std::fprintf(stderr, "chbench_bench: FAILED: %d configuration(s) did not match the reference\n",
                 g_mismatches);
    return 1;
  }
  if (ran == 0) {
    std::fprintf(stderr, "chbench_bench: error: no benchmark matched --benchmark_filter\n");
    return 2;
  }
  return 0;
}
