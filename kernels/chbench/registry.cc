// The registry: the lists of kernels.def, the schemes' entries (each defined
// in its folder's reference.cc) and the kernels' (each in its own file,
// chbench/<scheme>/<kernel>.cc), and the look-ups of scheme.h over them.
#include "chbench/registry.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "chbench/scheme.h"

namespace chbench {

namespace {

// One entry per scheme, in kernels.def's order (the order of plots and
// tables), each defined in its folder's reference.cc.
#define CHBENCH_SCHEME(scheme, enumerator, ...) &registry::scheme##_scheme,
constinit const SchemeInfo* const kSchemes[] = {
#include "chbench/kernels.def"
};

// Every kernel, in kernels.def's order.
#define CHBENCH_KERNEL(scheme, kernel) &registry::scheme##_##kernel,
constinit const KernelInfo* const kKernels[] = {
#include "chbench/kernels.def"
};

// Every scheme names a kernel (default_kernel() relies on it).
#define CHBENCH_SCHEME(scheme, enumerator, ...) \
  static_assert(sizeof(#__VA_ARGS__) > 1, "kernels.def: the scheme " #scheme " names no kernel");
#include "chbench/kernels.def"

// The entries by value, for all_scheme_infos()'s span: copied on first use
// from the folders' entries, which are constant-initialized (constinit), so
// complete before any code runs.
std::span<const SchemeInfo> scheme_entries() noexcept {
  static const auto entries = [] {
    std::array<SchemeInfo, std::size(kSchemes)> out{};
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = *kSchemes[i];
    return out;
  }();
  return entries;
}

}  // namespace

std::span<const SchemeInfo> all_scheme_infos() noexcept { return scheme_entries(); }

// Scheme's enumerators are kernels.def's scheme lines in order, so an
// enumerator is its entry's index (tests/test_registry.cc checks each
// entry's id).
const SchemeInfo& scheme_info(Scheme scheme) noexcept {
  return scheme_entries()[static_cast<std::size_t>(scheme)];
}

std::string_view scheme_name(Scheme scheme) noexcept { return scheme_info(scheme).name; }

std::vector<Scheme> all_schemes() {
  std::vector<Scheme> out;
  for (const auto& s : all_scheme_infos()) out.push_back(s.id);
  return out;
}

Scheme parse_scheme(std::string_view name) {
  std::string known;
  for (const auto& s : all_scheme_infos()) {
    if (s.name == name || std::find(s.aliases.begin(), s.aliases.end(), name) != s.aliases.end())
      return s.id;
    known += (known.empty() ? "" : ", ") + std::string(s.name);
  }
  throw std::invalid_argument("unknown scheme '" + std::string(name) + "' (known: " + known + ")");
}

std::string KernelInfo::full_name() const {
  return std::string(scheme_name(scheme)) + "/" + std::string(name);
}

std::span<const KernelInfo* const> all_kernels() noexcept { return kKernels; }

std::span<const KernelInfo* const> floor_kernels() noexcept {
  static const KernelInfo* const floors[] = {&stream_floor(), &compute_floor(),
                                             &random_read_floor()};
  return floors;
}

std::vector<const KernelInfo*> kernels_of(Scheme scheme) {
  std::vector<const KernelInfo*> out;
  for (const KernelInfo* k : kKernels)
    if (k->scheme == scheme) out.push_back(k);
  return out;
}

const KernelInfo& default_kernel(Scheme scheme) noexcept {
  const KernelInfo* best = nullptr;
  for (const KernelInfo* k : kKernels)
    if (k->scheme == scheme && (best == nullptr || k->rank < best->rank)) best = k;
  return *best;
}

const KernelInfo& find_kernel(Scheme scheme, std::string_view name) {
  std::string known;
  for (const auto* k : kernels_of(scheme)) {
    if (k->name == name) return *k;
    known += (known.empty() ? "" : ", ") + std::string(k->name);
  }
  throw std::invalid_argument("unknown kernel '" + std::string(name) + "' for scheme " +
                              std::string(scheme_name(scheme)) + " (known: " + known + ")");
}

const KernelInfo& find_kernel(std::string_view full_name) {
  const auto slash = full_name.find('/');
  if (slash == std::string_view::npos)
    throw std::invalid_argument("kernel '" + std::string(full_name) +
                                "' must be written scheme/kernel, e.g. " +
                                default_kernel(all_scheme_infos()[0].id).full_name());
  return find_kernel(parse_scheme(full_name.substr(0, slash)), full_name.substr(slash + 1));
}

std::unique_ptr<OwnerTable> build_reference(Scheme scheme, const Fleet& fleet) {
  return scheme_info(scheme).reference(fleet);
}

std::vector<const KernelInfo*> replica_kernels_of(Scheme scheme) {
  std::vector<const KernelInfo*> out;
  for (const KernelInfo* k : kKernels)
    if (k->scheme == scheme && k->make_replicas != nullptr) out.push_back(k);
  return out;
}

uint32_t replica_candidates(const Fleet& fleet) noexcept {
  uint32_t holders = 0;
  for (uint32_t n = 0; n < fleet.size(); ++n) holders += fleet.nodes().weight(n) > 0;
  return holders;
}

void check_replica_count(const Fleet& fleet, uint32_t r) {
  if (r == 0) throw std::invalid_argument("R = 0 replicas: give at least 1");
  const uint32_t holders = replica_candidates(fleet);
  if (r <= holders) return;
  std::string msg =
      "R = " + std::to_string(r) + " replicas need at least " + std::to_string(r) + " nodes";
  if (holders == fleet.size())
    msg += " (the fleet has " + std::to_string(fleet.size()) + ")";
  else
    msg += " of weight above 0 (the fleet has " + std::to_string(holders) + " of its " +
           std::to_string(fleet.size()) + " nodes)";
  throw std::invalid_argument(msg);
}

namespace {

// Throws std::invalid_argument where the scheme defines no replica sets.
const SchemeInfo& with_replicas(Scheme scheme) {
  const SchemeInfo& s = scheme_info(scheme);
  if (s.replicas_reference == nullptr)
    throw std::invalid_argument(std::string(s.title) +
                                " has no replica sets: " + std::string(s.replicas_note));
  return s;
}

}  // namespace

std::unique_ptr<ReplicaTable> build_replica_reference(Scheme scheme, const Fleet& fleet,
                                                      uint32_t r) {
  return with_replicas(scheme).replicas_reference(fleet, r);
}

std::unique_ptr<ReplicaTable> build_replicas(const KernelInfo& k, const Fleet& fleet, uint32_t r) {
  if (k.make_replicas != nullptr) return k.make_replicas(fleet, r);
  with_replicas(k.scheme);
  std::string known;
  for (const KernelInfo* other : replica_kernels_of(k.scheme))
    known += (known.empty() ? "" : ", ") + other->full_name();
  throw std::invalid_argument(k.full_name() + " has no replica lookup (the scheme's: " + known +
                              ", or reference)");
}

}  // namespace chbench
