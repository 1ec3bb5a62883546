// The registry (scheme.h) and the fleet (fleet.h): what each scheme and each
// kernel says it is, checked against what it does. Every loop runs over
// all_scheme_infos() and all_kernels(), so a scheme or kernel added later is
// checked without an edit here; the few names below are fixtures that pin
// facts callers once worked out from names, each its own way (which kernels
// are SIMD, what each is compared with, the ring's default).
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
using chbench::Fleet;
using chbench::FleetChange;
using chbench::KernelInfo;
using chbench::NodeSet;
using chbench::Scheme;
using chbench::SchemeInfo;
using chbench_test::first_mismatch;
using chbench_test::kSeed;
using chbench_test::owners_of;

namespace {

// What a call did: "" when it returned, else the exception's type and message.
struct Outcome {
  std::string type, message;
  friend bool operator==(const Outcome&, const Outcome&) = default;
};

std::ostream& operator<<(std::ostream& os, const Outcome& o) {
  return os << (o.type.empty() ? "returned" : o.type + ": " + o.message);
}

template <class F>
Outcome outcome_of(const F& f) {
  try {
    f();
    return {};
  } catch (const std::length_error& e) {
    return {"std::length_error", e.what()};
  } catch (const std::invalid_argument& e) {
    return {"std::invalid_argument", e.what()};
  } catch (const std::bad_alloc& e) {
    return {"std::bad_alloc", e.what()};
  }
}

// The boundary keys of the fleet's ring (its tokens and their neighbours, 0,
// UINT64_MAX) and `random` uniform keys: enough to tell two placements apart.
std::vector<uint64_t> keys_for(const NodeSet& nodes, std::size_t random, std::mt19937_64& rng) {
  auto keys = chbench_test::boundary_keys<uint64_t>(chbench::ring_entries(nodes), 1000, rng);
  chbench_test::append_random(keys, random, rng);
  return keys;
}

// The owners' names, so that placements over different node lists compare.
std::vector<std::string> owner_names(const chbench::OwnerTable& table, const NodeSet& nodes,
                                     std::span<const uint64_t> keys) {
  std::vector<std::string> names;
  for (uint32_t o : owners_of(table, keys)) names.push_back(nodes.names.at(o));
  return names;
}

std::size_t scheme_position(Scheme s) {
  const auto infos = chbench::all_scheme_infos();
  for (std::size_t i = 0; i < infos.size(); ++i)
    if (infos[i].id == s) return i;
  return infos.size();
}

}  // namespace

// ---- schemes ---------------------------------------------------------------------

TEST_CASE("registry: every scheme has one entry, in the order of all_schemes()", "[registry]") {
  const auto infos = chbench::all_scheme_infos();
  const auto schemes = chbench::all_schemes();
  REQUIRE(infos.size() == schemes.size());
  std::set<std::string_view> names;
  for (std::size_t i = 0; i < infos.size(); ++i) {
    const SchemeInfo& s = infos[i];
    INFO("scheme " << s.name);
    CHECK(s.id == schemes[i]);
    CHECK(&chbench::scheme_info(s.id) == &s);
    CHECK(chbench::scheme_name(s.id) == s.name);
    CHECK(!s.title.empty());
    CHECK(!s.source.empty());
    CHECK(!s.removal_note.empty());
    CHECK(s.max_nodes >= 1);
    CHECK(s.max_nodes <= 0xffffffffu);  // owners are uint32_t
    CHECK(s.reference != nullptr);
    CHECK(s.check != nullptr);
    CHECK(s.reference_bytes != nullptr);
    CHECK((s.params &
           ~unsigned{chbench::kParamVnodes | chbench::kParamTableSize | chbench::kParamWeights |
                     chbench::kParamCapacity | chbench::kParamProbes}) == 0);
    CHECK(names.insert(s.name).second);
    for (auto alias : s.aliases) CHECK(names.insert(alias).second);  // no name is taken twice
  }
  // The order of the plots and tables (schemes added later come after these),
  // and what each scheme reads.
  const Scheme first[] = {Scheme::kModN, Scheme::kRing, Scheme::kRendezvous, Scheme::kJump,
                          Scheme::kMaglev};
  REQUIRE(infos.size() >= std::size(first));
  for (std::size_t i = 0; i < std::size(first); ++i) CHECK(infos[i].id == first[i]);
  CHECK(chbench::scheme_info(Scheme::kRendezvous).name == "hrw");
  CHECK(chbench::scheme_info(Scheme::kRing).takes(chbench::kParamVnodes));
  CHECK(chbench::scheme_info(Scheme::kMaglev).takes(chbench::kParamTableSize));
  CHECK(chbench::scheme_info(Scheme::kJump).max_nodes == chbench::kJumpMaxBuckets);
  CHECK(chbench::scheme_info(Scheme::kMaglev).max_nodes <= chbench::kMaglevMaxTableSize);
  CHECK(chbench::scheme_info(Scheme::kJump).removal == chbench::Removal::kLastOnly);
  CHECK(chbench::scheme_info(Scheme::kModN).removal == chbench::Removal::kNone);
}

