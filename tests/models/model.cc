#include "models/model.h"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

namespace chbench_test {

namespace {

// Filled by the static registrations, before main() runs; read afterwards.
std::map<chbench::Scheme, SchemeModel>& models() {
  static std::map<chbench::Scheme, SchemeModel> registered;
  return registered;
}

}  // namespace

ModelRegistration::ModelRegistration(chbench::Scheme scheme, SchemeModel model) {
  if (!models().emplace(scheme, model).second) {
    std::fprintf(stderr, "two models registered for scheme %s\n",
                 std::string(chbench::scheme_name(scheme)).c_str());
    std::abort();
  }
}

SchemeModel model_of(chbench::Scheme scheme) {
  const auto it = models().find(scheme);
  return it == models().end() ? nullptr : it->second;
}

}  // namespace chbench_test
