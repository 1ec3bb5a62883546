// The one list of the bench's families, in the order the sweep runs them.
#include "family.h"

namespace chbench::bench {

namespace {

// Budgets: seconds of the quick sweep by the estimate (plan.h) with the
// quick defaults, each family planned alone (a ring another family already
// built counts in full here). Together 3 min 58 s; the families' estimates
// in the whole sweep add up to about 3 min 59 s. The quick sweep must take
// at most 5 minutes on a 2-core machine, run.sh's plots included: it took
// 4 min 25 s to 4 min 45 s on the slowest on record, a 2-vCPU Zen 3 VM
// (AVX2), the bench 3 min 58 s to 4 min 10 s of it. The
// estimate counts what the sweep does outside the timed repetitions too
// (plan.cc: builds, references, checks, Google Benchmark's search), so a
// budget is what its family takes.
constinit const Family kFamilies[] = {
    {"tokens", "ring kernels against total tokens N x V, beside the stream and random-read floors",
     28, &tokens_points},
    {"latency",
     "ring kernels, each lookup waiting for the previous owner; every scheme's default kernel so "
     "at N = 1,000",
     19, &latency_points},
    {"inflight", "each kernel's knob (keys in flight) over its sweep of values", 14,
     &inflight_points},
    {"clustered", "ring kernels on tokens and keys squeezed into one window of 2^36 values", 12,
     &clustered_points},
    {"nodes", "every scheme against node count N", 24, &nodes_points},
    {"dense",
     "jump hash and its successors at N = 2^k - 1, 2^k, 2^k + 1 (k = 3 ... 30) and 2^31 - 1, "
     "beside the compute floor",
     23, &dense_points},
    {"removals",
     "every scheme that lets any node leave, at 0, 10, 50 and 90% of N removed in random order "
     "(jump and its successors LIFO), N = 1,000 and 10^6",
     16, &removals_points},
    {"dram",
     "jump hash and its successors, and the schemes that replay a fleet's history (half of 10^6 "
     "removed), at K = 10^7 keys beside the stream floor at that K (and the compute floor, "
     "without removals)",
     6, &dram_points},
    {"batch", "batch size K at a mid-size fleet", 18, &batch_points},
    {"threads", "oneTBB threads 1 ... all hardware threads", 14, &threads_points},
    {"hashed", "lookups including XXH3 of the key strings", 8, &hashed_points},
    {"bounded",
     "the ring's default kernel with bounded loads (c = 1.05, 1.25, 2) beside it, one thread and "
     "all",
     3, &bounded_points},
    {"replicas",
     "R = 1, 2, 3, 5 owners a key: rendezvous at N = 100 and 1,000, the ring's walk at 10^5 "
     "tokens",
     6, &replicas_points},
    {"targets", "each SIMD kernel under every Highway target the CPU runs, beside its rival", 17,
     &targets_points},
    {"profiles", "production profiles from key strings (key hashing included)", 26,
     &profiles_points},
    {"weighted", "weighted rendezvous over the weights 1 + n mod 4 at N = 64 and 1,000", 5,
     &weighted_points},
};

}  // namespace

std::span<const Family> all_families() noexcept { return kFamilies; }

const Family* find_family(std::string_view name) noexcept {
  for (const auto& f : kFamilies)
    if (f.name == name) return &f;
  return nullptr;
}

}  // namespace chbench::bench
