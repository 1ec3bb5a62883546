// What the scheme folders define for the registry, declared from the lists in
// kernels.def: each scheme's SchemeInfo and its reference, check and
// reference-bytes functions (defined in its reference.cc) and each kernel's
// KernelInfo (registry.cc collects the entries into all_scheme_infos() and
// all_kernels()). For the library's own files: a kernel names its rival as
// &registry::<scheme>_<kernel>; callers look kernels up through scheme.h
// (find_kernel, all_kernels), never by these names.
#pragma once

#include <cstdint>
#include <memory>

#include "chbench/fleet.h"
#include "chbench/scheme.h"

namespace chbench::registry {

// registry::<scheme>_scheme: the scheme's entry; <scheme>_reference, _check
// and _reference_bytes: the functions its SchemeInfo::reference, check and
// reference_bytes name.
#define CHBENCH_SCHEME(scheme, enumerator, ...)                       \
  extern const SchemeInfo scheme##_scheme;                            \
  std::unique_ptr<OwnerTable> scheme##_reference(const Fleet& fleet); \
  void scheme##_check(const Fleet& fleet);                            \
  uint64_t scheme##_reference_bytes(const Fleet& fleet);
#include "chbench/kernels.def"
// registry::<scheme>_<kernel>: the kernel's entry, defined in its file.
#define CHBENCH_KERNEL(scheme, kernel) extern const KernelInfo scheme##_##kernel;
#include "chbench/kernels.def"

}  // namespace chbench::registry
