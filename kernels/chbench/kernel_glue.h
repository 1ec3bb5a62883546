// The generic pieces a kernel's file uses to fill its KernelInfo: saturating
// byte arithmetic for the estimates, the knob checks, and the make functions
// of kernels built straight from the node list. The ring's adapters are in
// ring/table.h.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

#include "chbench/fleet.h"
#include "chbench/nodes.h"
#include "chbench/saturate.h"
#include "chbench/scheme.h"

namespace chbench::glue {

// The estimates' saturating arithmetic (saturate.h), as glue:: names.
using ::chbench::saturating_add;
using ::chbench::saturating_mul;

// The table_bytes / reference_bytes of a scheme that holds no table.
inline uint64_t no_bytes(const Fleet&) { return 0; }

// Throws std::invalid_argument unless `knob` is 0: for kernels without one.
inline void no_knob(const KernelInfo& k, unsigned knob) {
  if (knob != 0)
    throw std::invalid_argument(k.full_name() + " has no knob (keys in flight); leave it unset");
}

// Throws std::invalid_argument unless `knob` is 0 or within k.knob's range.
// Precondition: k.knob is set.
inline void knob_in_range(const KernelInfo& k, unsigned knob) {
  if (knob != 0 && (knob < k.knob->min || knob > k.knob->max))
    throw std::invalid_argument(k.full_name() + "'s " + std::string(k.knob->name) + " must be " +
                                std::to_string(k.knob->min) + " to " + std::to_string(k.knob->max));
}

// A knob as the kernels' constructors take it: 0 (the default) as nullopt.
inline std::optional<unsigned> knob_or_default(unsigned knob) {
  return knob == 0 ? std::nullopt : std::optional<unsigned>(knob);
}

// Throws std::invalid_argument when the batch and its output differ in length.
inline void check_sizes(std::span<const uint64_t> keys, std::span<uint32_t> out) {
  if (keys.size() != out.size())
    throw std::invalid_argument("key hashes and owners differ in length");
}

// Throws std::invalid_argument unless out holds `r` owners per key.
inline void check_replica_sizes(std::span<const uint64_t> keys, std::span<uint32_t> out,
                                uint32_t r) {
  if (out.size() != keys.size() * r)
    throw std::invalid_argument("replicas: out must hold R = " + std::to_string(r) +
                                " owners per key hash");
}

// The bucket count N of a scheme that places keys on buckets 0 ... N-1 by N
// alone (mod-N, jump hash and its successors). A named fleet passes
// validate() first; a fleet of_buckets() has no names to check. Throws
// std::invalid_argument with a message naming `scheme` when the fleet is
// invalid or holds more than `max_buckets` buckets.
uint32_t bucket_count(const Fleet& f, uint64_t max_buckets, std::string_view scheme);

// KernelInfo::make of kernel K (no knob) whose table class is constructed
// from the bucket count (bucket_count(f, Max, Scheme)).
template <const KernelInfo& K, class Table, uint64_t Max>
std::unique_ptr<OwnerTable> make_over_count(const Fleet& f, unsigned knob) {
  no_knob(K, knob);
  return std::make_unique<Table>(bucket_count(f, Max, scheme_name(K.scheme)));
}

// KernelInfo::make of kernel K (no knob) whose table class is constructed
// from the node list.
template <const KernelInfo& K, class Table>
std::unique_ptr<OwnerTable> make_plain(const Fleet& f, unsigned knob) {
  no_knob(K, knob);
  return std::make_unique<Table>(f.nodes());
}

// KernelInfo::make of kernel K (no knob) built by a function of the node list.
template <const KernelInfo& K, std::unique_ptr<OwnerTable> (*Build)(const NodeSet&)>
std::unique_ptr<OwnerTable> make_with(const Fleet& f, unsigned knob) {
  no_knob(K, knob);
  return Build(f.nodes());
}

// KernelInfo::make_over_seeds of a rendezvous kernel whose table class is
// constructed from the seeds (std::span<const uint64_t>; it throws as
// make_over_seeds says).
template <class Table>
std::unique_ptr<OwnerTable> make_over_seeds(std::span<const uint64_t> seeds) {
  return std::make_unique<Table>(seeds);
}

}  // namespace chbench::glue
