#include "rounds.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <numeric>
#include <random>
#include <sstream>
#include <string>

#include "batch.h"
#include "chbench/simd.h"
#include "fastest_rounds.h"
#include "round_order.h"

namespace chbench::bench {

namespace {

using Clock = std::chrono::steady_clock;

double ns_since(Clock::time_point start) {
  return std::chrono::duration<double, std::nano>(Clock::now() - start).count();
}

// Whether b is a with another kernel (and target) and nothing else.
bool differs_in_kernel_alone(const Config& a, const Config& b) {
  Config x = b;
  x.kernel = a.kernel;
  x.target = a.target;
  x.in_flight = a.in_flight;  // a kernel's own knob
  return x.name() == a.name();
}

// A member being timed: its configuration, its prepared state, where its
// batches are in the pool.
struct Member {
  std::size_t index = 0;
  const Config* c = nullptr;
  Prepared* p = nullptr;
  uint64_t batches = 1;  // a slice
  uint64_t window = 0;   // the pool window of its next batch
};

// Runs `batches` batches of the member from its window on (the warm-up's
// keys first when `warmup`, untimed); returns the timed nanoseconds.
double run_slice(Member& m, uint64_t batches, bool warmup) {
  const simd::ForcedTarget forced(m.c->target);
  const uint64_t keys = m.c->keys, windows = pool_windows(keys);
  return with_batch(m.c->path, *m.p, [&](const auto& batch) {
    if (warmup) batch(m.window * keys, m.window * keys + std::min(keys, kWarmupKeys));
    const auto start = Clock::now();
    for (uint64_t b = 0; b < batches; ++b) {
      batch(m.window * keys, (m.window + 1) * keys);
      if (++m.window == windows) m.window = 0;
    }
    const double ns = ns_since(start);
    benchmark::DoNotOptimize(m.p->out.data());
    return ns;
  });
}

// Times a batch of the member (after one that warms it up), and the
// batches a slice of at least min time then takes.
void calibrate(Member& m, double min_time_s) {
  run_slice(m, 1, true);
  const double batch_ns = std::max(1.0, run_slice(m, 1, false));
  m.batches = std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(min_time_s * 1e9 / batch_ns)));
}

// Calibrates every member's slice, or takes the one of its first visit
// (MemberRounds::batches) in a later visit, and counts its threads from
// here on; a member whose kernel throws is left out with its error.
void calibrate_members(std::vector<Member>& members, const TimeModel& model,
                       std::vector<MemberRounds>& out) {
  std::erase_if(members, [&](Member& m) {
    try {
      if (out[m.index].batches != 0)
        m.batches = out[m.index].batches;
      else
        calibrate(m, model.min_time_s);
    } catch (const std::exception& e) {
      out[m.index].error = m.c->name() + ": " + e.what();
      std::cerr << "chbench_bench: " << out[m.index].error << "\n";
      return true;
    }
    const bool team = m.c->path == Path::kThroughput || m.c->path == Path::kBounded;
    if (team) m.p->team->reset_threads_seen();
    return false;
  });
}

// Prepares every member of the group, each at its own target; those that
// fail are left out of the returned list.
std::vector<Member> prepare_members(std::span<const Config> configs, GroupSpan g, Workbench& bench,
                                    std::vector<MemberRounds>& out) {
  std::vector<Member> members;
  for (std::size_t i = g.first; i < g.last; ++i) {
    if (!out[i].error.empty()) continue;  // failed in an earlier visit
    Prepared* p = nullptr;
    try {
      const simd::ForcedTarget forced(configs[i].target);
      p = &bench.prepare(i);
    } catch (const std::exception& e) {
      bench.fail(i, configs[i].name() + ": " + e.what());
      out[i].error = configs[i].name() + ": " + e.what();
      out[i].ns_per_key.clear();  // an earlier visit's rounds alone are no measurement
      continue;
    }
    if (!p->error.empty()) {
      out[i].error = p->error;
      out[i].ns_per_key.clear();
      continue;
    }
    members.push_back(Member{i, &configs[i], p});
  }
  return members;
}

// A member's block in a round's order (round_order.h): its scheme (a
// profile's, for the profile's kernels and its own lookup, which the
// profile's table pairs) at its point (its name's parameters, without the
// kernel's own knob), which its reference (reference_of) shares; a group of
// a whole family (--interleave family) has a block for each scheme at each
// point.
std::string block_key(const Config& c) {
  Config point = c;
  point.in_flight = 0;
  std::ostringstream key;
  if (c.profile)
    key << profile_name(*c.profile);
  else
    key << scheme_name(c.kernel->scheme);
  for (const auto& [name, value] : point.segments()) key << '/' << name << ':' << value;
  return key.str();
}

