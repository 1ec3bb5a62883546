#include "cli.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <set>
#include <sstream>
#include <thread>

#include "chbench/memory.h"
#include "chbench/simd.h"
#include "revisits.h"

namespace chbench::bench {

namespace {

std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

// A number as %g writes it ("0.005").
std::string number_text(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", x);
  return buf;
}

std::string join(const std::vector<std::string>& items, const std::string& sep = ", ") {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : sep) + item;
  return out;
}

// The schemes that take p, comma-separated.
std::string takers(Param p) {
  std::string out;
  for (const SchemeInfo& s : all_scheme_infos())
    if (s.takes(p)) out += (out.empty() ? "" : ", ") + std::string(s.name);
  return out;
}

// The parameters a custom run takes an option for: the counts the names
// carry (a segment), V aside (--vnodes, every configuration's).
bool custom_param(const ParamInfo& p) {
  return p.kind == ParamKind::kCount && !p.segment.empty() && p.param != kParamVnodes;
}

// A custom parameter's --help: its entry's help, its range and its takers.
std::string custom_param_help(const ParamInfo& p) {
  std::string text = "custom run: " + std::string(p.help) + ", for " + takers(p.param);
  if (p.max != 0xffffffffu) text += "; " + std::to_string(p.min) + " to " + std::to_string(p.max);
  if (p.param == kParamCapacity)
    text += "; alone, a fleet of N nodes, none removed, at that capacity";
  return text + "; refused for a named kernel of another scheme";
}

std::vector<std::string> family_names() {
  std::vector<std::string> out;
  for (const Family& f : all_families()) out.emplace_back(f.name);
  return out;
}

// "modn, ring, hrw (or rendezvous), jump, maglev"
std::string scheme_names() {
  std::vector<std::string> out;
  for (const SchemeInfo& s : all_scheme_infos()) {
    std::string name(s.name);
    for (auto alias : s.aliases) name += " (or " + std::string(alias) + ")";
    out.push_back(name);
  }
  return join(out);
}

// "ring/stree (lockstep group, 1-256), ..."
std::string knob_names() {
  std::vector<std::string> out;
  for (const KernelInfo* k : all_kernels())
    if (k->knob)
      out.push_back(k->full_name() + " (" + std::string(k->knob->name) + ", " +
                    std::to_string(k->knob->min) + "-" + std::to_string(k->knob->max) + ")");
  return join(out);
}

std::string kernel_list() {
  std::string out;
  auto line = [&](const KernelInfo& k) {
    const std::string name = k.full_name();
    out += "  " + name + std::string(24 - std::min<std::size_t>(22, name.size()), ' ') +
           std::string(k.summary) + "\n";
  };
  for (const KernelInfo* k : all_kernels()) line(*k);
  for (const KernelInfo* k : floor_kernels()) line(*k);
  return out;
}

// The widest knob range of the registry, for CLI11's own range check.
std::pair<unsigned, unsigned> knob_range() {
  unsigned lo = ~0u, hi = 0;
  for (const KernelInfo* k : all_kernels())
    if (k->knob) {
      lo = std::min(lo, k->knob->min);
      hi = std::max(hi, k->knob->max);
    }
  return hi == 0 ? std::pair{1u, 1u} : std::pair{lo, hi};
}

void add_sweep_options(CLI::App& app, Options& o) {
  app.add_option(
         "--sweep", o.sweep,
         "quick (default: minutes on 2 cores, --list estimates them) or full; the last wins")
      ->check(CLI::IsMember({"quick", "full"}))
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  app.add_option("--families", o.families,
                 "comma list of " + join(family_names(), ",") + " (default: all)");
  app.add_option("--schemes", o.schemes, "comma list of " + scheme_names() + " (default: all)");
  app.add_option("--kernels", o.kernels,
                 "comma list of scheme/kernel, e.g. " + all_kernels().front()->full_name() +
                     " (the kernels below; default: all)");
  app.add_option("--interleave", o.interleave,
                 "what one comparison group interleaves in its rounds: point (the kernels of "
                 "one point of a family, the default) or family (all of a family's points, up to "
                 "2 GiB of tables a group)")
      ->check(CLI::IsMember({"point", "family"}));
  app.add_option("--max-threads", o.max_threads, "thread sweep goes 1 ... this (default: all)")
      ->check(CLI::Range(1u, 1024u));
  app.add_option("--rounds,--repetitions", o.rounds,
                 "rounds each comparison group is timed in, every member once a round in a "
                 "random order (default " +
                     std::to_string(kQuickModel.rounds) + " quick, " +
                     std::to_string(kFullModel.rounds) + " full; 6 at least for an interval)")
      ->check(CLI::Range(1u, 1000u));
  app.add_option("--visits", o.visits,
                 "split each comparison group's rounds over this many passes of the whole run, "
                 "its tables built anew in each, so that a state of the host lasting minutes "
                 "weighs on a share of the rounds (default " +
                     std::to_string(kQuickModel.visits) +
                     "; at most a group's rounds; 1: one pass; a run of one group makes its "
                     "passes back to back)")
      ->check(CLI::Range(1u, 10u));
  app.add_option("--revisit-margin", o.revisit_margin,
                 "after the visits, time again a group's visit that ran more than this "
                 "fraction slower than its fastest visit, and keep the new rounds where they "
                 "ran faster: a state of the host that slowed the group's members unequally "
                 "then weighs on none of its rounds (default " +
                     number_text(kQuickModel.revisit_margin) +
                     "; 0: never; at most a quarter of the groups, the most disturbed first; "
                     "none after the first starts past " +
                     number_text(kRevisitBudget * 100) + " % of the visits' time)")
      ->check(CLI::Range(0.0, 10.0));
  app.add_option("--state-margin", o.state_margin,
                 "each median, interval and ratio keeps the rounds whose pace (the geometric "
                 "mean over the group's other members of the round's time ÷ their median) is "
                 "within this fraction of the second fastest round's, at least 6: the rounds "
                 "the host ran in its fastest state (default " +
                     number_text(kQuickModel.state_margin) +
                     "; 0: every round; the bench JSON keeps every round)")
      ->check(CLI::Range(0.0, 10.0));
  app.add_option("--min-time", o.min_time,
                 "least seconds a member is timed in each round, in whole batches (default " +
                     number_text(kQuickModel.min_time_s) + " quick, " +
                     number_text(kFullModel.min_time_s) + " full)")
      ->check(CLI::Range(0.0, 3600.0));
  app.add_option("--noise-margin", o.noise_margin,
                 "flag a configuration noisy when its canary (a short compute loop and a "
                 "memory chase, timed before it) is more than this fraction slower than the "
                 "run's best, or the host stole more than this fraction of its group's rounds "
                 "(default 0.15; 0.01-10)")
      ->check(CLI::Range(0.01, 10.0));
  app.add_option("--canary-baseline", o.canary_baseline,
                 "COMPUTE_NS,MEMORY_NS: the best canary of an earlier run on this machine, "
                 "to judge this one by (run.sh --retry-noisy passes it)");
  app.add_flag("--list", o.list,
               "print the configurations with their memory and estimated seconds, each "
               "family's count and estimated time, the total, and the Highway targets, then exit");
}

void add_custom_options(CLI::App& app, Options& o) {
  app.add_option("--nodes", o.nodes, "custom run: node count N (default 1000)");
  app.add_option("--vnodes", o.vnodes, "custom run: virtual nodes per node V (default 100)");
  app.add_option("--keys", o.keys, "custom run: batch size K (default 1000000)")
      ->check(CLI::Range(uint64_t{0}, uint64_t{1} << 40));
  app.add_option("--threads", o.threads, "custom run: TBB threads (default 1)")
      ->check(CLI::Range(0u, 1024u));
  const auto [lo, hi] = knob_range();
  app.add_option("--in-flight", o.in_flight,
                 "custom run: keys in flight of the kernels with a knob: " + knob_names() +
                     "; default: theirs")
      ->check(CLI::Range(lo, hi));
  app.add_option("--cluster-window", o.window_bits,
                 "custom run: ring tokens and keys squeezed into a window of 2^W hash values "
                 "(1-63), the clustered-token worst case")
      ->check(CLI::Range(1u, 63u));
  app.add_option("--removed-fraction", o.removed_fraction,
                 "custom run: the fleet after this share of its N nodes left (at least 0, below "
                 "1; rounded to whole nodes), in --removal-order; each table is also rebuilt "
                 "once with one more node removed and once with the last removed back "
                 "(counters remove_us, readd_us). Mod-N cannot lose a node; jump hash and its "
                 "successors take LIFO only (refused if named, else left out)");
  for (const ParamInfo& p : kParams)
    if (custom_param(p))
      app.add_option(std::string(p.option), o.counts[param_index(p.param)], custom_param_help(p));
  app.add_option("--removal-order", o.removal_order,
                 "custom run with --removed-fraction: lifo (node-(N-1) first), fifo (node-0 "
                 "first) or random (a seeded shuffle, seed " +
                     std::to_string(kRemovalSeed) + "; the default)")
      ->check(CLI::IsMember({"lifo", "fifo", "random"}));
  app.add_option("--target", o.target,
                 "custom run with the SIMD kernels forced to this Highway target (x86: AVX3, "
                 "AVX2, SSE4, SSSE3, SCALAR; Arm: SVE2_128, SVE_256, SVE2, SVE, NEON; default: "
                 "dispatch picks)");
  app.add_option("--mul64", o.mul64,
                 "how the kernels that can choose multiply 64-bit lanes on AVX3 (binomial/simd): "
                 "native (vpmullq) or split (32-bit products); default: split on Intel, native "
                 "elsewhere; the results record it (chbench_mul64)")
      ->check(CLI::IsMember({"native", "split"}));
}

// The floor (floor_kernels()) of full name `name`, else find_kernel's kernel.
const KernelInfo* find_floor_or_kernel(std::string_view name) {
  for (const KernelInfo* f : floor_kernels())
    if (f->full_name() == name) return f;
  return &find_kernel(name);
}

// The kernels --schemes and --kernels select; empty for all.
std::vector<const KernelInfo*> selected_kernels(const Options& o) {
  std::vector<const KernelInfo*> kernels;
  std::set<Scheme> schemes;
  for (const auto& s : split_list(o.schemes.value_or(""))) schemes.insert(parse_scheme(s));
  for (const auto& name : split_list(o.kernels.value_or("")))
    kernels.push_back(find_floor_or_kernel(name));
  if (kernels.empty() && !schemes.empty())
    for (const KernelInfo* k : all_kernels())
      if (schemes.count(k->scheme)) kernels.push_back(k);
  if (!schemes.empty())
    std::erase_if(kernels, [&](const KernelInfo* k) { return !schemes.count(k->scheme); });
  if (kernels.empty() && (o.schemes || o.kernels))
    fail("--schemes and --kernels select no kernel together");
  return kernels;
}

int64_t parse_target(const std::string& name) {
  if (name.empty()) return 0;
  std::vector<std::string> names;
  for (int64_t t : simd::runnable_targets()) {
    if (simd::target_name(t) == name) return t;
    names.push_back(simd::target_name(t));
  }
  fail("--target " + name + " is not a Highway target this build and this CPU can run (" +
       join(names) + ")");
}

// The registry's limits for the kernel's scheme, and its knob's range. The
// memory comes first: SchemeInfo::check needs the fleet itself, whose node
// names (fleet_name_bytes: every copy alive) and key pool are checked to fit
// before it is made, and it validates every name (seconds for 10^8 of them).
// config_bytes builds no large fleet (plan_cost.h).
void check_custom(const Config& c, const Options& o, bool named) {
  const SchemeInfo& s = c.kernel->scheme_info();
  if (c.nodes > s.max_nodes)
    fail("N = " + std::to_string(c.nodes) + " exceeds the " + std::to_string(s.max_nodes) +
         " nodes " + std::string(s.title) + " takes");
  const uint64_t names = !config_named(c) ? 0
                         : c.removals     ? scenario_name_bytes(c.nodes)
                                          : fleet_name_bytes(c.nodes);
  check_fits(c.name(), names + c.pool() * 16);
  check_fits(c.name(), config_bytes(c));
  s.check(*config_fleet(c));
  if (!o.in_flight) return;
  const Knob* knob = c.kernel->knob;
  if (!knob && named)
    fail("--in-flight: " + c.kernel->full_name() + " has no knob (keys in flight)");
  if (knob && (*o.in_flight < knob->min || *o.in_flight > knob->max))
    fail("--in-flight for " + c.kernel->full_name() + " must be " + std::to_string(knob->min) +
         " to " + std::to_string(knob->max) + " (its " + std::string(knob->name) + ")");
}

// The parameters' options, checked against their entries' ranges.
ParamCounts custom_counts(const Options& o) {
  ParamCounts out{};
  for (const ParamInfo& p : kParams) {
    const std::optional<uint32_t> v = o.counts[param_index(p.param)];
    if (!v) continue;
    if (*v < p.min || *v > p.max)
      fail(std::string(p.option) + " must be " +
           (p.max == 0xffffffffu ? "at least " + std::to_string(p.min)
                                 : std::to_string(p.min) + " to " + std::to_string(p.max)));
    out[param_index(p.param)] = *v;
  }
  return out;
}

// The parameter given that the kernel's scheme does not take, or nullptr.
const ParamInfo* refused_param(const Options& o, const KernelInfo& k) {
  for (const ParamInfo& p : kParams)
    if (o.counts[param_index(p.param)] && !k.scheme_info().takes(p.param)) return &p;
  return nullptr;
}

// --removed-fraction, --removal-order and --capacity, checked (--capacity
// alone: a fleet of N nodes, none removed, at that capacity).
std::optional<Removals> custom_removals(const Options& o) {
  if (!o.removed_fraction) {
    if (o.removal_order) fail("--removal-order needs --removed-fraction");
    if (o.counts[param_index(kParamCapacity)]) return Removals{0, RemovalOrder::kRandom};
    return std::nullopt;
  }
  const double f = *o.removed_fraction;
  if (!(f >= 0 && f < 1))
    fail("--removed-fraction must be at least 0 and below 1 (a fleet keeps a node), not " +
         (std::ostringstream() << f).str());
  return Removals{f, parse_removal_order(o.removal_order.value_or("random")).value()};
}

// One configuration per selected kernel, from the values given.
std::vector<Config> custom_configs(const Options& o, std::vector<const KernelInfo*> kernels) {
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
  const int64_t target = parse_target(o.target);
  const bool named = !kernels.empty();
  if (!named) kernels.assign(all_kernels().begin(), all_kernels().end());
  c.counts = custom_counts(o);
  c.removals = custom_removals(o);
  std::vector<Config> out;
  for (const KernelInfo* k : kernels) {
    c.kernel = k;
    if (const ParamInfo* p = refused_param(o, *k)) {
      if (named)
        fail(std::string(p->option) + ": " + std::string(k->scheme_info().title) + " takes no " +
             std::string(p->symbol) + " (the schemes that take it: " + takers(p->param) + ")");
      continue;
    }
    if (c.removals) {
      const std::string why = removal_refusal(k->scheme_info(), c.removals->order);
      if (!why.empty() && named) fail("--removed-fraction for " + k->full_name() + ": " + why);
      if (!why.empty()) continue;
    }
    check_custom(c, o, named && o.kernels);
    c.target = k->simd ? target : 0;  // the others have no target to force
    // Only kernels built over a given ring take a cluster window; only those
    // with a knob keys in flight.
    c.window_bits = k->make_over_ring ? o.window_bits.value_or(0) : 0;
    c.in_flight = k->knob ? o.in_flight.value_or(0) : 0;
    out.push_back(c);
  }
  return out;
}

}  // namespace

