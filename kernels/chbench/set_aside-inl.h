// Setting keys aside: for a lookup that is short for most keys and long for a
// few (a redraw loop that a key enters when its first answer is n or more),
// run the short part on every key of a chunk, set the few aside with their
// places, and then run the long part on them in full vectors, up to four at a
// time so that their loops overlap. Run in the vector a key came in, the long
// part costs a whole vector's loop for each such key: at N = 10^6 of 2^20,
// 4.6 % of keys but 31 % of 8-lane vectors.
// Whether the first pass branches on a vector holding such a key depends on
// how often one does (OftenInSomeLane): where the branch would go either
// way at random, the pass stores every vector's lanes to set aside as mask
// bits and collects the set bits afterwards (FirstPassBits). Measured on a
// Zen 5 (AVX3) over fresh keys (a pool of 10^6, K = 10^5), ns a key at
// N = 1,000 and 10^6: power/simd 0.45 and 0.57 with the bits, 0.55 and 0.64
// compressing every vector's lanes unconditionally, 0.72 and 1.17 with the
// branch; binomial/simd 0.30-0.32 and 0.38-0.39, 0.42-0.44 and 0.45-0.48, 0.58
// and 0.97. At N = 1,024, where no key is set aside, compressing every vector
// cost 0.42 and 0.38 against 0.23 and 0.17 with the branch, which the rule
// keeps there.
// Streamed from DRAM (K = 10^7 keys at N = 10^6), the second pass is a pause
// in the first pass's demand reads, which the hardware prefetcher follows and
// does not run ahead of: each chunk then began by waiting on memory. The first
// pass therefore prefetches the keys and owners a chunk (8 KiB) ahead itself,
// so that the loads keep coming through the second pass. Same Zen 5, ns a key
// at K = 10^7 (the stream floor 0.28-0.31), three processes each: without
// prefetches binomial/simd 0.48-0.49 and power/simd 0.58-0.61; the keys
// prefetched 8 KiB ahead 0.40-0.41 and 0.53-0.55 (4 KiB 0.41-0.42, 16 KiB
// 0.45-0.48 for binomial/simd); the owners too 0.38-0.39 and 0.51-0.52. Into
// L2 instead of L1, 0.46-0.50 and 0.55-0.60 against 0.41-0.44 and 0.54-0.55
// in the same processes. Smaller chunks without prefetches, 512, 256 and 128
// keys: binomial/simd 0.42-0.46, 0.41-0.42, 0.48-0.49; power/simd 0.55-0.57,
// 0.61-0.62, 0.73-0.74. Every other line prefetched: binomial/simd 1.6x
// slower than with none.
// In cache (K = 10^5) the prefetches cost 0 to 6 % (median 2 %) at N = 10^6;
// skipping them below 2^20 keys, by a flag or by a second copy of the first
// pass or the chunk loop, changed the code GCC made of the rest and cost
// binomial/simd 4 to 12 % in cache at N = 1,000, 1,300, 1,536 or 10^6 (by
// the variant), so every batch prefetches.
// Included from inside a kernel file after <hwy/foreach_target.h>, like
// simd_ops-inl.h.
#if defined(CHBENCH_SET_ASIDE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef CHBENCH_SET_ASIDE_INL_H_
#undef CHBENCH_SET_ASIDE_INL_H_
#else
#define CHBENCH_SET_ASIDE_INL_H_
#endif

#include <hwy/highway.h>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>

#include "chbench/compress-inl.h"
#include "chbench/simd_ops-inl.h"

