// The registry's kernels (scheme.h): grouped by scheme and found by name,
// rivals, ranks, the rendezvous kernels over seeds, knobs. The few names below
// are fixtures that pin facts callers once worked out from names.

#include <algorithm>
#include <bit>
#include <catch2/catch.hpp>
#include <climits>
#include <cstdint>
#include <new>
#include <ostream>
#include <random>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "chbench/fleet.h"
#include "chbench/hash.h"
#include "chbench/hrw/hrw.h"
#include "chbench/jump/jump.h"
#include "chbench/maglev/maglev.h"
#include "chbench/nodes.h"
#include "chbench/ring/ring.h"
#include "chbench/scheme.h"
#include "support.h"

using Catch::Matchers::Contains;
using chbench::KernelInfo;
using chbench::NodeSet;
using chbench::Scheme;
using chbench::SchemeInfo;
using chbench_test::first_mismatch;
using chbench_test::keys_for;
using chbench_test::kSeed;
using chbench_test::owners_of;

namespace {

std::size_t scheme_position(Scheme s) {
  const auto infos = chbench::all_scheme_infos();
  for (std::size_t i = 0; i < infos.size(); ++i)
    if (infos[i].id == s) return i;
  return infos.size();
}

}  // namespace

TEST_CASE("registry: kernels are grouped by scheme and found by name", "[registry]") {
  const auto kernels = chbench::all_kernels();
  REQUIRE(!kernels.empty());
  std::set<std::string> full_names;
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    const KernelInfo* k = kernels[i];
    INFO("kernel " << k->full_name());
    CHECK(!k->name.empty());
    CHECK(k->name.find('/') == std::string_view::npos);
    CHECK(!k->summary.empty());
    CHECK(k->make != nullptr);
    CHECK(k->table_bytes != nullptr);
    // Rings of given tokens exist for the ring only.
    CHECK((k->make_over_ring != nullptr) == (k->scheme == Scheme::kRing));
    // Chosen node seeds exist for rendezvous only.
    CHECK((k->make_over_seeds != nullptr) == (k->scheme == Scheme::kRendezvous));
    CHECK(&k->scheme_info() == &chbench::scheme_info(k->scheme));
    CHECK(k->full_name() ==
          std::string(chbench::scheme_name(k->scheme)) + "/" + std::string(k->name));
    CHECK(full_names.insert(k->full_name()).second);  // unique
    CHECK(&chbench::find_kernel(k->scheme, k->name) == k);
    CHECK(&chbench::find_kernel(k->full_name()) == k);
    for (auto alias : k->scheme_info().aliases)
      CHECK(&chbench::find_kernel(std::string(alias) + "/" + std::string(k->name)) == k);
    // In the registry's scheme order, each scheme's kernels together.
    if (i > 0) CHECK(scheme_position(kernels[i - 1]->scheme) <= scheme_position(k->scheme));
  }
  for (const SchemeInfo& s : chbench::all_scheme_infos()) {
    INFO("scheme " << s.name);
    const auto of = chbench::kernels_of(s.id);
    CHECK(!of.empty());  // every scheme has a kernel to compare with its reference
    std::vector<const KernelInfo*> expected;
    for (const KernelInfo* k : kernels)
      if (k->scheme == s.id) expected.push_back(k);
    CHECK(of == expected);
  }
}