[[noreturn]] void fail(const std::string& message) {
  std::cerr << "chbench_bench: error: " << message << "\n";
  std::exit(2);
}

void add_options(CLI::App& app, Options& o) {
  o.max_threads = std::max(1u, std::thread::hardware_concurrency());
  app.footer("Kernels:\n" + kernel_list());
  add_sweep_options(app, o);
  add_custom_options(app, o);
  app.add_flag("--allow-emulated", o.allow_emulated,
               "run even under an emulator (qemu), whose timings mean nothing; the results "
               "record chbench_emulated");
  app.add_flag("--corrupt-one-owner", o.corrupt_one_owner)->group("");
  app.add_option("--cpuinfo", o.cpuinfo)->group("");
  app.add_flag("--help-benchmark", o.help_benchmark, "print Google Benchmark's flags and exit");
}

std::vector<FamilySweep> configs_from(const Options& o) {
  // An option given with an empty list selects nothing; it never means "all".
  for (const auto& [flag, value] :
       {std::pair{"--families", o.families}, {"--schemes", o.schemes}, {"--kernels", o.kernels}})
    if (value && split_list(*value).empty()) fail(std::string(flag) + " was given an empty list");
  SweepOptions so;
  so.full = o.sweep == "full";
  so.max_threads = o.max_threads;
  so.family_groups = o.interleave == "family";
  for (const auto& name : split_list(o.families.value_or(""))) {
    const Family* f = find_family(name);
    if (!f) fail("unknown family '" + name + "' (known: " + join(family_names()) + ")");
    so.families.push_back(f);
  }
  so.kernels = selected_kernels(o);
  const bool custom = o.nodes || o.vnodes || o.keys || o.threads || o.in_flight || o.window_bits ||
                      !o.target.empty() || o.removed_fraction || o.removal_order ||
                      std::ranges::any_of(o.counts, [](const auto& v) { return v.has_value(); });
  if (!custom) return make_sweep(so);
  if (o.families)
    fail(
        "--families selects the sweep's families; a custom run (--nodes, --keys, ... given) times "
        "its kernels at one configuration: narrow it with --schemes or --kernels");
  auto configs = custom_configs(o, so.kernels);
  uint32_t group = 0;
  assign_groups(configs, group);  // one group, split where its tables would not fit together
  return {FamilySweep{nullptr, std::move(configs)}};
}

