// Per-target code of the S-tree descent (stree.h), shared by ring/stree
// (stree.cc) and ring/bucketed's fallback (bucketed.cc). Included from inside
// those files after <hwy/foreach_target.h>, so it is compiled once per Highway
// target; the toggling guard below is Highway's idiom for that.
#if defined(CHBENCH_RING_STREE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef CHBENCH_RING_STREE_INL_H_
#undef CHBENCH_RING_STREE_INL_H_
#else
#define CHBENCH_RING_STREE_INL_H_
#endif

#include <hwy/highway.h>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "chbench/ring/stree.h"

HWY_BEFORE_NAMESPACE();
namespace chbench::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Prefetches the cache line at p. A prefetch never faults.
HWY_INLINE void PrefetchLine(const void* p) { __builtin_prefetch(p); }

// Lanes of v below vx (unsigned 32- or 64-bit lanes) among the first `valid`
// (fewer than d's lanes), counted. On AVX-512, for a 64-byte vector, the
// compare takes the valid lanes as its mask: Highway's And of two masks adds
// a mask operation a key, which ring/bucketed's record loop waits on (0.78
// against 0.90-0.96 ns a key at 10 tokens on a Zen 5).
template <class D>
HWY_INLINE std::size_t CountValidBelow(D d, hn::Vec<D> v, hn::Vec<D> vx, std::size_t valid) {
  using T = hn::TFromD<D>;
  static_assert(std::is_unsigned_v<T> && (sizeof(T) == 4 || sizeof(T) == 8));
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
  if constexpr (hn::MaxLanes(d) * sizeof(T) == 64) {
    const auto valid_bits = static_cast<uint16_t>((1u << valid) - 1);
    if constexpr (sizeof(T) == 8)
      return std::popcount(static_cast<unsigned>(
          _mm512_mask_cmplt_epu64_mask(static_cast<__mmask8>(valid_bits), v.raw, vx.raw)));
    else
      return std::popcount(
          static_cast<unsigned>(_mm512_mask_cmplt_epu32_mask(valid_bits, v.raw, vx.raw)));
  }
#endif
  return hn::CountTrue(d, hn::And(hn::Lt(v, vx), hn::FirstN(d, valid)));
}

// Count of the `valid` first tokens of a 64-byte aligned block that are below
// x (unsigned compare), for vectors of at most 64 bytes.
template <class Token, std::size_t kValid>
HWY_INLINE std::size_t CountBelow(const Token* HWY_RESTRICT block, Token x) {
  const hn::CappedTag<Token, 64 / sizeof(Token)> d;
  const std::size_t lanes = hn::Lanes(d);
  const auto vx = hn::Set(d, x);
  std::size_t count = 0;
  for (std::size_t j = 0; j < kValid; j += lanes) {
    const auto v = hn::Load(d, block + j);
    // Lanes past kValid hold the record's owners: left out.
    if (kValid % lanes != 0 && j + lanes > kValid)
      count += CountValidBelow(d, v, vx, kValid - j);
    else
      count += hn::CountTrue(d, hn::Lt(v, vx));
  }
  return count;
}

template <class Token>
HWY_INLINE uint32_t RecordOwner(const TokenRecord<Token>& rec, Token x) {
  return rec.owners[CountBelow<Token, TokenRecord<Token>::kTokens>(rec.tokens, x)];
}

// Keys [0, count) through the S-tree, `tree.group` of them descending the
// levels in lockstep: each key compares its node, then prefetches the node it
// goes to next, which the other keys' compares give time to arrive.
template <class Token>
void STreeOwnersT(const STreeView<Token>& tree, const Token* HWY_RESTRICT keys, std::size_t count,
                  uint32_t* HWY_RESTRICT out) {
  constexpr std::size_t kNode = STreeView<Token>::kNode;
  constexpr std::size_t kMaxGroup = 256;
  const std::size_t group = tree.group;
  for (std::size_t i = 0; i < count; i += group) {
    const std::size_t g = count - i < group ? count - i : group;
    std::size_t k[kMaxGroup];
    for (std::size_t j = 0; j < g; ++j) k[j] = 0;
    for (unsigned t = 0; t < tree.levels; ++t) {
      const Token* level = tree.inner + tree.offset[t];
      const bool last = t + 1 == tree.levels;
      const Token* next = last ? nullptr : tree.inner + tree.offset[t + 1];
      for (std::size_t j = 0; j < g; ++j) {
        k[j] = k[j] * (kNode + 1) + CountBelow<Token, kNode>(level + k[j] * kNode, keys[i + j]);
        PrefetchLine(last ? static_cast<const void*>(tree.leaves + k[j])
                          : static_cast<const void*>(next + k[j] * kNode));
      }
    }
    for (std::size_t j = 0; j < g; ++j) out[i + j] = RecordOwner(tree.leaves[k[j]], keys[i + j]);
  }
}

}  // namespace chbench::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // CHBENCH_RING_STREE_INL_H_
