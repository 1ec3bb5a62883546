// ThreadTeam: the same owners as a plain call, for every kernel and thread
// count; the thread count it reports; its errors. Teams are built one at a
// time: each holds a process-wide tbb::global_control.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <span>
#include <stdexcept>
#include <vector>

#include "chbench/hash.h"
#include "chbench/nodes.h"
#include "chbench/parallel.h"
#include "chbench/scheme.h"
#include "support.h"

using chbench_test::first_mismatch;
using chbench_test::kGuard;
using chbench_test::kSeed;

namespace {

// Keys of team_keys(): half the default keys, half random. Under an emulator or sanitizers
// a fifth as many (the split does not depend on the CPU).
constexpr std::size_t kHalfKeys = chbench_test::kBrief ? 10'000 : 50'000;

std::vector<uint64_t> team_keys() {
  std::mt19937_64 rng(kSeed + 20);
  auto keys = chbench::default_key_hashes(kHalfKeys);
  chbench_test::append_random(keys, kHalfKeys, rng);
  keys.push_back(0);
  keys.push_back(~uint64_t{0});
  return keys;
}

}  // namespace

TEST_CASE("ThreadTeam gives every kernel's plain owners with 1 and 2 threads", "[parallel]") {
  const auto keys = team_keys();
  REQUIRE(keys.size() >= 2 * kHalfKeys);
  const chbench::NodeSet nodes = chbench::default_nodes(257, 40);

  for (unsigned threads : {1u, 2u}) {
    chbench::ThreadTeam team(threads);
    CHECK(team.requested() == threads);
    for (const chbench::KernelInfo* kernel : chbench_test::test_kernels()) {
      INFO(threads << " threads, kernel " << kernel->full_name());
      const auto table = kernel->build(nodes);
      const auto plain = chbench_test::owners_of(*table, keys);

      std::vector<uint32_t> out(keys.size() + 1, kGuard);
      const std::span<uint32_t> batch = std::span<uint32_t>(out).first(keys.size());
      team.owners(*table, keys, batch);
      CHECK(out.back() == kGuard);
      CHECK(first_mismatch<uint64_t>(keys, plain, batch) == "");

      std::fill(out.begin(), out.end(), kGuard);
      const unsigned ran = team.owners_counting_threads(*table, keys, batch);
      CHECK(ran >= 1);
      CHECK(ran <= threads);
      CHECK(out.back() == kGuard);
      CHECK(first_mismatch<uint64_t>(keys, plain, batch) == "");

      // Fewer keys than threads, and odd sizes.
      for (std::size_t size : {1u, 2u, 3u, 17u}) {
        const auto few = std::span<const uint64_t>(keys).first(size);
        std::vector<uint32_t> got(size, kGuard);
        team.owners(*table, few, got);
        CHECK(first_mismatch<uint64_t>(few, std::span(plain).first(size), got) == "");
      }
    }
  }
}

TEST_CASE("ThreadTeam reports between 1 and the requested number of threads", "[parallel]") {
  const auto keys = team_keys();
  const auto table = chbench::build_reference(chbench::Scheme::kJump, chbench::default_nodes(100));
  std::vector<uint32_t> out(keys.size());
  for (unsigned threads : {1u, 2u, 3u, 4u}) {
    chbench::ThreadTeam team(threads);
    INFO(threads << " threads requested");
    for (int run = 0; run < 5; ++run) {
      const unsigned ran = team.owners_counting_threads(*table, keys, out);
      CHECK(ran >= 1);
      CHECK(ran <= threads);
      if (threads == 1) CHECK(ran == 1);  // an arena of one: only the caller
    }
  }
}

TEST_CASE("ThreadTeam refuses 0 threads and mismatched sizes", "[parallel][errors]") {
  CHECK_THROWS_AS(chbench::ThreadTeam(0), std::invalid_argument);

  chbench::ThreadTeam team(2);
  const auto table = chbench::all_kernels().front()->build(chbench::default_nodes(4, 4));
  const std::vector<uint64_t> keys(10, 42);
  std::vector<uint32_t> shorter(9), longer(11), empty;
  CHECK_THROWS_AS(team.owners(*table, keys, shorter), std::invalid_argument);
  CHECK_THROWS_AS(team.owners(*table, keys, longer), std::invalid_argument);
  CHECK_THROWS_AS(team.owners(*table, keys, empty), std::invalid_argument);
  CHECK_THROWS_AS(team.owners_counting_threads(*table, keys, shorter), std::invalid_argument);
  CHECK_THROWS_AS(team.owners_counting_threads(*table, keys, longer), std::invalid_argument);
  CHECK_NOTHROW(team.owners(*table, {}, empty));
}

TEST_CASE("ThreadTeam counts each thread's CPU time only when asked", "[parallel]") {
  const auto keys = team_keys();
  const auto table =
      chbench::build_reference(chbench::Scheme::kRendezvous, chbench::default_nodes(64));
  std::vector<uint32_t> out(keys.size());
  for (unsigned threads : {1u, 2u}) {
    chbench::ThreadTeam team(threads);
    INFO(threads << " threads requested");
    const unsigned ran = team.owners_counting_threads(*table, keys, out);
    auto cpu = team.cpu_ns_per_slot();
    REQUIRE(cpu.size() == threads + 1);
    CHECK(std::all_of(cpu.begin(), cpu.end(), [](uint64_t ns) { return ns == 0; }));

    team.count_cpu_time(true);
    CHECK(team.owners_counting_threads(*table, keys, out) >= 1);
    cpu = team.cpu_ns_per_slot();
    const auto busy = std::count_if(cpu.begin(), cpu.end(), [](uint64_t ns) { return ns > 0; });
    // Every thread that ran a chunk got CPU time for it (rendezvous at 64
    // nodes: ~100k keys take milliseconds); an arena of one runs only the
    // caller, in slot 0.
    CHECK(busy >= 1);
    CHECK(busy <= static_cast<long>(threads));
    if (threads == 1) CHECK(cpu[0] > 0);
    CHECK(ran >= 1);
    team.reset_threads_seen();
    cpu = team.cpu_ns_per_slot();
    CHECK(std::all_of(cpu.begin(), cpu.end(), [](uint64_t ns) { return ns == 0; }));
  }
}
