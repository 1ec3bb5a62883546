// The model of jumpback_anchor for test_schemes.cc (models/model.h): no history: JumpBackHash
// (tests/test_jumpback_anchor.cc has the removals).
#include <cstdint>

#include "chbench/scheme.h"
#include "jumpback_model.h"
#include "models/model.h"

namespace chbench_test {
namespace {

ModelOwner model(const chbench::NodeSet& nodes) {
  const uint32_t n = nodes.size();
  return [n](uint64_t h) { return model_jumpback(h, n, false); };
}

const ModelRegistration registered{chbench::Scheme::kJumpBackAnchor, &model};

}  // namespace
}  // namespace chbench_test
