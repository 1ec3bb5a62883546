// The model of flip for test_schemes.cc (models/model.h): FlipHash's draws.
#include <cstdint>

#include "chbench/scheme.h"
#include "flip_model.h"
#include "models/model.h"

namespace chbench_test {
namespace {

ModelOwner model(const chbench::NodeSet& nodes) {
  const uint32_t n = nodes.size();
  return [n](uint64_t h) { return model_flip(h, n); };
}

const ModelRegistration registered{chbench::Scheme::kFlip, &model};

}  // namespace
}  // namespace chbench_test
