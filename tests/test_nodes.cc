// Node lists and the errors docs/spec.md §4 requires: bad input is a
// std::invalid_argument with a message, never UB (the registry's own tests,
// check() against the references included, are in test_registry.cc).
#include <catch2/catch.hpp>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "chbench/nodes.h"
#include "chbench/ring/ring.h"
#include "chbench/scheme.h"
#include "support.h"

using Catch::Matchers::Contains;
using chbench::NodeSet;

namespace {

// Node lists every scheme must refuse, with a word the message must contain.
struct BadNodes {
  const char* what;
  NodeSet nodes;
  const char* message_has;
};

std::vector<BadNodes> bad_node_sets() {
  return {
      {"empty list", NodeSet{{}, 1}, "empty"},
      {"empty list, V = 5", NodeSet{{}, 5}, "empty"},
      {"V = 0", NodeSet{{"a", "b"}, 0}, "V = 0"},
      {"duplicate names", NodeSet{{"a", "b", "a"}, 3}, "'a'"},
      {"duplicate names, adjacent", NodeSet{{"x", "node-1", "node-1"}, 1}, "duplicate"},
      {"empty name", NodeSet{{"a", ""}, 1}, "empty name"},
      {"empty name first", NodeSet{{"", "b"}, 1}, "node 0"},
  };
}

}  // namespace

TEST_CASE("validate accepts good node lists and rejects bad ones", "[nodes][errors]") {
  CHECK_NOTHROW(chbench::validate(NodeSet{{"a"}, 1}));
  CHECK_NOTHROW(chbench::validate(NodeSet{{"a", "b", "c"}, 1000}));
  // Names are byte strings: case matters, and a NUL is just a byte.
  CHECK_NOTHROW(chbench::validate(NodeSet{{"a", "A", std::string("a\0", 2)}, 1}));

  for (const auto& bad : bad_node_sets()) {
    INFO(bad.what);
    CHECK_THROWS_AS(chbench::validate(bad.nodes), std::invalid_argument);
    CHECK_THROWS_WITH(chbench::validate(bad.nodes), Contains(bad.message_has));
  }
}

TEST_CASE("default_nodes names node-0 ... node-(n-1) and rejects n = 0 or V = 0",
          "[nodes][errors]") {
  const NodeSet nodes = chbench::default_nodes(12, 7);
  REQUIRE(nodes.size() == 12);
  CHECK(nodes.vnodes == 7);
  CHECK(nodes.names.front() == "node-0");
  CHECK(nodes.names[10] == "node-10");
  CHECK(nodes.names.back() == "node-11");
  CHECK(chbench::default_nodes(1).vnodes == 1);
  CHECK_NOTHROW(chbench::validate(nodes));

  CHECK_THROWS_AS(chbench::default_nodes(0), std::invalid_argument);
  CHECK_THROWS_AS(chbench::default_nodes(0, 3), std::invalid_argument);
  CHECK_THROWS_AS(chbench::default_nodes(3, 0), std::invalid_argument);
  CHECK_THROWS_WITH(chbench::default_nodes(3, 0), Contains("V = 0"));
}

TEST_CASE("every kernel and every reference refuses a bad node list", "[registry][errors]") {
  for (const auto& bad : bad_node_sets()) {
    INFO(bad.what);
    for (const chbench::KernelInfo* k : chbench_test::test_kernels()) {
      INFO(k->full_name());
      CHECK_THROWS_AS(k->build(bad.nodes), std::invalid_argument);
      CHECK_THROWS_AS(k->scheme_info().check(bad.nodes), std::invalid_argument);
    }
    for (chbench::Scheme s : chbench::all_schemes()) {
      INFO("reference of " << chbench::scheme_name(s));
      CHECK_THROWS_AS(chbench::build_reference(s, bad.nodes), std::invalid_argument);
    }
  }
  // The empty node set itself, NodeSet{} (N = 0).
  for (const chbench::KernelInfo* k : chbench_test::test_kernels()) {
    INFO(k->full_name());
    CHECK_THROWS_AS(k->build(NodeSet{}), std::invalid_argument);
  }
}

TEST_CASE("a ring of more than 2^32 - 1 tokens is refused before it is built", "[ring][errors]") {
  // 2 * 2^31 = 2^32 tokens: one too many. Must fail fast, not allocate 64 GiB.
  const NodeSet nodes{{"a", "b"}, 0x80000000u};
  CHECK_NOTHROW(chbench::validate(nodes));
  CHECK_THROWS_AS(chbench::ring_entries(nodes), std::length_error);
  CHECK_THROWS_AS(chbench::build_reference(chbench::Scheme::kRing, nodes), std::length_error);
  for (const auto* k : chbench_test::test_kernels_of(chbench::Scheme::kRing)) {
    INFO(k->full_name());
    CHECK_THROWS_AS(k->build(nodes), std::length_error);
  }
}
