// AnchorHash's reference: Algorithm 3 of the paper (Mendelson et al.,
// IEEE/ACM ToN 29(2), 2021, section IV-B; the authors' README transcribes it)
// with its arrays A, W, L, K and the stack R, and the scheme's registry
// functions. The hashes are written here again (the CRC bit by bit, SUPSI's
// xxHash32 through libxxhash over the bytes), independent of the kernels'
// anchor.h.
#include <xxhash.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "chbench/anchor/anchor.h"
#include "chbench/kernel_glue.h"
#include "chbench/registry.h"
#include "chbench/scenario.h"
#include "chbench/scheme.h"

namespace chbench {

namespace {

// CRC-32C of 8 bytes, least significant first, one bit at a time.
uint32_t crc32c_bitwise(uint64_t data, uint32_t crc) {
  for (int byte = 0; byte < 8; ++byte) {
    crc ^= static_cast<uint32_t>(data >> (8 * byte)) & 0xffu;
    for (int bit = 0; bit < 8; ++bit) crc = crc & 1u ? (crc >> 1) ^ 0x82F63B78u : crc >> 1;
  }
  return crc;
}

// xxHash32 of BE64(k) ++ BE32(b) ++ BE32(seed), from the bytes, by xxHash.
uint32_t xx32_of_bytes(uint64_t k, uint32_t b, uint32_t seed) {
  unsigned char bytes[16];
  for (int i = 0; i < 8; ++i) bytes[i] = static_cast<unsigned char>(k >> (56 - 8 * i));
  for (int i = 0; i < 4; ++i) bytes[8 + i] = static_cast<unsigned char>(b >> (24 - 8 * i));
  for (int i = 0; i < 4; ++i) bytes[12 + i] = static_cast<unsigned char>(seed >> (24 - 8 * i));
  return XXH32(bytes, sizeof bytes, 0);
}

// The key's draws: hash(k) mod a first, then one h_b(k) mod A[b] per removed
// bucket b the lookup passes (the paper's "k <- rand(seed = k), h <- k mod
// A[b]" option: a stream of draws seeded by the key).
class Draws {
 public:
  Draws(AnchorHashing hashing, uint64_t key) : hashing_(hashing), key_(key), state_(key) {}
  uint32_t first(uint32_t a) {
    if (hashing_ == AnchorHashing::kCrc32c) {
      bs_ = crc32c_bitwise(key_, 0);  // ComputeBucket(key1 = key, key2 = 0)
      return bs_ % a;
    }
    if (hashing_ == AnchorHashing::kSupsiXx32) {
      bs_ = static_cast<uint32_t>(key_);  // |hash(key, 0xDEADBEEF)|, by the caller
      return bs_ % a;
    }
    return next(a, 0);
  }
  uint32_t next(uint32_t n, uint32_t b) {
    if (hashing_ == AnchorHashing::kCrc32c) {
      bs_ = crc32c_bitwise(key_ - bs_, static_cast<uint32_t>(0 + bs_));
      return bs_ % n;
    }
    if (hashing_ == AnchorHashing::kSupsiXx32) {
      bs_ = xx32_of_bytes(bs_, b, 0xDEADBEEFu);  // |hash(k, b, 0xDEADBEEF)|
      return bs_ % n;
    }
    state_ += 0x9e3779b97f4a7c15ULL;  // SplitMix64
    uint64_t z = state_;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return static_cast<uint32_t>((static_cast<unsigned __int128>(z) * n) >> 64);
  }

 private:
  AnchorHashing hashing_;
  uint64_t key_, state_;
  uint32_t bs_ = 0;
};

// Algorithm 3's state and procedures, names as in the paper.
class Anchor {
 public:
  // INITANCHOR(a, w).
  Anchor(uint32_t a, uint32_t w) : A(a, 0), W(a), L(a), K(a), N(w) {
    R.reserve(a);  // it never holds more than a - 1 buckets
    for (uint32_t b = 0; b < a; ++b) K[b] = L[b] = W[b] = b;
    for (uint32_t b = a; b-- > w;) {  // remove initially unused buckets
      R.push_back(b);
      A[b] = b;
    }
  }

  uint32_t GETBUCKET(Draws& draws) const {
    uint32_t b = draws.first(static_cast<uint32_t>(A.size()));
    while (A[b] > 0) {  // b is removed
      uint32_t h = draws.next(A[b], b);
      while (A[h] >= A[b]) h = K[h];  // W_b[h] != h: b was removed before h
      b = h;
    }
    return b;
  }