HWY_BEFORE_NAMESPACE();
namespace chbench::simd::HWY_NAMESPACE {

// Keys a chunk holds: its set-aside keys stay in L1 between the two passes.
inline constexpr std::size_t kSetAsideChunk = 1024;

// How far ahead of the vectors it reads the first pass prefetches keys and
// owners: a chunk's keys.
inline constexpr std::size_t kPrefetchBytes = kSetAsideChunk * sizeof(uint64_t);

// Prefetches the cache lines kPrefetchBytes past the U vectors of keys at k
// and past their owners at o. A prefetch never faults, past the end of the
// batch included; the addresses are formed as integers, not as pointers past
// the arrays.
template <std::size_t U>
HWY_INLINE void PrefetchAhead(const uint64_t* k, const uint32_t* o) {
  constexpr std::size_t kLine = 64;
  const std::size_t keys = U * hn::Lanes(D64());
  const uintptr_t key_bytes = reinterpret_cast<uintptr_t>(k) + kPrefetchBytes;
  for (std::size_t b = 0; b < keys * sizeof(uint64_t); b += kLine)
    __builtin_prefetch(reinterpret_cast<const void*>(key_bytes + b));
  const uintptr_t owner_bytes = reinterpret_cast<uintptr_t>(o) + kPrefetchBytes;
  for (std::size_t b = 0; b < keys * sizeof(uint32_t); b += kLine)
    __builtin_prefetch(reinterpret_cast<const void*>(owner_bytes + b));
}

// Set bits CollectMarkedKeys reads from each word with no branch, and so the
// room past the last key and place it may write.
inline constexpr std::size_t kCollectAhead = 4;

// A chunk's keys set aside and their places in the chunk, with room for a
// padded last vector.
struct SetAside {
  HWY_ALIGN uint64_t key[kSetAsideChunk + kMaxLanes64 + kCollectAhead];
  HWY_ALIGN uint64_t place[kSetAsideChunk + kMaxLanes64 + kCollectAhead];
  std::size_t count = 0;
};

// Appends the lanes of `key` in `m` to `aside`; `place` is the first lane's.
HWY_INLINE void SetAsideLanes(SetAside& aside, V64 key, hn::Mask<D64> m, std::size_t place) {
  const D64 d;
  hn::StoreU(CompressLanes(key, m), d, aside.key + aside.count);
  hn::StoreU(CompressLanes(IotaFrom(d, static_cast<uint64_t>(place)), m), d,
             aside.place + aside.count);
  aside.count += hn::CountTrue(d, m);
}

// The keys of a chunk of `size` keys marked in a bitmap of StoreMaskBits'
// layout for vectors of `lanes` lanes (lane j of vector v at bit j % 8 of
// byte v * bytes + j / 8, bytes = (lanes + 7) / 8), read from its first
// `used` 64-bit words: each marked key of `chunk` goes to key[count], its
// place in the chunk to place[count], in chunk order. Returns the new count.
// key and place need kCollectAhead entries of room past the last marked key.
// Each word's first kCollectAhead set bits are read whether set or not (a
// word's lowest set bit past its last is bit 64, clamped to the chunk's last
// key, and the count advances only by the bits set), so that the loop's exit
// is taken at a branch that predicts well (more than kCollectAhead keys in a
// word) instead of at one per word that goes either way at random. On a
// Zen 5 (AVX3), K = 10^5, ns a key at N = 1,000 and 10^6, against one set
// bit at a time: jumpback/simd 0.31-0.32 and 0.34-0.35 against 0.36-0.37 and
// 0.42-0.43, power/simd 0.33-0.34 and 0.40-0.41 against 0.40-0.41 and 0.50,
// binomial/simd 0.22-0.23 and 0.25-0.26 against 0.27-0.28 and 0.34; two
// read ahead, binomial/simd 0.21-0.22 and 0.33-0.34; eight, 0.25-0.34 and
// 0.28. The bitmap stays in the caller's locals: kept in
// a class beside its sizes (whose byte stores may then alias them), it cost
// binomial/simd and power/simd 18 % in cache (Zen 5, AVX3).
template <class Place>
HWY_INLINE std::size_t CollectMarkedKeys(const uint64_t* HWY_RESTRICT words, std::size_t used,
                                         std::size_t lanes, const uint64_t* HWY_RESTRICT chunk,
                                         std::size_t size, uint64_t* HWY_RESTRICT key,
                                         Place* HWY_RESTRICT place, std::size_t count) {
  const std::size_t bytes = (lanes + 7) / 8;
  const auto take = [&](std::size_t w, uint64_t word, std::size_t j) {
    const std::size_t bit = w * 64 + static_cast<std::size_t>(std::countr_zero(word));
    const std::size_t i =
        std::min(bit / 8 / bytes * lanes + (bit / 8 % bytes) * 8 + bit % 8, size - 1);
    key[j] = chunk[i];
    place[j] = static_cast<Place>(i);
  };
  for (std::size_t w = 0; w < used; ++w) {
    uint64_t word = words[w];
    const std::size_t found = static_cast<std::size_t>(std::popcount(word));
    for (std::size_t j = 0; j < kCollectAhead; ++j, word &= word - 1) take(w, word, count + j);
    for (std::size_t j = kCollectAhead; j < found; ++j, word &= word - 1) take(w, word, count + j);
    count += found;
  }
  return count;
}

// out[place[j]] = answer[j] for j < count, one scalar store each.
template <class Place>
HWY_INLINE void StoreAtPlaces(const uint32_t* HWY_RESTRICT answer, const Place* HWY_RESTRICT place,
                              std::size_t count, uint32_t* HWY_RESTRICT out) {
  for (std::size_t j = 0; j < count; ++j) {
    uint32_t bucket = answer[j];
    // Keeps the compiler from turning this loop into AVX-512 scatters, far
    // slower than scalar stores.
    asm("" : "+r"(bucket));
    out[place[j]] = bucket;
  }
}

// The long part for the set-aside keys, in blocks of up to four full vectors
// (the last padded with the first key), each answer to its place in `out`:
// rest.template operator()<U>(k, o) writes the answers of the U * Lanes keys
// at k to o, as a ForEachBlock block does; the blocks' loops interleave.
template <class Rest>
HWY_INLINE void RunSetAside(SetAside& aside, uint32_t* HWY_RESTRICT out, const Rest& rest) {
  const D64 d;
  const std::size_t lanes = hn::Lanes(d);
  for (std::size_t i = aside.count; i < aside.count + lanes; ++i) aside.key[i] = aside.key[0];
  HWY_ALIGN uint32_t answer[kSetAsideChunk + kMaxLanes64];
  ForEachBlock<4>(d, aside.key, (aside.count + lanes - 1) / lanes * lanes, answer, rest);
  StoreAtPlaces(answer, aside.place, aside.count, out);
}

// The branch-free first pass over a chunk of whole vectors, prefetching
// ahead (PrefetchAhead): out gets each key's first answer, and each vector's
// lanes to set aside go to a bitmap, then to `aside` (CollectMarkedKeys): no
// branch for each vector and no count carried from one vector to the next.
template <class First>
HWY_INLINE void FirstPassBits(const uint64_t* HWY_RESTRICT chunk, std::size_t size,
                              uint32_t* HWY_RESTRICT out, const First& first, SetAside& aside) {
  const D64 d;
  const std::size_t lanes = hn::Lanes(d);
  const std::size_t bytes = (lanes + 7) / 8;
  const std::size_t used = (size / lanes * bytes + 7) / 8;
  HWY_ALIGN uint64_t words[kSetAsideChunk / 8];  // at most a byte a key
  for (std::size_t w = 0; w < used; ++w) words[w] = 0;
  uint8_t* const bits = reinterpret_cast<uint8_t*>(words);
  ForEachBlock<4>(d, chunk, size, out, [&]<std::size_t U>(const uint64_t* k, uint32_t* o) {
    const std::size_t v = static_cast<std::size_t>(k - chunk) / lanes;
    PrefetchAhead<U>(k, o);
    for (std::size_t u = 0; u < U; ++u) {
      V64 answer;
      const auto later = first(hn::LoadU(d, k + u * lanes), answer);
      StoreLow32(answer, o + u * lanes);
      hn::StoreMaskBits(d, later, bits + (v + u) * bytes);
    }
  });
  aside.count =
      CollectMarkedKeys(words, used, lanes, chunk, size, aside.key, aside.place, aside.count);
}

// out[i] for the keys of whole vectors of keys[0, count), in chunks of
// kSetAsideChunk, each first pass prefetching ahead (PrefetchAhead): first(
// key, answer) writes a vector's first answers into `answer` and returns the
// lanes whose answer is not final; rest is a block (RunSetAside) that answers
// such keys in full.
// later / all: a key's chance of being set aside, the same for every key;
// where it makes the branch on each vector mispredict (OftenInSomeLane), the
// first pass is FirstPassBits. Returns the keys it answered: count less its
// last partial vector, which the caller answers its own way.
template <class First, class Rest>
HWY_INLINE std::size_t SetAsideKeys(const uint64_t* HWY_RESTRICT keys, std::size_t count,
                                    uint32_t* HWY_RESTRICT out, const First& first,
                                    const Rest& rest, uint64_t later, uint64_t all) {
  const D64 d;
  const std::size_t lanes = hn::Lanes(d);
  const bool branch_free = OftenInSomeLane(later, all, lanes);
  const std::size_t whole = count - count % lanes;
  SetAside aside;
  for (std::size_t start = 0; start < whole; start += kSetAsideChunk) {
    const uint64_t* chunk = keys + start;
    const std::size_t size = std::min(kSetAsideChunk, whole - start);
    aside.count = 0;
    if (branch_free) {
      FirstPassBits(chunk, size, out + start, first, aside);
    } else {
      ForEachBlock<4>(d, chunk, size, out + start,
                      [&]<std::size_t U>(const uint64_t* k, uint32_t* o) {
                        PrefetchAhead<U>(k, o);
                        for (std::size_t u = 0; u < U; ++u) {
                          const V64 key = hn::LoadU(d, k + u * lanes);
                          V64 answer;
                          const auto later = first(key, answer);
                          StoreLow32(answer, o + u * lanes);
                          if (HWY_UNLIKELY(!hn::AllFalse(d, later)))
                            SetAsideLanes(aside, key, later, k - chunk + u * lanes);
                        }
                      });
    }
    if (aside.count != 0) RunSetAside(aside, out + start, rest);
  }
  return whole;
}

}  // namespace chbench::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // CHBENCH_SET_ASIDE_INL_H_
