// The differential fuzzer's shared pieces: the bounds of one input, the
// decoded batches of key hashes, and the comparison of a kernel's owners with
// the reference's (differential.cc describes the cases). Each case is a
// run_<case>(in, c) function in its own file, cases_<topic>.cc.
#pragma once

#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <new>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "chbench/fleet.h"
#include "chbench/nodes.h"
#include "chbench/scheme.h"

namespace chbench_fuzz {

using chbench::Fleet;
using chbench::NodeSet;
using chbench::Scheme;
using Keys = std::vector<uint64_t>;
using Owners = std::vector<uint32_t>;
// Runs one kernel over a batch: keys in, owners out, same length.
using Lookup = std::function<void(std::span<const uint64_t>, std::span<uint32_t>)>;

// Bounds that keep one input to a few milliseconds under the sanitizers.
constexpr uint32_t kMaxRingNodes = 256;
constexpr uint32_t kMaxVnodes = 64;
constexpr uint32_t kMaxHrwNodes = 1100;  // past 512: the grouped HRW loops
constexpr uint32_t kMaxOtherNodes = 5000;
constexpr uint32_t kMaxNamedNodes = 40;
constexpr uint32_t kMaxMaglevNodes = 300;
constexpr uint32_t kMaxProfileNodes = 64;  // ketama: 160 MD5 points per unit of weight
constexpr std::size_t kMaxKeys = 700;
constexpr std::size_t kMaxPiece = 70;

// What the run was doing, for the report on a mismatch.
struct Context {
  std::string what;  // case and parameters
  std::string target = "dispatched";
};

// Prints the case, kernel, target and `detail` on stderr and aborts (which
// libFuzzer reports as a crash, saving the input).
[[noreturn]] void fail(const Context& c, const std::string& kernel, const std::string& detail);

// x as 0x and 16 hexadecimal digits.
std::string hex(uint64_t x);

// A decoded batch of key hashes, the piece sizes it is also run in, and
// whether it also runs through a ThreadTeam of 2.
struct Batch {
  Keys keys;
  std::vector<std::size_t> pieces;
  bool threads = false;
};

// Key hashes of kinds the input picks (at most kMaxKeys; `anchors` are the
// values the case is sensitive to), and their pieces.
Keys decode_keys(FuzzedDataProvider& in, std::span<const uint64_t> anchors);
Batch decode_batch(FuzzedDataProvider& in, std::span<const uint64_t> anchors);

// Runs `lookup` over the batch every way Batch says (and, given the table,
// one key at a time) and fails on the first owner that differs from `want`.
void check(const Context& c, const std::string& kernel, const Lookup& lookup, const Batch& b,
           std::span<const uint32_t> want, const chbench::OwnerTable* table = nullptr);

// Builds a table (an OwnerTable, or a ReplicaTable); on an exception,
// returns null and its type in `error`.
template <class Make>
auto build(const Make& make, std::string& error) -> decltype(make()) {
  try {
    error.clear();
    return make();
  } catch (const std::invalid_argument&) {
    error = "std::invalid_argument";
  } catch (const std::length_error&) {
    error = "std::length_error";
  } catch (const std::bad_alloc&) {
    error = "std::bad_alloc";
  }
  return nullptr;
}

// A node list for `scheme`: default names or names from the input, V and
// Maglev's M decoded.
NodeSet decode_nodes(FuzzedDataProvider& in, Scheme scheme);

// Builds a kernel's table with the knob value given.
using Make =
    std::function<std::unique_ptr<chbench::OwnerTable>(const chbench::KernelInfo&, unsigned knob)>;

// Every kernel of `scheme` built with `make` against the reference's refusal
// (ref_error, "" for none) and owners (`want`).
void check_kernels(const Context& c, Scheme scheme, const std::string& ref_error,
                   const Batch& batch, std::span<const uint32_t> want, const Make& make,
                   FuzzedDataProvider* knobs = nullptr);

// Values a scheme's owners are sensitive to.
Keys anchors_of(Scheme scheme, const NodeSet& nodes);

// Every kernel of `scheme` over `nodes` against the reference.
void check_over_nodes(FuzzedDataProvider& in, const Context& c, Scheme scheme,
                      const NodeSet& nodes);

// The schemes whose SchemeInfo says `pick`.
std::vector<Scheme> schemes_where(bool (*pick)(const chbench::SchemeInfo&));

// The cases (differential.cc): cases_registry.cc, cases_profiles.cc,
// cases_weights.cc.
void run_registry(FuzzedDataProvider& in, Context& c);
void run_counts(FuzzedDataProvider& in, Context& c);
void run_history(FuzzedDataProvider& in, Context& c);
void run_tokens(FuzzedDataProvider& in, Context& c);
void run_seeds(FuzzedDataProvider& in, Context& c);
void run_profiles(FuzzedDataProvider& in, Context& c);
void run_weights(FuzzedDataProvider& in, Context& c);
void run_replicas(FuzzedDataProvider& in, Context& c);
void run_bounded(FuzzedDataProvider& in, Context& c);

}  // namespace chbench_fuzz