TEST_CASE("registry: find_kernel's errors name the problem and the choices", "[registry][errors]") {
  for (const SchemeInfo& s : chbench::all_scheme_infos()) {
    INFO("scheme " << s.name);
    for (const char* name : {"no-such-kernel", "", "SCALAR"}) {
      CHECK_THROWS_AS(chbench::find_kernel(s.id, name), std::invalid_argument);
      CHECK_THROWS_WITH(
          chbench::find_kernel(s.id, name),
          Contains("unknown kernel '" + std::string(name) + "' for scheme " + std::string(s.name)));
      const std::string full = std::string(s.name) + "/" + name;
      CHECK_THROWS_WITH(chbench::find_kernel(full),
                        Contains("unknown kernel '" + std::string(name)));
      for (const KernelInfo* k : chbench::kernels_of(s.id)) {
        CHECK_THROWS_WITH(chbench::find_kernel(s.id, name), Contains(std::string(k->name)));
        CHECK_THROWS_WITH(chbench::find_kernel(full), Contains(std::string(k->name)));
      }
    }
  }
  // A kernel name of one scheme is not found under another.
  for (const KernelInfo* k : chbench::all_kernels())
    for (const SchemeInfo& s : chbench::all_scheme_infos()) {
      bool exists = false;
      for (const KernelInfo* other : chbench::kernels_of(s.id)) exists |= other->name == k->name;
      if (!exists) CHECK_THROWS_AS(chbench::find_kernel(s.id, k->name), std::invalid_argument);
    }
  CHECK_THROWS_WITH(chbench::find_kernel("ring/x"), Contains("unknown kernel 'x' for scheme ring"));
  for (const char* malformed : {"nonsense", "", "ring"}) {
    INFO("'" << malformed << "'");
    CHECK_THROWS_AS(chbench::find_kernel(malformed), std::invalid_argument);
    CHECK_THROWS_WITH(chbench::find_kernel(malformed), Contains("must be written scheme/kernel"));
    CHECK_THROWS_WITH(chbench::find_kernel(malformed),
                      Contains(std::string(chbench::all_kernels().front()->scheme_info().name)));
  }
  CHECK_THROWS_WITH(chbench::find_kernel("nope/scalar"), Contains("unknown scheme 'nope'"));
  CHECK_THROWS_WITH(chbench::find_kernel("/scalar"), Contains("unknown scheme ''"));
  CHECK_THROWS_AS(chbench::find_kernel("ring/"), std::invalid_argument);
  CHECK_THROWS_AS(chbench::find_kernel("jump/scalar/x"), std::invalid_argument);
}

TEST_CASE("registry: every SIMD kernel has a scalar rival of its scheme", "[registry]") {
  std::size_t simd = 0;
  for (const KernelInfo* k : chbench::all_kernels()) {
    INFO("kernel " << k->full_name() << ", rival " << (k->rival ? k->rival->full_name() : "none"));
    simd += k->simd;
    // The targets family forces Highway targets on SIMD kernels only and
    // times each beside its rival; a scalar kernel has nothing to be beside.
    CHECK((k->rival == nullptr) == !k->simd);
    const KernelInfo* rival = k->rival;
    if (!rival) continue;
    const auto all = chbench::all_kernels();
    CHECK(std::find(all.begin(), all.end(), rival) != all.end());
    CHECK(rival->scheme == k->scheme);
    CHECK(rival != k);
    CHECK_FALSE(rival->simd);
    CHECK_FALSE(rival->baseline);
  }
  CHECK(simd > 0);
  // The kernels that plot and bench once disagreed about, as the registry now
  // states them.
  struct Fact {
    const char* kernel;
    bool simd;
    const char* rival;
  };
  for (const Fact& f :
       {Fact{"ring/stree", true, "eytzinger"}, Fact{"ring/bucketed", true, "eytzinger"},
        Fact{"maglev/simd", true, "scalar"}, Fact{"ring/eytzinger", false, ""},
        Fact{"hrw/simd_keys", true, "scalar"}}) {
    INFO(f.kernel);
    const KernelInfo& k = chbench::find_kernel(f.kernel);
    CHECK(k.simd == f.simd);
    CHECK((k.rival ? k.rival->name : std::string_view()) == f.rival);
  }
}

// What must hold of ranks, and no more: a new kernel takes any free rank
// (they are spaced by 10) without renumbering other kernels' files.
TEST_CASE("registry: ranks are unique per scheme, the lowest is the default, never a baseline",
          "[registry]") {
  for (const SchemeInfo& s : chbench::all_scheme_infos()) {
    INFO("scheme " << s.name);
    const KernelInfo& def = chbench::default_kernel(s.id);
    CHECK(def.scheme == s.id);
    CHECK_FALSE(def.baseline);
    std::set<int> ranks;
    for (const KernelInfo* k : chbench::kernels_of(s.id)) {
      INFO("kernel " << k->full_name() << ", rank " << k->rank);
      CHECK(ranks.insert(k->rank).second);
      CHECK(k->rank >= def.rank);
      if (k != &def) CHECK(k->rank > def.rank);
    }
  }
  // Facts among today's kernels, as measured, that a kernel added later does
  // not change: the bucket index is the fastest of them (the lab's default
  // once named an Eytzinger kernel, 5 to 30 times slower), and the two slow
  // ring searches are baselines.
  const auto rank = [](const char* name) { return chbench::find_kernel(name).rank; };
  for (const char* slower : {"ring/stree", "ring/eytzinger", "ring/simd_eytzinger",
                             "ring/branchless", "ring/lower_bound", "ring/simd_branchless"})
    CHECK(rank("ring/bucketed") < rank(slower));
  CHECK(chbench::find_kernel("ring/lower_bound").baseline);
  CHECK(chbench::find_kernel("ring/simd_branchless").baseline);
  CHECK_FALSE(chbench::find_kernel("ring/bucketed").baseline);
  CHECK_FALSE(chbench::find_kernel("ring/eytzinger").baseline);
}