// The rounds: every member once a round, in a fresh random order of the
// group's blocks and of each block's members (round_order.h).
void run_rounds(std::vector<Member>& members, unsigned rounds, std::mt19937_64& rng,
                std::vector<MemberRounds>& out) {
  std::vector<std::string> blocks;
  for (const Member& m : members) blocks.push_back(block_key(*m.c));
  RoundOrder order(blocks);
  for (unsigned r = 0; r < rounds; ++r) {
    for (std::size_t k : order.next(rng)) {
      Member& m = members[k];
      const double ns = run_slice(m, m.batches, true);
      out[m.index].ns_per_key.push_back(ns / static_cast<double>(m.batches * m.c->keys));
    }
  }
}

// What the counters report of a member, from its prepared state.
void copy_facts(const Member& m, MemberRounds& r) {
  const Prepared& p = *m.p;
  r.batches = m.batches;
  r.memory_bytes = p.memory_bytes;
  r.build_ms = p.build_ms;
  r.build_shared_ms = p.build_shared_ms;
  r.remove_us = p.remove_us;
  r.readd_us = p.readd_us;
  r.capacity = p.loads ? p.loads->capacity() : 0;
  const bool team = m.c->path == Path::kThroughput || m.c->path == Path::kBounded;
  r.threads_ran = team ? p.team->threads_seen() : p.threads_ran;
}

// Adds the CPU time of each arena slot in this visit's rounds (Config::thread_cpu).
void add_thread_cpu(const Member& m, MemberRounds& r) {
  if (!m.c->thread_cpu || m.c->path != Path::kThroughput) return;
  const std::vector<uint64_t> visit = m.p->team->cpu_ns_per_slot();
  r.thread_cpu_ns.resize(std::max(r.thread_cpu_ns.size(), visit.size()), 0);
  for (std::size_t slot = 0; slot < visit.size(); ++slot) r.thread_cpu_ns[slot] += visit[slot];
}

// Whether a member of the group reports its threads' CPU time
// (Config::thread_cpu), which adds up over every visit (add_thread_cpu): such
// a group is neither timed again nor left without a visit.
bool times_thread_cpu(std::span<const Config> configs, GroupSpan g) {
  return std::any_of(configs.begin() + g.first, configs.begin() + g.last,
                     [](const Config& c) { return c.thread_cpu; });
}

// A group's members' rounds (none for a member not timed) and each visit's
// count of them.
struct GroupRounds {
  std::vector<std::vector<double>> rounds;
  std::vector<unsigned> sizes;
};

GroupRounds rounds_of(GroupSpan g, const Plan& plan, const TimeModel& model,
                      const std::vector<MemberRounds>& out) {
  GroupRounds r;
  const Step& s = plan.step(g.first);
  for (unsigned v = 0; v < s.visits; ++v) r.sizes.push_back(visit_rounds(model, s.rounds, v));
  for (std::size_t i = g.first; i < g.last; ++i)
    r.rounds.push_back(out[i].error.empty() ? out[i].ns_per_key : std::vector<double>{});
  return r;
}

// Each member's rounds of the visits a group's figures use (revisits.h: a
// visit still slower than the fastest by more than the revisit margin is
// left out; `visits` gets the ones kept), none for a member whose count of
// rounds is not the visits' (not timed in every visit).
std::vector<std::vector<double>> kept_visit_rounds(const GroupRounds& all, double margin,
                                                   std::vector<unsigned>& visits) {
  visits = kept_visits(all.rounds, all.sizes, margin);
  const std::vector<std::size_t> places = places_of_visits(all.sizes, visits);
  const std::size_t total = std::accumulate(all.sizes.begin(), all.sizes.end(), std::size_t{0});
  std::vector<std::vector<double>> out;
  for (const auto& member : all.rounds)
    out.push_back(member.size() == total ? rounds_at(member, places) : std::vector<double>{});
  return out;
}