  uint32_t ADDBUCKET() {
    const uint32_t b = R.back();
    R.pop_back();
    A[b] = 0;  // W <- W + {b}, delete W_b
    L[W[N]] = N;
    W[L[b]] = K[b] = b;
    ++N;
    return b;
  }

  void REMOVEBUCKET(uint32_t b) {
    R.push_back(b);
    --N;
    A[b] = N;  // W_b <- W \ b, A[b] <- |W_b|
    W[L[b]] = K[b] = W[N];
    L[W[N]] = L[b];
  }

  std::size_t bytes() const {
    return (A.capacity() + W.capacity() + L.capacity() + K.capacity() + R.capacity()) *
           sizeof(uint32_t);
  }

 private:
  std::vector<uint32_t> A, W, L, K, R;
  uint32_t N;
};

// INITWRAPPER / ADDRESOURCE / REMOVERESOURCE of the paper's wrapper: the
// anchor after the fleet's history, and M (bucket -> node) as owner indices.
class AnchorReference final : public OwnerTable {
 public:
  AnchorReference(const Fleet& fleet, AnchorHashing hashing)
      : anchor_((check_anchor(fleet), fleet_capacity(fleet, kAnchorMaxCapacity)),
                fleet.initial().size()),
        owner_(fleet_capacity(fleet, kAnchorMaxCapacity)),
        hashing_(hashing) {
    std::unordered_map<std::string, uint32_t> bucket;  // the inverse of M
    for (uint32_t b = 0; b < fleet.initial().size(); ++b) bucket[fleet.initial()[b]] = b;
    for (const FleetChange& c : fleet.history()) {
      if (c.kind == FleetChange::Kind::kLeave) {
        anchor_.REMOVEBUCKET(bucket.at(c.node));
        bucket.erase(c.node);
      } else {
        bucket[c.node] = anchor_.ADDBUCKET();
      }
    }
    const auto& names = fleet.nodes().names;
    for (uint32_t i = 0; i < names.size(); ++i) owner_[bucket.at(names[i])] = i;
  }

  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    for (std::size_t i = 0; i < h.size(); ++i) {
      Draws draws(hashing_, h[i]);
      out[i] = owner_[anchor_.GETBUCKET(draws)];
    }
  }
  std::size_t memory_bytes() const noexcept override {
    return anchor_.bytes() + owner_.capacity() * sizeof(uint32_t);
  }

 private:
  Anchor anchor_;
  std::vector<uint32_t> owner_;
  AnchorHashing hashing_;
};

}  // namespace

std::unique_ptr<OwnerTable> make_anchor_reference(const Fleet& fleet, AnchorHashing hashing) {
  return std::make_unique<AnchorReference>(fleet, hashing);
}

std::unique_ptr<OwnerTable> registry::anchor_reference(const Fleet& f) {
  return make_anchor_reference(f, AnchorHashing::kSplitMix64);
}

void registry::anchor_check(const Fleet& f) { check_anchor(f); }

// A, W, L, K, R and M: six arrays of a entries, and the name map.
uint64_t registry::anchor_reference_bytes(const Fleet& f) {
  using glue::saturating_add;
  using glue::saturating_mul;
  const uint64_t a = anchor_capacity_estimate(f);
  const uint64_t names = f.initial().size() + f.history().size();
  return saturating_add(saturating_mul(a, 6 * sizeof(uint32_t)), saturating_mul(names, 96));
}

constinit const SchemeInfo registry::anchor_scheme{
    .id = Scheme::kAnchor,
    .name = "anchor",
    .aliases = {},
    .title = "AnchorHash",
    .source =
        "Mendelson et al., AnchorHash: A Scalable Consistent Hash, IEEE/ACM ToN 29(2), "
        "2021, section IV, algorithm 3; docs/schemes/anchor.md",
    .params = kParamCapacity,
    .removal = Removal::kAnyNode,
    .removal_note =
        "any node can leave: only its keys move, and a re-add (last removed first) "
        "brings exactly them back; joins beyond the capacity are refused",
    .max_nodes = kAnchorMaxCapacity,
    .reference = &registry::anchor_reference,
    .check = &registry::anchor_check,
    .reference_bytes = &registry::anchor_reference_bytes,
    .reads_history = true,
    .growth = &minimal_growth};

}  // namespace chbench
