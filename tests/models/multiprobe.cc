// The model of multiprobe for test_schemes.cc (models/model.h): one token a node, the node of the
// closest of k probes.
#include <cstdint>

#include "chbench/scheme.h"
#include "models/model.h"
#include "support.h"

namespace chbench_test {
namespace {

ModelOwner model(const chbench::NodeSet& nodes) {
  chbench::NodeSet one_token = nodes;
  one_token.vnodes = 1;
  return [circle = model_ring(one_token), k = nodes.probes](uint64_t h) {
    return model_multiprobe_owner(circle, h, k);
  };
}

const ModelRegistration registered{chbench::Scheme::kMultiprobe, &model};

}  // namespace
}  // namespace chbench_test
