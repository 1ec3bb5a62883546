// The registry's check() and memory estimates (scheme.h): check() refuses
// exactly the fleets the reference refuses, and neither it nor the estimates
// build a table. Every loop runs over all_scheme_infos() and all_kernels().

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
using chbench::KernelInfo;
using chbench::NodeSet;
using chbench::Scheme;
using chbench::SchemeInfo;

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
