// The model of maglev for test_schemes.cc (models/model.h): the lookup table the permutations fill,
// entry h mod M.
#include <cstdint>

#include "chbench/scheme.h"
#include "models/model.h"
#include "support.h"

namespace chbench_test {
namespace {

ModelOwner model(const chbench::NodeSet& nodes) {
  return [table = model_maglev_table(nodes)](uint64_t h) { return table[h % table.size()]; };
}

const ModelRegistration registered{chbench::Scheme::kMaglev, &model};

}  // namespace
}  // namespace chbench_test
