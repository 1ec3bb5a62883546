// The model of binomial for test_schemes.cc (models/model.h): BinomialHash's draws.
#include <cstdint>

#include "chbench/scheme.h"
#include "models/model.h"
#include "support.h"

namespace chbench_test {
namespace {

ModelOwner model(const chbench::NodeSet& nodes) {
  const uint32_t n = nodes.size();
  return [n](uint64_t h) { return model_binomial(h, n); };
}

const ModelRegistration registered{chbench::Scheme::kBinomial, &model};

}  // namespace
}  // namespace chbench_test