std::pair<double, double> parse_canary_baseline(const std::string& text) {
  const auto comma = text.find(',');
  auto number = [&](const std::string& part) {
    char* end = nullptr;
    const double x = std::strtod(part.c_str(), &end);
    if (part.empty() || end != part.c_str() + part.size() || !(x > 0 && x < 1e12))
      fail("--canary-baseline takes COMPUTE_NS,MEMORY_NS (two positive numbers), not '" + text +
           "'");
    return x;
  };
  if (comma == std::string::npos) number("");
  return {number(text.substr(0, comma)), number(text.substr(comma + 1))};
}

void check_fits(const std::string& what, uint64_t bytes) {
  const std::string shortfall = memory_shortfall(bytes);
  if (!shortfall.empty()) fail(what + shortfall + "; lower --nodes, --vnodes or --keys");
}

void check_benchmark_number(const std::string& arg, const std::string& flag, double lo, double hi) {
  if (arg.rfind(flag, 0) != 0) return;
  const std::string value = arg.substr(flag.size());
  char* end = nullptr;
  const double x = std::strtod(value.c_str(), &end);
  if (value.empty() || end != value.c_str() + value.size() || !(x >= lo && x <= hi))
    fail("bad value in '" + arg + "': " + flag.substr(2, flag.size() - 3) + " takes " +
         std::to_string(static_cast<int>(lo)) + " to " + std::to_string(static_cast<int>(hi)));
}

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

}  // namespace chbench::bench
