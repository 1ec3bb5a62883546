// The model of memento for test_schemes.cc (models/model.h): no bucket removed: jump hash
// (tests/test_memento.cc has the removals).
#include <cstdint>

#include "chbench/scheme.h"
#include "models/model.h"
#include "support.h"

namespace chbench_test {
namespace {

ModelOwner model(const chbench::NodeSet& nodes) {
  const auto n = static_cast<int32_t>(nodes.size());
  return [n](uint64_t h) { return static_cast<uint32_t>(model_jump(h, n)); };
}

const ModelRegistration registered{chbench::Scheme::kMemento, &model};

}  // namespace
}  // namespace chbench_test