// The intervals and ratios of the group's members from the rounds kept: of
// the visits kept, those the host ran in its fastest state by the pace of
// the members the figure is not of (fastest_rounds.h). A group timed on
// thread CPU time keeps every round. A member not timed in every visit
// keeps all its rounds and pairs them as they are.
void summarise(std::span<const Config> configs, GroupSpan g, const Plan& plan,
               const TimeModel& model, std::vector<MemberRounds>& out) {
  const GroupRounds all = rounds_of(g, plan, model, out);
  const bool cpu = times_thread_cpu(configs, g);
  std::vector<unsigned> visits;
  const auto visited = kept_visit_rounds(all, cpu ? 0 : model.revisit_margin, visits);
  const double margin = cpu ? 0 : model.state_margin;
  // Member m's rounds (a place in the group) at the places kept.
  const auto kept = [&](std::size_t m, const std::vector<std::size_t>& places) {
    return visited[m].empty() ? out[g.first + m].ns_per_key : rounds_at(visited[m], places);
  };
  for (std::size_t i = g.first; i < g.last; ++i) {
    MemberRounds& r = out[i];
    if (visits.size() < all.sizes.size()) {
      r.kept_visits = visits;
      r.visit_sizes = all.sizes;
    }
    if (r.ns_per_key.empty()) continue;
    const std::size_t m = i - g.first;
    const std::vector<double> mine =
        kept(m, fastest_rounds(visited, margin, std::vector<std::size_t>{m}));
    r.rounds_kept = mine.size();
    r.ns_median = median(mine);
    r.ns_interval = median_interval(mine);
    const auto reference = reference_of(configs, g, i);
    // A reference that was not timed (its preparation failed) has no rounds.
    if (!reference || out[*reference].ns_per_key.size() != r.ns_per_key.size()) continue;
    const std::size_t ref = *reference - g.first;
    const auto places = fastest_rounds(visited, margin, std::vector<std::size_t>{m, ref});
    const auto ratios = paired_ratios(kept(m, places), kept(ref, places));
    r.ratio = median(ratios);
    r.ratio_interval = median_interval(ratios);
  }
}

// Where a group is in the run: its members, its index, the visit.
struct Visit {
  GroupSpan g;
  std::size_t group = 0;
  unsigned visit = 0;  // 0-based (TimeModel::visits)
};

// Records what a visit's rounds saw of a member: its noise record (combined
// with earlier visits'), and in the first visit what its counters report.
void record_visit(const Member& m, const Visit& v, const NoiseRecord& noise, MemberRounds& r) {
  r.noise = v.visit == 0 ? noise : combined(r.noise, noise);
  if (v.visit == 0) copy_facts(m, r);
  add_thread_cpu(m, r);
}

// One visit of a group: canary, preparation, calibration, the visit's share
// of the rounds, noise record.
void time_group(std::span<const Config> configs, const Visit& v, Workbench& bench,
                NoiseMonitor& noise, const Plan& plan, const TimeModel& model, std::mt19937_64& rng,
                std::vector<MemberRounds>& out) {
  const GroupSpan g = v.g;
  for (std::size_t i = g.first; i < g.last; ++i) out[i].group = v.group;
  // The canary goes first: the members' preparation then brings their own
  // tables back into the caches the canary's buffer took.
  noise.before_config(g.first);
  bench.begin_group(g);
  std::vector<Member> members = prepare_members(configs, g, bench, out);
  calibrate_members(members, model, out);
  noise.start_repetition();
  const auto start = Clock::now();
  try {
    run_rounds(members, visit_rounds(model, plan.step(g.first).rounds, v.visit), rng, out);
  } catch (const std::exception& e) {  // a kernel that throws mid-round: the group is not timed
    for (const Member& m : members) {
      out[m.index].error = configs[m.index].name() + ": " + e.what();
      out[m.index].ns_per_key.clear();
    }
    std::cerr << "chbench_bench: " << out[g.first].error << "\n";
    return;
  }
  const double wall_ms = ns_since(start) * 1e-6;
  for (const Member& m : members) {
    // The working set: the tables, the key hashes read and the owners written.
    const std::size_t working_set =
        m.p->memory_bytes + m.c->keys * (sizeof(uint64_t) + sizeof(uint32_t));
    record_visit(m, v, noise.finish_repetition(wall_ms, working_set), out[m.index]);
  }
}

// A group's visit to time again, and the group's index.
struct Revisit {
  std::size_t group = 0;
  Disturbed visit;
};

