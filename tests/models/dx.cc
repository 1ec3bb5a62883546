// The model of dx for test_schemes.cc (models/model.h): DxHash's pseudo-random sequence, no bucket
// removed.
#include <cstdint>

#include "chbench/scheme.h"
#include "models/model.h"
#include "support.h"

namespace chbench_test {
namespace {

ModelOwner model(const chbench::NodeSet& nodes) {
  const uint32_t n = nodes.size();
  return [n](uint64_t h) { return model_dx(h, n); };
}

const ModelRegistration registered{chbench::Scheme::kDx, &model};

}  // namespace
}  // namespace chbench_test
