// The schemes' independent models for the tests: each scheme's owners
// computed here from docs/spec.md's formulas (or the scheme's document) on XXH3,
// apart from the library's code. One file per scheme, tests/models/<scheme>.cc,
// registers its model; test_schemes.cc checks every reference and kernel
// against the models registered (a scheme without one is only checked
// against its reference).
#pragma once

#include <cstdint>
#include <functional>

#include "chbench/nodes.h"
#include "chbench/scheme.h"

namespace chbench_test {

// The model's owner of key hash h for one node list (tables it needs built
// once, captured).
using ModelOwner = std::function<uint32_t(uint64_t h)>;

// A scheme's model: the owner function for a node list (N nodes, V, M, k as
// the NodeSet gives them).
using SchemeModel = ModelOwner (*)(const chbench::NodeSet& nodes);

// Registers `model` as the model of `scheme`, from a static object of the
// scheme's file: `const ModelRegistration registered{Scheme::kRing, &model};`.
// A second model of one scheme stops the run (std::abort) naming it.
struct ModelRegistration {
  ModelRegistration(chbench::Scheme scheme, SchemeModel model);
};

// The model registered for `scheme`, or nullptr when none is.
SchemeModel model_of(chbench::Scheme scheme);

}  // namespace chbench_test