TEST_CASE("registry: every rendezvous kernel over a node list's seeds places keys as from it",
          "[registry][hrw]") {
  // make_over_seeds is how the tests and the fuzzer reach seeds no node list
  // yields (repeated, equal); over rendezvous_seeds(nodes) it must be the
  // kernel make(nodes) builds.
  std::mt19937_64 rng(kSeed + 83);
  std::size_t kernels = 0;
  for (const KernelInfo* k : chbench::kernels_of(Scheme::kRendezvous)) {
    INFO("kernel " << k->full_name());
    REQUIRE(k->make_over_seeds != nullptr);
    ++kernels;
    for (uint32_t n : {1u, 2u, 7u, 130u, 513u}) {
      INFO("N = " << n);
      const NodeSet nodes = chbench::default_nodes(n);
      const auto keys = keys_for(nodes, 2000, rng);
      const auto seeds = chbench::rendezvous_seeds(nodes);
      const auto want = owners_of(*k->build(nodes), keys);
      CHECK(first_mismatch<uint64_t>(keys, want, owners_of(*k->make_over_seeds(seeds), keys)) ==
            "");
    }
    CHECK_THROWS_AS(k->make_over_seeds(std::span<const uint64_t>()), std::invalid_argument);
  }
  CHECK(kernels >= 1);
}

TEST_CASE("registry: knobs refuse values outside their range, and every sweep value works",
          "[registry][knob]") {
  std::mt19937_64 rng(kSeed + 81);
  const NodeSet nodes = chbench::default_nodes(40, 25);  // 1,000 tokens
  const auto keys = keys_for(nodes, 2000, rng);
  const auto ring = chbench::SortedRing<uint64_t>::from_entries(chbench::ring_entries(nodes));
  std::size_t knobs = 0;
  for (const KernelInfo* k : chbench_test::test_kernels()) {
    INFO("kernel " << k->full_name());
    const auto want = owners_of(*chbench::build_reference(k->scheme, nodes), keys);
    const auto works = [&](unsigned value) {
      INFO("knob " << value);
      CHECK(first_mismatch<uint64_t>(keys, want, owners_of(*k->build(nodes, value), keys)) == "");
      if (k->make_over_ring)
        CHECK(first_mismatch<uint64_t>(keys, want,
                                       owners_of(*k->make_over_ring(ring, value), keys)) == "");
    };
    const auto refused = [&](unsigned value) {
      INFO("knob " << value);
      CHECK_THROWS_AS(k->build(nodes, value), std::invalid_argument);
      CHECK_THROWS_WITH(k->build(nodes, value), Contains(k->full_name()));
      if (k->make_over_ring) {
        CHECK_THROWS_AS(k->make_over_ring(ring, value), std::invalid_argument);
        CHECK_THROWS_AS(chbench::build_ring_kernel(k->name, ring, value), std::invalid_argument);
      }
    };
    works(0);
    if (!k->knob) {
      for (unsigned value : {1u, 2u, 32u, UINT_MAX}) refused(value);
      continue;
    }
    ++knobs;
    const chbench::Knob& knob = *k->knob;
    INFO("knob '" << knob.name << "', " << knob.min << " to " << knob.max);
    CHECK(!knob.name.empty());
    CHECK(!knob.default_rule.empty());
    CHECK(knob.min >= 1);  // 0 is the default
    CHECK(knob.min <= knob.max);
    CHECK(!knob.sweep.empty());
    CHECK(std::is_sorted(knob.sweep.begin(), knob.sweep.end()));
    CHECK(std::adjacent_find(knob.sweep.begin(), knob.sweep.end()) == knob.sweep.end());
    for (unsigned value : knob.sweep) {
      CHECK(value >= knob.min);
      CHECK(value <= knob.max);
      works(value);
    }
    works(knob.min);
    works(knob.max);
    if (knob.min > 1) refused(knob.min - 1);
    refused(knob.max + 1);
    refused(UINT_MAX);
    CHECK_THROWS_WITH(k->build(nodes, knob.max + 1), Contains(std::string(knob.name)));
    CHECK_THROWS_WITH(k->build(nodes, knob.max + 1), Contains(std::to_string(knob.max)));
  }
  if (chbench_test::testing_every_kernel())
    CHECK(knobs >= 2);  // the S-tree's lockstep group and the bucket index's prefetch distance
}
