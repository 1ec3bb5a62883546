// The model of ring for test_schemes.cc (models/model.h): the node of the first token at or after
// h, the ring closing after the last.
#include <cstdint>

#include "chbench/scheme.h"
#include "models/model.h"
#include "support.h"

namespace chbench_test {
namespace {

ModelOwner model(const chbench::NodeSet& nodes) {
  return [tokens = model_ring(nodes)](uint64_t h) { return model_ring_owner(tokens, h); };
}

const ModelRegistration registered{chbench::Scheme::kRing, &model};

}  // namespace
}  // namespace chbench_test
