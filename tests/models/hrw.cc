// The model of hrw for test_schemes.cc (models/model.h): the highest score, each node's seed its
// name's XXH3.
#include <cstdint>

#include "chbench/scheme.h"
#include "models/model.h"
#include "support.h"

namespace chbench_test {
namespace {

ModelOwner model(const chbench::NodeSet& nodes) {
  return [seeds = model_seeds(nodes)](uint64_t h) { return model_hrw_owner(seeds, h); };
}

const ModelRegistration registered{chbench::Scheme::kRendezvous, &model};

}  // namespace
}  // namespace chbench_test
