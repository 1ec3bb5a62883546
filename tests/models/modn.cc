// The model of modn for test_schemes.cc (models/model.h): h % N.
#include <cstdint>

#include "chbench/scheme.h"
#include "models/model.h"

namespace chbench_test {
namespace {

ModelOwner model(const chbench::NodeSet& nodes) {
  const uint32_t n = nodes.size();
  return [n](uint64_t h) { return static_cast<uint32_t>(h % n); };
}

const ModelRegistration registered{chbench::Scheme::kModN, &model};

}  // namespace
}  // namespace chbench_test
