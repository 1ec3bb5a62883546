// What the scheme folders define for the registry, declared from the lists in
// kernels.def: each scheme's reference, check and reference-bytes functions
// (named by its SchemeInfo entry in registry.cc) and each kernel's
// KernelInfo (collected into all_kernels()). For the library's own files:
// callers look kernels up through scheme.h (find_kernel, all_kernels), never
// by these names.
#pragma once

#include <cstdint>
#include <memory>

#include "chbench/fleet.h"
#include "chbench/scheme.h"

namespace chbench::registry {

// registry::<scheme>_reference, _check and _reference_bytes: the functions of
// SchemeInfo::reference, check and reference_bytes for that scheme.
#define CHBENCH_SCHEME(scheme)                                        \
  std::unique_ptr<OwnerTable> scheme##_reference(const Fleet& fleet); \
  void scheme##_check(const Fleet& fleet);                            \
  uint64_t scheme##_reference_bytes(const Fleet& fleet);
// registry::<scheme>_<kernel>: the kernel's entry, defined in its file.
#define CHBENCH_KERNEL(scheme, kernel) extern const KernelInfo scheme##_##kernel;
#include "chbench/kernels.def"

// The replica references of the schemes that define replica sets (SchemeInfo::
// replicas_reference): ring/replicas.cc, hrw/replicas.cc.
std::unique_ptr<ReplicaTable> ring_replicas_reference(const Fleet& fleet, uint32_t r);
std::unique_ptr<ReplicaTable> hrw_replicas_reference(const Fleet& fleet, uint32_t r);

}  // namespace chbench::registry
