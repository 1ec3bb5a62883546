// Family threads: oneTBB teams of 1 ... all hardware threads (full sweep: every
// count and every kernel; the quick one: the powers of two and the largest,
// each scheme's default kernel unless kernels are chosen, so that one thread
// and all of them fit its budget), on a ring of ~64k tokens and mid-size fleets of the other
// schemes.
#include <bit>

#include "family.h"

namespace chbench::bench {

namespace {

// Fleet size and keys per scheme: rendezvous (weighted too) scores every node for every key,
// so it gets fewer nodes and a quarter of the keys.
Config threads_config(const KernelInfo* k, unsigned threads) {
  const Scheme s = k->scheme;
  const uint32_t n = s == Scheme::kRing ? 655 : scores_every_node(s) ? 64 : 1000;
  const uint64_t keys = scores_every_node(s) ? 250'000 : 1'000'000;
  Config c = make_config("threads", k, n, 100, keys, threads);
  c.thread_cpu = true;
  return c;
}

}  // namespace

std::vector<Point> threads_points(const FamilyContext& context) {
  std::vector<unsigned> counts;
  for (unsigned t = 1; t <= context.max_threads; ++t)
    if (context.full || std::has_single_bit(t) || t == context.max_threads) counts.push_back(t);
  // Quick ranks: one thread first, then all of them, then the others.
  std::vector<Point> out(counts.size());
  for (std::size_t i = 0; i < counts.size(); ++i) {
    const int rank = counts[i] == 1 ? 0 : counts[i] == context.max_threads ? 1 : int(i) + 1;
    out[i].quick = quick_rank(context, rank);
    for (const KernelInfo* k : all_kernels())
      if (quick_kernel(context, k)) out[i].configs.push_back(threads_config(k, counts[i]));
  }
  return out;
}

}  // namespace chbench::bench
