// Each scheme's fastest kernel against its reference (docs/spec.md) on fleets of
// 1, 10 and 1,000 nodes: the owners of keys user:1 ... user:1000 must agree.
#include <chbench/hash.h>
#include <chbench/registry.h>

#include <cstdint>
#include <cstdio>
#include <vector>

int main() {
  std::vector<uint64_t> keys = chbench::default_key_hashes(1000);  // XXH3 of "user:i"
  std::vector<uint32_t> got(keys.size()), want(keys.size());
  int status = 0;
  for (const chbench::SchemeInfo& scheme : chbench::all_scheme_infos()) {
    for (uint32_t n : {1u, 10u, 1000u}) {
      chbench::Fleet fleet = chbench::default_nodes(n, /*vnodes=*/100);
      const chbench::KernelInfo& kernel = chbench::default_kernel(scheme.id);
      kernel.build(fleet)->owners(keys, got);
      scheme.reference(fleet)->owners(keys, want);
      std::printf("%s N=%u: user:1 on node-%u, %s the reference\n", kernel.full_name().c_str(), n,
                  got[0], got == want ? "as" : "NOT AS");
      status |= got != want;
    }
  }
  return status;
}