// The visits to time again (revisits.h): the most disturbed first, at most
// kRevisitShare of the groups; none that times its threads' CPU.
std::vector<Revisit> disturbed_visits(std::span<const Config> configs,
                                      std::span<const GroupSpan> groups, const Plan& plan,
                                      const TimeModel& model,
                                      const std::vector<MemberRounds>& out) {
  std::vector<Revisit> found;
  for (std::size_t k = 0; k < groups.size(); ++k) {
    const GroupSpan g = groups[k];
    if (times_thread_cpu(configs, g)) continue;
    const GroupRounds r = rounds_of(g, plan, model, out);
    if (auto d = disturbed_visit(r.rounds, r.sizes, model.revisit_margin))
      found.push_back(Revisit{k, *d});
  }
  std::stable_sort(found.begin(), found.end(), [](const Revisit& a, const Revisit& b) {
    return a.visit.slower > b.visit.slower;
  });
  const auto cap =
      static_cast<std::size_t>(std::ceil(kRevisitShare * static_cast<double>(groups.size())));
  if (found.size() > cap) found.resize(cap);
  return found;
}

// Times the revisit's visit of its group again into `fresh` (a copy of out)
// and puts the new rounds in the old ones' place if they ran faster.
bool time_again(std::span<const Config> configs, const Revisit& r, GroupSpan g, Workbench& bench,
                NoiseMonitor& noise, const Plan& plan, const TimeModel& model, std::mt19937_64& rng,
                std::vector<MemberRounds>& out, std::vector<MemberRounds>& fresh) {
  for (std::size_t i = g.first; i < g.last; ++i) {
    fresh[i] = out[i];
    fresh[i].ns_per_key.clear();
    fresh[i].noise = NoiseRecord{};  // the new visit's record alone, added to out's below
  }
  time_group(configs, Visit{g, r.group, r.visit.visit}, bench, noise, plan, model, rng, fresh);
  std::vector<std::vector<double>> news;
  for (std::size_t i = g.first; i < g.last; ++i)
    news.push_back(fresh[i].error.empty() ? fresh[i].ns_per_key : std::vector<double>{});
  GroupRounds now = rounds_of(g, plan, model, out);
  const bool replaced = replace_if_faster(now.rounds, now.sizes, r.visit.visit, news);
  for (std::size_t i = g.first; i < g.last; ++i) {
    out[i].revisit = MemberRounds::Revisit{r.visit, true, replaced};
    if (!replaced) continue;
    out[i].ns_per_key = now.rounds[i - g.first];
    // The record covers every visit timed, the replaced one too: a
    // diagnostic, the worse of them.
    out[i].noise = combined(out[i].noise, fresh[i].noise);
  }
  return replaced;
}

// After the visits: the visits a state of the host slowed timed again
// (revisits.h), with a line of progress each and one at the end.
void revisit_disturbed(std::span<const Config> configs, std::span<const GroupSpan> groups,
                       Workbench& bench, NoiseMonitor& noise, const Plan& plan,
                       const TimeModel& model, std::mt19937_64& rng, std::vector<MemberRounds>& out,
                       Progress& progress) {
  const std::vector<Revisit> found = disturbed_visits(configs, groups, plan, model, out);
  if (found.empty()) return;
  bench.revisit();
  noise.new_visit();
  std::vector<MemberRounds> fresh = out;
  std::size_t replaced = 0, timed = 0;
  const double visits_s = progress.elapsed_s();
  for (; timed < found.size(); ++timed) {
    if (!revisit_may_start(timed, progress.elapsed_s() - visits_s, visits_s)) break;
    const GroupSpan g = groups[found[timed].group];
    replaced += time_again(configs, found[timed], g, bench, noise, plan, model, rng, out, fresh);
    progress.revisited(g, found[timed].visit.visit, found[timed].visit.slower, timed + 1,
                       found.size());
  }
  bench.begin_group({});
  std::fprintf(stderr,
               "chbench_bench: timed %zu visit%s again that ran more than %g %% slower than "
               "their group's fastest; the new rounds ran faster and took the place of %zu\n",
               timed, timed == 1 ? "" : "s", model.revisit_margin * 100, replaced);
  for (std::size_t n = timed; n < found.size(); ++n) {
    const GroupSpan g = groups[found[n].group];
    for (std::size_t i = g.first; i < g.last; ++i)
      out[i].revisit = MemberRounds::Revisit{found[n].visit, false, false};
  }
  if (timed < found.size())
    std::fprintf(stderr,
                 "chbench_bench: %zu more were not timed again: the revisits' time budget (%g %% "
                 "of the visits') ran out\n",
                 found.size() - timed, kRevisitBudget * 100);
}

}  // namespace

