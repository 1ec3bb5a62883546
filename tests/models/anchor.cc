// The model of anchor for test_schemes.cc (models/model.h): AnchorHash, no bucket removed.
#include <cstdint>

#include "anchor_model.h"
#include "chbench/scheme.h"
#include "models/model.h"

namespace chbench_test {
namespace {

ModelOwner model(const chbench::NodeSet& nodes) {
  const uint32_t n = nodes.size();
  return [n](uint64_t h) { return model_anchor(h, n); };
}

const ModelRegistration registered{chbench::Scheme::kAnchor, &model};

}  // namespace
}  // namespace chbench_test
