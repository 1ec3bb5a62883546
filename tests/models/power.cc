// The model of power for test_schemes.cc (models/model.h): the library's power_hash (the crate's
// own rows: tests/test_power_vectors.cc).
#include "chbench/power/power.h"

#include <cstdint>

#include "chbench/scheme.h"
#include "models/model.h"

namespace chbench_test {
namespace {

ModelOwner model(const chbench::NodeSet& nodes) {
  const auto buckets = chbench::power_buckets(nodes.size());
  return [buckets](uint64_t h) { return chbench::power_hash(h, buckets); };
}

const ModelRegistration registered{chbench::Scheme::kPower, &model};

}  // namespace
}  // namespace chbench_test
