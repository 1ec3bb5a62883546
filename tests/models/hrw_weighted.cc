// The model of hrw_weighted for test_schemes.cc (models/model.h): equal weights: rendezvous
// (tests/test_hrw_weighted.cc has the weights).
#include <cstdint>

#include "chbench/scheme.h"
#include "models/model.h"
#include "support.h"

namespace chbench_test {
namespace {

ModelOwner model(const chbench::NodeSet& nodes) {
  return [seeds = model_seeds(nodes)](uint64_t h) { return model_hrw_owner(seeds, h); };
}

const ModelRegistration registered{chbench::Scheme::kWeightedRendezvous, &model};

}  // namespace
}  // namespace chbench_test
