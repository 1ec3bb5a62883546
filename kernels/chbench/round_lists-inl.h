// Lists that rounds of draws carry (flip/simd's retries, binomial/simd's
// redraws, power/simd's jumps): each entry a 64-bit value the next draw
// starts from and a tag, the key's place in its chunk in the high 32 bits
// and its answer so far in the low ones. Each round moves the entries still
// drawing to the front of their list and sends the others' tags to an
// answer list; at the end every answer goes to its place. Included from
// inside a kernel file after <hwy/foreach_target.h>, like simd_ops-inl.h.
#if defined(CHBENCH_ROUND_LISTS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef CHBENCH_ROUND_LISTS_INL_H_
#undef CHBENCH_ROUND_LISTS_INL_H_
#else
#define CHBENCH_ROUND_LISTS_INL_H_
#endif

#include <hwy/highway.h>

#include <cstddef>
#include <cstdint>

#include "chbench/compress-inl.h"
#include "chbench/set_aside-inl.h"
#include "chbench/simd_ops-inl.h"

HWY_BEFORE_NAMESPACE();
namespace chbench::simd::HWY_NAMESPACE {

// The entries of a chunk of up to kChunk keys still drawing, with room for a
// padded last vector and for CollectMarkedKeys' reads ahead (set_aside-inl.h).
template <std::size_t kChunk>
struct RoundList {
  HWY_ALIGN uint64_t value[kChunk + kMaxLanes64 + kCollectAhead];
  HWY_ALIGN uint64_t tag[kChunk + kMaxLanes64 + kCollectAhead];
  std::size_t size = 0;
};

// The entries that are done: tags whose low 32 bits are the answer.
template <std::size_t kChunk>
struct AnswerList {
  HWY_ALIGN uint64_t tag[kChunk + kMaxLanes64];
  std::size_t size = 0;
};

// Appends the value and tag of the lanes of `m` to `list` at `count` (a
// caller's local, as in RouteLanes), which advances.
template <std::size_t kChunk>
HWY_INLINE void ListLanes(V64 value, V64 tag, hn::Mask<D64> m, RoundList<kChunk>& list,
                          std::size_t& count) {
  const D64 d;
  hn::StoreU(CompressLanes(value, m), d, list.value + count);
  hn::StoreU(CompressLanes(tag, m), d, list.tag + count);
  count += hn::CountTrue(d, m);
}

// One vector of a round, after its draws: the tags `answer` of the lanes of
// `ends` appended to `answers` at `done`, the value and tag of the lanes of
// `going` stored to `list` at `kept` (at or before where the round read
// them); both counts advance. The counts are the caller's locals: stores
// into the lists could change a member.
template <std::size_t kChunk>
HWY_INLINE void RouteLanes(V64 answer, hn::Mask<D64> ends, V64 value, V64 tag, hn::Mask<D64> going,
                           AnswerList<kChunk>& answers, std::size_t& done, RoundList<kChunk>& list,
                           std::size_t& kept) {
  const D64 d;
  hn::StoreU(CompressLanes(answer, ends), d, answers.tag + done);
  done += hn::CountTrue(d, ends);
  ListLanes(value, tag, going, list, kept);
}

// out[tag >> 32] = the tag's low 32 bits for each answer: scalar stores, the
// places being scattered.
template <std::size_t kChunk>
HWY_INLINE void StoreAnswers(const AnswerList<kChunk>& answers, uint32_t* HWY_RESTRICT out) {
  const std::size_t size = answers.size;
  for (std::size_t t = 0; t < size; ++t) {
    uint64_t tag = answers.tag[t];
    // Keeps GCC from turning this loop into AVX-512 scatters, far slower
    // than scalar stores (on Zen 4 and 5 as on Intel).
    asm("" : "+r"(tag));
    out[tag >> 32] = static_cast<uint32_t>(tag);
  }
}

}  // namespace chbench::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // CHBENCH_ROUND_LISTS_INL_H_
