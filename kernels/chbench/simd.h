// Which Highway target the SIMD kernels run on, and forcing one. The kernels
// are written with Google Highway (1.0.3) and its run-time dispatch: each one
// is compiled for every target Highway generates (on x86: AVX3, AVX2, SSE4,
// SSSE3 and the one-lane SCALAR fallback, or from the level of an x86-64-vN
// build up; on aarch64: NEON, SVE, SVE2, SVE_256, SVE2_128; SVE blocks are one
// vector, see simd_ops-inl.h), and each call runs the best one the CPU
// supports, as hwy::SetSupportedTargetsForTest may narrow it. Every kernel
// returns exactly the owners of its scheme's reference (docs/spec.md §1) on
// every target: scores, LCG steps and divisions are the scalar ones, lane by
// lane, not cheaper look-alikes.
//
// Batches: any length, including 0 and lengths that are not a multiple of the
// lane count. The last partial vector goes through padded copies on the stack,
// so no kernel reads a key or writes an owner outside the spans it is given.
// The SIMD kernels are the registry's kernels with KernelInfo::simd set; each
// lives in its own translation unit, chbench/<scheme>/<kernel>.cc, in
// Highway's skeleton order, behind a header that shows no vector types.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace chbench::simd {

// ---- targets ---------------------------------------------------------------

// The Highway target (an HWY_* bit, e.g. HWY_AVX2) that the kernels of this
// library dispatch to right now: the best target both compiled and supported,
// after any hwy::SetSupportedTargetsForTest narrowing; on a CPU with 128- or
// 256-bit SVE2 vectors that is SVE2_128 or SVE_256. (A direct call of
// hwy::SupportedTargets() makes Highway 1.0.3 dispatch to SVE2 there until the
// next change of forcing; runnable_targets() leaves dispatch as it should be.)
// Never throws.
int64_t dispatched_target() noexcept;

// Its name as hwy::TargetName spells it ("AVX3", "AVX2", "SSE4", "SSSE3",
// "SCALAR", ...).
std::string dispatched_target_name();

// Targets the library was compiled for (HWY_TARGETS), best first.
std::vector<int64_t> compiled_targets();

// The compiled targets this CPU can run, best first: those a caller may force
// with ForcedTarget. Ignores any forcing in effect. Never empty.
std::vector<int64_t> runnable_targets();

// hwy::TargetName of one target bit.
std::string target_name(int64_t target);

// Comma-separated names of the targets set in a bit field, best first.
std::string target_names(int64_t targets);

// Comma-separated names of a list of targets (e.g. runnable_targets()), in
// its order.
std::string target_names(const std::vector<int64_t>& targets);

// One line on the targets: "compiled A,B,...; this CPU runs B,...; dispatch
// picks B" (compiled_targets(), runnable_targets(), dispatched_target()), as
// the bench's --list and the tests' chbench_targets print it.
std::string targets_summary();

// Makes every kernel dispatch to `target` (one HWY_* bit from
// runnable_targets()) until destroyed, then restores normal dispatch. It sets
// process-global state (hwy::SetSupportedTargetsForTest): create and destroy it
// on one thread, outside any TBB parallel region, and never nest two. target ==
// 0 leaves dispatch alone. Throws std::invalid_argument if `target` is not a
// single runnable target.
class ForcedTarget {
 public:
  explicit ForcedTarget(int64_t target);
  ~ForcedTarget();
  ForcedTarget(const ForcedTarget&) = delete;
  ForcedTarget& operator=(const ForcedTarget&) = delete;

 private:
  bool active_;
};

// ---- 64-bit lane multiplies --------------------------------------------------

// How a kernel that can choose multiplies 64-bit lanes on a target with a
// native 64-bit lane multiply (AVX3: vpmullq): kNative uses it; kSplit builds
// each product from 32 x 32 -> 64 bit multiplies (vpmuludq), or drops it
// where a factor is 2^j - 1. Both give the same owners. vpmullq is one uop of
// latency 3 on AMD Zen 4 and Zen 5, three uops of latency 15 on Intel's
// AVX-512 cores (uops.info), where kernels with chains of dependent products
// run faster split. Targets without a native 64-bit lane multiply always split;
// the one-lane SCALAR target always multiplies natively.
enum class Mul64Path { kNative, kSplit };

// The path in force: the one a ForcedMul64Path names, else the CPU's,
// kSplit on an Intel x86 CPU and kNative on every other. Never throws.
Mul64Path mul64_path() noexcept;

// "native" or "split".
const char* mul64_path_name(Mul64Path path) noexcept;

// Makes mul64_path() return `path` until destroyed, then the CPU's again.
// Process-global, like ForcedTarget: create and destroy it on one thread,
// outside any parallel region, and never nest two.
class ForcedMul64Path {
 public:
  explicit ForcedMul64Path(Mul64Path path);
  ~ForcedMul64Path();
  ForcedMul64Path(const ForcedMul64Path&) = delete;
  ForcedMul64Path& operator=(const ForcedMul64Path&) = delete;
};

}  // namespace chbench::simd