std::optional<std::size_t> reference_of(std::span<const Config> configs, GroupSpan group,
                                        std::size_t i) {
  const Config& c = configs[i];
  if (!c.kernel || c.is_floor()) return std::nullopt;
  auto find = [&](auto&& wanted) -> std::optional<std::size_t> {
    for (std::size_t j = group.first; j < group.last; ++j) {
      const Config& o = configs[j];
      if (j != i && o.kernel && !o.is_floor() && o.kernel->scheme == c.kernel->scheme &&
          wanted(o) && differs_in_kernel_alone(c, o))
        return j;
    }
    return std::nullopt;
  };
  if (c.kernel->rival)
    if (auto j =
            find([&](const Config& o) { return o.kernel == c.kernel->rival && o.target == 0; }))
      return j;
  if (c.kernel->baseline) return std::nullopt;
  return find([](const Config& o) { return o.kernel->baseline && o.target == 0; });
}

std::vector<MemberRounds> time_groups(std::span<const Config> configs, Workbench& bench,
                                      NoiseMonitor& noise, const Plan& plan, const TimeModel& model,
                                      Progress& progress) {
  std::vector<MemberRounds> out(configs.size());
  std::mt19937_64 rng(kRoundSeed);
  const auto groups = comparison_groups(configs);
  for (unsigned visit = 0; visit < std::max(1u, model.visits); ++visit) {
    if (visit > 0) {
      bench.revisit();
      noise.new_visit();
    }
    for (std::size_t k = 0; k < groups.size(); ++k) {
      if (visit >= plan.step(groups[k].first).visits) continue;
      time_group(configs, Visit{groups[k], k, visit}, bench, noise, plan, model, rng, out);
      progress.done(groups[k], visit);
    }
    bench.begin_group({});  // what the last group held goes
  }
  revisit_disturbed(configs, groups, bench, noise, plan, model, rng, out, progress);
  std::size_t left_out = 0;
  for (const GroupSpan& g : groups) {
    summarise(configs, g, plan, model, out);
    left_out += !out[g.first].kept_visits.empty();
  }
  if (left_out != 0)
    std::fprintf(stderr,
                 "chbench_bench: %zu group%s still ran a visit more than %g %% slower than "
                 "its fastest; %s figures use the other visits' rounds\n",
                 left_out, left_out == 1 ? "" : "s", model.revisit_margin * 100,
                 left_out == 1 ? "its" : "their");
  return out;
}

namespace {

// Five significant digits: what the rounds' spread can tell apart.
double rounded(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.5g", x);
  return std::strtod(buf, nullptr);
}

}  // namespace

std::string groups_json(std::span<const Config> configs, std::span<const MemberRounds> rounds) {
  nlohmann::json groups = nlohmann::json::array();
  for (const GroupSpan& g : comparison_groups(configs)) {
    nlohmann::json members = nlohmann::json::array(), ns = nlohmann::json::array();
    for (std::size_t i = g.first; i < g.last; ++i) {
      members.push_back(configs[i].name());
      if (rounds[i].ns_per_key.empty()) {
        ns.push_back(nullptr);
        continue;
      }
      nlohmann::json values = nlohmann::json::array();
      for (double x : rounds[i].ns_per_key) values.push_back(rounded(x));
      ns.push_back(std::move(values));
    }
    nlohmann::json group{{"members", std::move(members)}, {"ns_per_key", std::move(ns)}};
    const MemberRounds& first = rounds[g.first];
    if (first.revisit)
      group["revisit"] = {{"visit", first.revisit->visit.visit + 1},
                          {"slower", rounded(first.revisit->visit.slower)},
                          {"replaced", first.revisit->replaced},
                          {"timed", first.revisit->timed}};
    if (!first.kept_visits.empty()) {
      group["visit_rounds"] = first.visit_sizes;
      nlohmann::json kept = nlohmann::json::array();
      for (unsigned v : first.kept_visits) kept.push_back(v + 1);
      group["kept_visits"] = std::move(kept);
    }
    groups.push_back(std::move(group));
  }
  return nlohmann::json{{"groups", std::move(groups)}}.dump();
}

std::string timing_json(const TimeModel& model) {
  return nlohmann::json{{"method", "interleaved rounds"},
                        {"order", kBlockedOrder},
                        {"rounds", model.rounds},
                        {"visits", group_visits(model, model.rounds)},
                        {"revisit_margin", model.revisit_margin},
                        {"state_margin", model.state_margin},
                        {"revisit_share", kRevisitShare},
                        {"revisit_budget", kRevisitBudget},
                        {"min_rounds", model.min_rounds},
                        {"min_slice_s", model.min_time_s},
                        {"warmup_keys", kWarmupKeys},
                        {"seed", kRoundSeed},
                        {"confidence", kConfidence}}
      .dump();
}

}  // namespace chbench::bench
