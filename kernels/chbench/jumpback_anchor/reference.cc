// JumpBackAnchor's reference and the scheme's registry functions. AnchorHash's
// Algorithm 3 (Mendelson et al., IEEE/ACM ToN 29(2), 2021, section IV-B: the
// arrays A, W, L, K and the stack R) with hash4j's changes to it
// (ConsistentJumpBackAnchorBucketSetHasher, 41d814f94c52;
// docs/schemes/jumpback_anchor.md): the anchor's size a is the historic
// maximum, grown by an add with R empty and shrunk by removing the last
// bucket with R empty; GETBUCKET's first draw is JumpBackHash over a
// (hash4j's loop, jumpback/reference.h) and each later one hash4j's
// uniformInt on the same generator. Independent of the kernels' packed table,
// which jumpback_anchor.cc builds the way hash4j does (K by bucketAtView).
#include "chbench/jumpback/reference.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <numeric>
#include <span>
#include <vector>

#include "chbench/jumpback_anchor/jumpback_anchor.h"
#include "chbench/kernel_glue.h"
#include "chbench/memento/memento.h"  // replay_fleet, memento_replay_bytes
#include "chbench/registry.h"
#include "chbench/scheme.h"

namespace chbench {

namespace {

using Generator = jumpback_reference::Generator<jumpback_reference::SplitMix64Algorithm>;

// AbstractPseudoRandomGenerator.uniformInt(exclusiveUpperBound): Lemire,
// "Fast Random Integer Generation in an Interval", ACM TOMACS 29(1), 2019,
// algorithm 5 with L = 32, on nextInt() = the low 32 bits of nextLong().
uint32_t uniform_int(Generator& g, uint32_t s) {
  uint64_t x = g.next_long() & 0xffffffffu;
  uint64_t m = x * s;
  uint64_t l = m & 0xffffffffu;
  if (l < s) {
    const uint64_t t = (uint64_t{1} << 32) % s;
    while (l < t) {
      x = g.next_long() & 0xffffffffu;
      m = x * s;
      l = m & 0xffffffffu;
    }
  }
  return static_cast<uint32_t>(m >> 32);
}

// Algorithm 3's state and procedures, names as in the paper; a is n_max.
class Anchor {
 public:
  // INITANCHOR with a = w = n: every bucket working, W and L the identity.
  explicit Anchor(uint32_t n) : A(n, 0), W(n), L(n), K(n), a_(n), N(n) {
    std::iota(W.begin(), W.end(), 0u);
    L = K = W;
  }
  void reserve(uint64_t buckets) {
    for (auto* v : {&A, &W, &L, &K, &R}) v->reserve(buckets);
  }

  uint32_t GETBUCKET(uint64_t key) const {
    if (a_ < 2) return 0;
    Generator g(key);
    uint32_t b = jumpback_reference::get_bucket(a_, g);  // in place of H(k) mod a
    while (A[b] > 0) {                                   // b is removed
      uint32_t h = uniform_int(g, A[b]);                 // in place of H_b(k) mod A[b]
      while (A[h] >= A[b]) h = K[h];                     // b was removed before h
      b = h;
    }
    return b;
  }

  // ADDBUCKET: the last removed bucket; with R empty (W and L are then the
  // identity again) a new bucket a, and a grows.
  uint32_t add() {
    if (R.empty()) {
      const uint32_t b = a_++;
      if (A.size() < a_) {
        A.push_back(0);
        W.push_back(b);
        L.push_back(b);
        K.push_back(b);
      }
      ++N;
      return b;
    }
    const uint32_t b = R.back();
    R.pop_back();
    A[b] = 0;  // W <- W + {b}, delete W_b
    L[W[N]] = N;
    W[L[b]] = K[b] = b;
    ++N;
    return b;
  }

  // REMOVEBUCKET: with R empty the last bucket shrinks a (JumpBackHash's own
  // removal, hash4j's); otherwise as the paper.
  void remove(uint32_t b) {
    --N;
    if (R.empty() && b == a_ - 1) {
      a_ = b;
      return;
    }
    R.push_back(b);
    A[b] = N;  // W_b <- W \ b, A[b] <- |W_b|
    W[L[b]] = K[b] = W[N];
    L[W[N]] = L[b];
  }

  uint32_t array_size() const noexcept { return a_; }
  std::size_t bytes() const noexcept {
    return (A.capacity() + W.capacity() + L.capacity() + K.capacity() + R.capacity()) *
           sizeof(uint32_t);
  }

 private:
  std::vector<uint32_t> A, W, L, K, R;
  uint32_t a_, N;
};

class JumpBackAnchorReference final : public OwnerTable {
 public:
  explicit JumpBackAnchorReference(const Fleet& f)
      : anchor_((check_jumpback_anchor(f), static_cast<uint32_t>(f.initial().size()))) {
    anchor_.reserve(jumpback_anchor_max_buckets(f));
    owners_ = replay_fleet(f, anchor_);
  }
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    for (std::size_t i = 0; i < h.size(); ++i) out[i] = owners_[anchor_.GETBUCKET(h[i])];
  }
  std::size_t memory_bytes() const noexcept override {
    return anchor_.bytes() + owners_.capacity() * sizeof(uint32_t);
  }

 private:
  Anchor anchor_;
  std::vector<uint32_t> owners_;  // bucket -> owner index
};

}  // namespace

std::unique_ptr<OwnerTable> registry::jumpback_anchor_reference(const Fleet& f) {
  return std::make_unique<JumpBackAnchorReference>(f);
}

void registry::jumpback_anchor_check(const Fleet& f) { check_jumpback_anchor(f); }

// A, W, L, K and R: five arrays of n_max entries at most; the replay.
uint64_t registry::jumpback_anchor_reference_bytes(const Fleet& f) {
  const uint64_t arrays = glue::saturating_mul(jumpback_anchor_max_buckets(f), 5 * 4);
  return glue::saturating_add(memento_replay_bytes(f), arrays);
}

constinit const SchemeInfo registry::jumpback_anchor_scheme{
    .id = Scheme::kJumpBackAnchor,
    .name = "jumpback_anchor",
    .aliases = {},
    .title = "JumpBackAnchor",
    .source =
        "hash4j 41d814f94c52, ConsistentHashing.jumpBackAnchorHash(splitMix64_V1()): "
        "JumpBackHash (Ertl, arXiv:2403.18682) over the historic maximum with AnchorHash's "
        "replacement (Mendelson et al., IEEE/ACM ToN 29(2), 2021, section IV); "
        "docs/schemes/jumpback_anchor.md",
    .params = 0,
    .removal = Removal::kAnyNode,
    .removal_note =
        "any node can leave, with no capacity fixed: only its keys move; a join "
        "restores the last removed bucket, or adds a new one when none is removed",
    .max_nodes = kJumpBackAnchorMaxBuckets,
    .reference = &registry::jumpback_anchor_reference,
    .check = &registry::jumpback_anchor_check,
    .reference_bytes = &registry::jumpback_anchor_reference_bytes,
    .reads_history = true,
    .growth = &minimal_growth};

}  // namespace chbench
