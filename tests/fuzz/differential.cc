// Differential fuzzer (libFuzzer): every kernel against its scheme's reference.
//
// Each input is decoded (with LLVM's FuzzedDataProvider) into one of six
// cases, then run on one Highway target, also decoded: the best one
// (dispatch as usual) or any single target this build and CPU can run,
// forced with simd::ForcedTarget, the SCALAR/EMU128 fallback included.
//
//   registry   a scheme, a node list (default names node-0 ... node-(N-1), or
//              names taken from the input: empty, duplicate and arbitrary
//              bytes included) and V; every kernel of that scheme in
//              chbench::all_kernels() is built and compared with
//              build_reference(). Kernels added to the registry later are
//              covered without a change here. A kernel with a knob
//              (KernelInfo::knob: keys in flight) is built with a value from
//              the input: its default, an end of its range, a value of its
//              sweep or any value in range. A node list the reference
//              rejects must be rejected by every kernel with the same
//              exception type. Maglev's table size M comes from the input
//              (primes, non-primes and M below N included). Node weights
//              exist only in the ketama profile (see profiles).
//   counts     a scheme that places by the bucket count alone
//              (SchemeInfo::buckets_only: mod-N, jump and its successors)
//              over Fleet::of_buckets(N) at any 32-bit N, which no node list
//              of a test can reach, around powers of two too: every kernel
//              against the reference, a count past max_nodes refused alike.
//   tokens     a ring built from tokens taken from the input (duplicates over
//              nodes, 0, 2^63, UINT64_MAX), searched by every ring kernel of
//              the registry built over it (KernelInfo::make_over_ring), knobs
//              from the input as above, against ring_reference_owner().
//   seeds      rendezvous over node seeds taken from the input (equal seeds,
//              so equal scores at any lane): every registry kernel built
//              over them (KernelInfo::make_over_seeds) against
//              rendezvous_owner().
//   history    a scheme that reads the fleet's history (SchemeInfo::
//              reads_history: AnchorHash, DxHash, MementoHash, ...) over a
//              fleet changed by decoded leaves, re-joins (the last removed or
//              any) and new names, with a decoded capacity (below N and
//              joins past it included): every kernel against the reference,
//              a fleet the reference refuses refused alike.
//   profiles   a production profile (ketama with weights, Redis Cluster,
//              Kafka, Cassandra, Maglev; docs/profiles.md) over a decoded
//              cluster: every registry kernel of the profile's scheme, built
//              with build_profile_table(), against build_profile_reference(),
//              on key hashes in the profile's own domain.
//
//   weights    a scheme that takes node weights (SchemeInfo::takes
//              kParamWeights: the ring, weighted rendezvous) over weights of
//              kinds from the input: 0, 1, small, 2^31 and past it off the
//              ring, all 0 and one too few (refused): every kernel against
//              the reference, and no key on a node of weight 0.
//   replicas   a scheme with replica sets (SchemeInfo::replicas_reference)
//              with weights as above where it takes them and R from 1 to two
//              past the nodes of weight above 0: every replica kernel against
//              the reference's R-sets (the same refusal where R is too many),
//              each set R distinct nodes of weight above 0, its first the
//              scheme's owner.
//   bounded    bounded loads on a weighted ring (zeros included) over a
//              request stream with repeated keys and a balance factor from
//              the input: BoundedLoads::place and place_concurrent against
//              the plainest walk, every request placed once, no node over
//              its capacity, the capacities following the weights.
//
// Profiles' node names include spellings of one ketama server ("a",
// "a:11211", "a:011211"), which both ketama profiles must refuse.
//
// Key hashes come from the input: raw 64-bit values, 0, UINT64_MAX, values at
// and next to the case's anchors (ring tokens, node seeds, multiples of N),
// around 2^63 and around powers of two. Every batch lives in a heap buffer
// of exactly its size, so AddressSanitizer reports a kernel that reads a key
// or writes an owner past the end; the batch is run whole, in pieces of sizes
// taken from the input (tails shorter than any lane count or unroll), a
// registry table also one key at a time (OwnerTable::owner) and, when the
// input says so, through a ThreadTeam of two threads.
//
// On the first owner that differs, the harness prints the case, kernel,
// target, key and both owners on stderr and aborts, which libFuzzer reports
// as a crash and saves the input. Usage: scripts/fuzz.sh --help.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "chbench/simd.h"
#include "harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  static const std::vector<int64_t> targets = chbench::simd::runnable_targets();
  // 0: dispatch as usual; otherwise force one runnable target.
  const auto pick = in.ConsumeIntegralInRange<std::size_t>(0, targets.size());
  chbench_fuzz::Context c;
  std::optional<chbench::simd::ForcedTarget> forced;
  if (pick > 0) {
    forced.emplace(targets[pick - 1]);
    c.target = chbench::simd::target_name(targets[pick - 1]);
  }
  switch (in.ConsumeIntegralInRange<int>(0, 8)) {
    case 0:
      chbench_fuzz::run_registry(in, c);
      break;
    case 1:
      chbench_fuzz::run_counts(in, c);
      break;
    case 2:
      chbench_fuzz::run_tokens(in, c);
      break;
    case 3:
      chbench_fuzz::run_seeds(in, c);
      break;
    case 4:
      chbench_fuzz::run_history(in, c);
      break;
    case 5:
      chbench_fuzz::run_profiles(in, c);
      break;
    case 6:
      chbench_fuzz::run_weights(in, c);
      break;
    case 7:
      chbench_fuzz::run_replicas(in, c);
      break;
    default:
      chbench_fuzz::run_bounded(in, c);
      break;
  }
  return 0;
}