TEST_CASE("registry: each scheme's entry is its kernels.def line's, at its enumerator",
          "[registry]") {
  // The scheme lines, expanded here as scheme.h expands them for the enum.
#define CHBENCH_SCHEME(scheme, enumerator) \
  std::pair{std::string_view(#scheme), Scheme::k##enumerator},
  const std::pair<std::string_view, Scheme> lines[] = {
#include "chbench/kernels.def"
  };
  const auto infos = chbench::all_scheme_infos();
  REQUIRE(infos.size() == std::size(lines));
  for (std::size_t i = 0; i < infos.size(); ++i) {
    INFO("kernels.def's scheme line " << i << ": " << lines[i].first);
    CHECK(infos[i].name == lines[i].first);
    CHECK(infos[i].id == lines[i].second);
    CHECK(static_cast<std::size_t>(infos[i].id) == i);
  }
}

TEST_CASE("registry: kParams names every parameter a scheme reads, once", "[registry]") {
  unsigned named = 0;
  std::set<std::string_view> names;
  for (const chbench::ParamInfo& p : chbench::kParams) {
    INFO("parameter " << p.name);
    CHECK(std::popcount(static_cast<unsigned>(p.param)) == 1);
    CHECK((named & p.param) == 0);
    CHECK(names.insert(p.name).second);
    named |= p.param;
  }
  for (const SchemeInfo& s : chbench::all_scheme_infos()) {
    INFO("scheme " << s.name);
    CHECK((s.params & ~named) == 0);
  }
  CHECK(names ==
        std::set<std::string_view>{"vnodes", "table_size", "weights", "capacity", "probes"});
  CHECK(chbench::scheme_info(Scheme::kMultiprobe).takes(chbench::kParamProbes));
  CHECK(chbench::scheme_info(Scheme::kAnchor).takes(chbench::kParamCapacity));
}

TEST_CASE("registry: the stream floor is ring/stream, apart from the kernels", "[registry]") {
  const KernelInfo& floor = chbench::stream_floor();
  CHECK(floor.full_name() == "ring/stream");
  CHECK(floor.rank == -1);
  CHECK(floor.rival == nullptr);
  CHECK_FALSE(floor.simd);
  const auto all = chbench::all_kernels();
  CHECK(std::find(all.begin(), all.end(), &floor) == all.end());
  CHECK_THROWS_AS(chbench::find_kernel("ring/stream"), std::invalid_argument);
  const auto table = floor.build(chbench::default_nodes(3));
  const std::vector<uint64_t> keys = {0, 7, 0x1234567800000009u, UINT64_MAX};
  CHECK(owners_of(*table, keys) == std::vector<uint32_t>{0, 7, 9, 0xffffffffu});
  CHECK(table->memory_bytes() == 0);
  CHECK(floor.table_bytes(chbench::default_nodes(3)) == 0);
  CHECK_THROWS_AS(floor.build(chbench::default_nodes(3), 1), std::invalid_argument);
}

TEST_CASE("registry: parse_scheme takes names and aliases, and lists the schemes otherwise",
          "[registry][errors]") {
  for (const SchemeInfo& s : chbench::all_scheme_infos()) {
    INFO("scheme " << s.name);
    CHECK(chbench::parse_scheme(s.name) == s.id);
    for (auto alias : s.aliases) CHECK(chbench::parse_scheme(alias) == s.id);
  }
  CHECK(chbench::parse_scheme("rendezvous") == Scheme::kRendezvous);
  for (const char* unknown :
       {"", "anchorhash", "RING", "ring ", "mod-n", "ketama", "ring/eytzinger"}) {
    INFO("'" << unknown << "'");
    CHECK_THROWS_AS(chbench::parse_scheme(unknown), std::invalid_argument);
    CHECK_THROWS_WITH(chbench::parse_scheme(unknown),
                      Contains("unknown scheme '" + std::string(unknown) + "'"));
    for (const SchemeInfo& s : chbench::all_scheme_infos())
      CHECK_THROWS_WITH(chbench::parse_scheme(unknown), Contains(std::string(s.name)));
  }
}

TEST_CASE("registry: a scheme reads only the parameters it says it takes", "[registry]") {
  // V, M, k and the weights changed one at a time: a scheme that does not take
  // the parameter places every key as before, one that takes it moves some.
  std::mt19937_64 rng(kSeed + 80);
  const NodeSet base{chbench::default_nodes(12, 4).names, 4, 4093};
  const auto keys = keys_for(base, 3000, rng);
  NodeSet more_vnodes = base, other_size = base, fewer_probes = base, weighted = base;
  more_vnodes.vnodes = 9;
  other_size.table_size = 65537;
  fewer_probes.probes = 3;
  weighted.weights = {1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3};
  for (const SchemeInfo& s : chbench::all_scheme_infos()) {
    INFO("scheme " << s.name);
    const auto before = owners_of(*s.reference(base), keys);
    const auto v = owners_of(*s.reference(more_vnodes), keys);
    const auto m = owners_of(*s.reference(other_size), keys);
    const auto p = owners_of(*s.reference(fewer_probes), keys);
    CHECK((v != before) == s.takes(chbench::kParamVnodes));
    CHECK((m != before) == s.takes(chbench::kParamTableSize));
    const auto w = owners_of(*s.reference(weighted), keys);
    CHECK((w != before) == s.takes(chbench::kParamWeights));
    CHECK((p != before) == s.takes(chbench::kParamProbes));
    for (const KernelInfo* k : chbench::kernels_of(s.id)) {
      INFO("kernel " << k->full_name());
      CHECK(first_mismatch<uint64_t>(keys, v, owners_of(*k->build(more_vnodes), keys)) == "");
      CHECK(first_mismatch<uint64_t>(keys, m, owners_of(*k->build(other_size), keys)) == "");
      CHECK(first_mismatch<uint64_t>(keys, w, owners_of(*k->build(weighted), keys)) == "");
      CHECK(first_mismatch<uint64_t>(keys, p, owners_of(*k->build(fewer_probes), keys)) == "");
    }
  }
}

TEST_CASE("registry: removal says which leaves keep the survivors' keys in place", "[registry]") {
  // The keys that move between two survivors when one node leaves: none for
  // a ring or rendezvous, a few for Maglev (kAnyNode), none for jump's last
  // bucket but many for any other (kLastOnly), many for mod-N (kNone).
  const NodeSet nodes = chbench::default_nodes(20, 40);
  const auto keys = chbench::default_key_hashes(20'000);
  for (const SchemeInfo& s : chbench::all_scheme_infos()) {
    const auto before = owner_names(*s.reference(nodes), nodes, keys);
    for (const std::string& gone : {nodes.names[7], nodes.names.back()}) {
      Fleet fleet(nodes);
      fleet.leave(gone);
      const auto after = owner_names(*s.reference(fleet), fleet.nodes(), keys);
      std::size_t moved = 0;
      for (std::size_t i = 0; i < keys.size(); ++i)
        moved += before[i] != gone && after[i] != before[i];
      INFO("scheme " << s.name << ", " << gone << " leaves: " << moved << " of " << keys.size()
                     << " keys move between survivors");
      const bool last = gone == nodes.names.back();
      switch (s.removal) {
        case chbench::Removal::kAnyNode:
          CHECK(moved <= keys.size() / 50);
          if (s.id == Scheme::kRing || s.id == Scheme::kRendezvous) CHECK(moved == 0);
          break;
        case chbench::Removal::kLastOnly:
          CHECK((last ? moved == 0 : moved > keys.size() / 4));
          break;
        case chbench::Removal::kNone:
          CHECK(moved > keys.size() / 4);
          break;
      }
    }
  }
}

namespace {

// Fleets, good and bad, for every scheme: check() and the reference must agree
// on each (a scheme that ignores V or M accepts the rows about them).
struct FleetCase {
  const char* what;
  NodeSet nodes;
};

std::vector<FleetCase> fleet_cases() {
  const auto names = [](uint32_t n) { return chbench::default_nodes(n).names; };
  return {
      {"N = 0", NodeSet{{}, 1}},
      {"N = 0, V = 3", NodeSet{{}, 3}},
      {"duplicate names", NodeSet{{"a", "b", "a"}, 2}},
      {"an empty name", NodeSet{{"a", ""}, 1}},
      {"V = 0", NodeSet{{"a", "b"}, 0}},
      {"2^32 ring tokens (2 x 2^31)", NodeSet{{"a", "b"}, 0x80000000u}},
      {"2^32 ring tokens (4 x 2^30)", NodeSet{{"a", "b", "c", "d"}, 0x40000000u}},
      {"M = 0", NodeSet{names(3), 1, 0}},
      {"M = 1", NodeSet{names(1), 1, 1}},
      {"M = 4, not prime", NodeSet{names(3), 1, 4}},
      {"M = 65536, not prime", NodeSet{names(3), 1, 65536}},
      {"M = 2 below N = 3", NodeSet{names(3), 1, 2}},
      {"M = 2^32 - 5, prime above the maximum", NodeSet{names(3), 1, 4294967291u}},
      {"M = 3 = N", NodeSet{names(3), 2, 3}},
      {"M = 2, N = 1", NodeSet{names(1), 1, 2}},
      {"N = 1", NodeSet{names(1), 1}},
      {"N = 5, V = 7, names with NUL and '#'",
       NodeSet{{"a", "#", std::string("\0b", 2), "a#0", "\xc3\xa9"}, 7, 251}},
  };
}

}  // namespace

TEST_CASE("registry: check() refuses exactly the fleets the reference refuses, with its message",
          "[registry][errors]") {
  for (const FleetCase& c : fleet_cases()) {
    INFO(c.what);
    for (const SchemeInfo& s : chbench::all_scheme_infos()) {
      INFO("scheme " << s.name);
      const Fleet fleet(c.nodes);
      const Outcome checked = outcome_of([&] { s.check(fleet); });
      const Outcome built = outcome_of([&] { s.reference(fleet); });
      CHECK(checked == built);
      CHECK(checked.message.find('\n') == std::string::npos);  // one line
      CHECK(checked.type != "std::bad_alloc");
      for (const KernelInfo* k : chbench::kernels_of(s.id)) {
        INFO("kernel " << k->full_name());
        CHECK(outcome_of([&] { k->build(fleet); }).type == checked.type);
      }
    }
  }
  // The rows whose outcome depends on the scheme, stated.
  const SchemeInfo& ring = chbench::scheme_info(Scheme::kRing);
  const SchemeInfo& maglev = chbench::scheme_info(Scheme::kMaglev);
  CHECK_THROWS_AS(ring.check(NodeSet{{"a", "b"}, 0x80000000u}), std::length_error);
  CHECK_THROWS_WITH(ring.check(NodeSet{{"a", "b"}, 0x80000000u}),
                    Contains("4294967296 tokens exceeds the 2^32 - 1"));
  CHECK_THROWS_WITH(maglev.check(NodeSet{{"a", "b", "c"}, 1, 4}), Contains("prime"));
  CHECK_THROWS_WITH(maglev.check(NodeSet{{"a", "b", "c"}, 1, 2}), Contains("below the 3 nodes"));
  CHECK_NOTHROW(chbench::scheme_info(Scheme::kJump).check(NodeSet{{"a", "b"}, 0x80000000u}));
  for (const SchemeInfo& s : chbench::all_scheme_infos()) {
    INFO("scheme " << s.name);
    CHECK_THROWS_WITH(s.check(NodeSet{}), Contains("N = 0"));
    CHECK_THROWS_WITH(s.check(NodeSet{{"a", "b"}, 0}), Contains("V = 0"));
    CHECK_THROWS_WITH(s.check(NodeSet{{"a", "b", "a"}, 1}), Contains("duplicate node name 'a'"));
  }
}

TEST_CASE("registry: check() and the memory estimates never build the table",
          "[registry][memory]") {
  // Fleets whose tables would take tens of GiB: check() answers at once (an
  // allocation of that size would fail or abort the test), and the estimates
  // count what building would take.
  const auto& ring = chbench::scheme_info(Scheme::kRing);
  const NodeSet too_many{{"a", "b"}, 0x80000000u};           // 2^32 tokens, one too many
  CHECK_THROWS_AS(ring.check(too_many), std::length_error);  // the kernels: test_nodes.cc
  const NodeSet largest{{"a"}, 0xffffffffu};  // 2^32 - 1 tokens: the most a ring indexes
  CHECK_NOTHROW(ring.check(largest));
  const uint64_t tokens = 0xffffffffu;
  CHECK(ring.reference_bytes(largest) == tokens * sizeof(chbench::RingEntry<uint64_t>));
  for (const KernelInfo* k : chbench::kernels_of(Scheme::kRing)) {
    INFO("kernel " << k->full_name());
    // The sorted entries and the SortedRing are alive while any layout is built.
    CHECK(k->table_bytes(largest) >= tokens * (16 + 12));
  }
  const auto& maglev = chbench::scheme_info(Scheme::kMaglev);
  const NodeSet widest{{"a", "b"}, 1, chbench::kMaglevMaxTableSize};  // 2^31 - 1 is prime
  CHECK_NOTHROW(maglev.check(widest));
  CHECK(maglev.reference_bytes(widest) >= uint64_t{chbench::kMaglevMaxTableSize} * 4);
  for (const KernelInfo* k : chbench::kernels_of(Scheme::kMaglev))
    CHECK(k->table_bytes(widest) >= uint64_t{chbench::kMaglevMaxTableSize} * 4);
}

TEST_CASE("registry: memory estimates bound what the built tables hold", "[registry][memory]") {
  // table_bytes is a peak estimate (what building takes, with the table), so
  // it is at least the table's own memory_bytes; reference_bytes likewise.
  // Ring sizes around the bucket index's 4 MiB step (65,536 tokens) included.
  struct Case {
    uint32_t n, v, m;
  };
  for (const Case& c : {Case{1, 1, 2}, Case{2, 1, 3}, Case{3, 7, 251}, Case{5, 200, 4093},
                        Case{64, 1024, 65537}, Case{1, 65537, 65537}, Case{1000, 100, 65537}}) {
    const NodeSet nodes{chbench::default_nodes(c.n).names, c.v, c.m};
    INFO("N = " << c.n << ", V = " << c.v << ", M = " << c.m);
    for (const SchemeInfo& s : chbench::all_scheme_infos()) {
      INFO("reference of " << s.name);
      CHECK(s.reference_bytes(nodes) >= s.reference(nodes)->memory_bytes());
    }
    for (const KernelInfo* k : chbench_test::test_kernels()) {
      const uint64_t estimate = k->table_bytes(nodes);
      const std::size_t held = k->build(nodes)->memory_bytes();
      INFO("kernel " << k->full_name() << ": estimate " << estimate << " B, table " << held
                     << " B");
      CHECK(estimate >= held);
    }
  }
}

// ---- kernels ---------------------------------------------------------------------

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

// ---- fleets ----------------------------------------------------------------------

TEST_CASE("fleet: joins and leaves, with their history", "[fleet]") {
  NodeSet start = chbench::default_nodes(4, 7);
  start.table_size = 251;
  Fleet fleet(start);
  CHECK(fleet.nodes().names == start.names);
  CHECK(fleet.size() == 4);
  CHECK(fleet.initial() == start.names);
  CHECK(fleet.history().empty());
  CHECK(fleet.removed().empty());

  fleet.join("e").leave("node-1");
  fleet.apply({FleetChange::Kind::kJoin, "f"});
  fleet.apply({FleetChange::Kind::kLeave, "node-3"});
  fleet.leave("e");
  CHECK(fleet.nodes().names == std::vector<std::string>{"node-0", "node-2", "f"});
  CHECK(fleet.size() == 3);
  CHECK(fleet.nodes().vnodes == 7);  // the parameters stay
  CHECK(fleet.nodes().table_size == 251);
  CHECK(fleet.initial() == start.names);
  using K = FleetChange::Kind;
  const std::vector<FleetChange> history = {{K::kJoin, "e"},
                                            {K::kLeave, "node-1"},
                                            {K::kJoin, "f"},
                                            {K::kLeave, "node-3"},
                                            {K::kLeave, "e"}};
  CHECK(std::vector<FleetChange>(fleet.history().begin(), fleet.history().end()) == history);
  CHECK(fleet.removed() == std::vector<std::string>{"node-1", "node-3", "e"});
  // A node that comes back is no longer removed, and joins at the end.
  fleet.join("node-1");
  CHECK(fleet.removed() == std::vector<std::string>{"node-3", "e"});
  CHECK(fleet.nodes().names.back() == "node-1");
  CHECK(fleet.history().size() == 6);

  // Leaving by a name that lives in the fleet's own list (a view of it).
  const std::string first = fleet.nodes().names.front();
  fleet.leave(fleet.nodes().names.front());
  CHECK(fleet.history().back() == FleetChange{K::kLeave, first});
  CHECK(fleet.removed().back() == first);
  const std::string long_name(100, 'x');  // not in a short-string buffer
  fleet.join(long_name);
  fleet.leave(fleet.nodes().names.back());
  CHECK(fleet.history().back() == FleetChange{K::kLeave, long_name});
  CHECK(fleet.nodes().names == std::vector<std::string>{"node-2", "f", "node-1"});

  // A default fleet is empty, and a NodeSet converts to a fleet without history.
  CHECK(Fleet().size() == 0);
  const Fleet implicit = start;
  CHECK(implicit.nodes().names == start.names);
  CHECK(implicit.history().empty());

  // Without history a fleet holds each name once: initial() is the current
  // list, and a moved-in NodeSet keeps its storage (no name copied).
  NodeSet big = chbench::default_nodes(1000);
  const std::string* storage = big.names.data();
  Fleet moved(std::move(big));
  CHECK(moved.nodes().names.data() == storage);
  CHECK(&moved.initial() == &moved.nodes().names);
  // The first change keeps the starting names; later ones leave them alone.
  const std::vector<std::string> before = moved.nodes().names;
  moved.leave("node-0").join("node-0");
  CHECK(moved.initial() == before);
  CHECK(&moved.initial() != &moved.nodes().names);
}

TEST_CASE("fleet: bad changes are refused and change nothing", "[fleet][errors]") {
  Fleet fleet(chbench::default_nodes(2));
  fleet.join("c");
  const auto names = fleet.nodes().names;
  const auto changes = fleet.history().size();
  CHECK_THROWS_WITH(fleet.join(""), Contains("needs a name"));
  CHECK_THROWS_WITH(fleet.join("node-1"), Contains("'node-1' is already in the fleet"));
  CHECK_THROWS_WITH(fleet.apply({FleetChange::Kind::kJoin, "c"}), Contains("'c' is already"));
  CHECK_THROWS_WITH(fleet.leave("node-7"), Contains("no node 'node-7'"));
  CHECK_THROWS_WITH(fleet.leave(""), Contains("no node ''"));
  CHECK_THROWS_AS(fleet.apply({FleetChange::Kind::kLeave, "gone"}), std::invalid_argument);
  CHECK(fleet.nodes().names == names);
  CHECK(fleet.history().size() == changes);
  fleet.leave("node-0").leave("c");
  CHECK_THROWS_AS(fleet.leave("node-0"), std::invalid_argument);  // already left
  CHECK_THROWS_WITH(fleet.leave("node-1"), Contains("last one"));
  CHECK(fleet.nodes().names == std::vector<std::string>{"node-1"});
  CHECK(fleet.history().size() == changes + 2);
}

TEST_CASE("fleet: every kernel built from a changed fleet matches the reference over it",
          "[fleet][reference]") {
  // Every kernel places keys as its scheme's reference over the same changed
  // fleet. The schemes of docs/spec.md §5 to §8 and Maglev read the node list, not the
  // history: for them a fleet that got here by joins and leaves places every
  // key as a fresh fleet of the same nodes does (schemes that read the
  // history, added later, need not).
  std::mt19937_64 rng(kSeed + 82);
  Fleet fleet(NodeSet{chbench::default_nodes(30).names, 20, 4093});
  fleet.leave("node-4").join("extra-a").leave("node-29").join("node-4");
  fleet.apply({FleetChange::Kind::kLeave, "node-0"});
  fleet.apply({FleetChange::Kind::kJoin, "extra-b"});
  REQUIRE(fleet.history().size() == 6);
  const Fleet fresh(fleet.nodes());
  REQUIRE(fresh.history().empty());
  // The fixture pins which schemes read the history; every other scheme must
  // place keys from the node list alone (SchemeInfo::reads_history).
  const std::set<std::string_view> history_readers = {"anchor", "dx", "memento", "jumpback_anchor"};
  const auto keys = keys_for(fleet.nodes(), 4000, rng);
  for (const SchemeInfo& s : chbench::all_scheme_infos()) {
    INFO("scheme " << s.name);
    CHECK(s.reads_history == (history_readers.count(s.name) != 0));
    const bool history_free = !s.reads_history;
    CHECK_NOTHROW(s.check(fleet));
    const auto want = owners_of(*s.reference(fleet), keys);
    if (history_free)
      CHECK(first_mismatch<uint64_t>(keys, want, owners_of(*s.reference(fresh), keys)) == "");
    for (const KernelInfo* k : chbench_test::test_kernels_of(s.id)) {
      INFO("kernel " << k->full_name());
      CHECK(first_mismatch<uint64_t>(keys, want, owners_of(*k->build(fleet), keys)) == "");
      if (history_free) CHECK(k->table_bytes(fleet) == k->table_bytes(fresh));
    }
  }
}

TEST_CASE("fleet: a fleet of buckets places keys as the default node list of that size",
          "[fleet][reference]") {
  // The schemes that say they place by the bucket count alone build from
  // Fleet::of_buckets(N), which holds no names; every other scheme needs the
  // names and refuses it as an empty node list.
  std::mt19937_64 rng(kSeed + 83);
  CHECK_THROWS_WITH(Fleet::of_buckets(0), Contains("N = 0"));
  int bucket_schemes = 0;
  for (uint32_t n : {1u, 2u, 7u, 1000u, 65537u}) {
    const Fleet buckets = Fleet::of_buckets(n);
    const Fleet named(chbench::default_nodes(n));
    REQUIRE(buckets.size() == n);
    REQUIRE_FALSE(buckets.named());
    REQUIRE(buckets.nodes().names.empty());
    const auto keys = keys_for(named.nodes(), 2000, rng);
    for (const SchemeInfo& s : chbench::all_scheme_infos()) {
      INFO("scheme " << s.name << ", N = " << n);
      if (!s.buckets_only) {
        CHECK_THROWS_AS(s.check(buckets), std::invalid_argument);
        continue;
      }
      bucket_schemes += n == 1;
      const auto want = owners_of(*s.reference(named), keys);
      CHECK(first_mismatch<uint64_t>(keys, want, owners_of(*s.reference(buckets), keys)) == "");
      for (const KernelInfo* k : chbench_test::test_kernels_of(s.id)) {
        INFO("kernel " << k->full_name());
        CHECK(first_mismatch<uint64_t>(keys, want, owners_of(*k->build(buckets), keys)) == "");
      }
    }
  }
  CHECK(bucket_schemes >= 2);  // mod-N and jump at least
}

TEST_CASE("fleet: a fleet of buckets takes names on its first change", "[fleet]") {
  Fleet f = Fleet::of_buckets(3);
  f.leave("node-2");
  CHECK(f.named());
  CHECK(f.nodes().names == std::vector<std::string>{"node-0", "node-1"});
  CHECK(f.initial() == std::vector<std::string>{"node-0", "node-1", "node-2"});
  CHECK(f.removed() == std::vector<std::string>{"node-2"});
  f.join("node-9");
  CHECK(f.size() == 3);
  CHECK_THROWS_AS(Fleet::of_buckets(2).leave("node-7"), std::invalid_argument);
}
