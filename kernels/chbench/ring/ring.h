// The ring (consistent hashing) as every ring kernel sees it: its entries,
// the sorted token array the kernels search, and the reference rule.
//
// Scheme: Karger et al., "Consistent Hashing and Random Trees", STOC 1997,
// section 4: a key belongs to the first token clockwise from its hash. The exact
// tie and wrap rules are docs/spec.md §6's.
//
// Every ring kernel (one file each in this folder, named after it) answers
// the same question over a sorted, duplicate-free token array `tokens` of
// length n >= 1: the position of the first token >= x, or n when x is above
// the last token. A position maps to an owner through an array of n + 1
// owners whose last entry repeats the first, which closes the ring without a
// branch.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "chbench/memory.h"
#include "chbench/nodes.h"

namespace chbench {

// One token on the circle and the node that placed it.
template <class Token>
struct RingEntry {
  Token token;
  uint32_t node;

  friend bool operator<(const RingEntry& a, const RingEntry& b) noexcept {
    return a.token != b.token ? a.token < b.token : a.node < b.node;
  }
  friend bool operator==(const RingEntry&, const RingEntry&) = default;
};

// The entries of docs/spec.md §6's 64-bit ring: token i of node n is
// XXH3_64bits("<name>#<i>"), sorted ascending by (token, node). Node n places
// V * w_n tokens, i = 0 ... V w_n - 1 (docs/schemes/hrw_weighted.md, "The
// weighted ring"): V per unit of weight, so without weights (all 1) N * V,
// and a weight change adds or removes that node's own tokens only.
// Shape: V * ring_weight_units(nodes) entries. Throws std::invalid_argument on
// an invalid node list, std::length_error above 2^32 - 1 tokens.
std::vector<RingEntry<uint64_t>> ring_entries(const NodeSet& nodes);

// The sum of the node weights (NodeSet::weights), or N without weights.
inline uint64_t ring_weight_units(const NodeSet& nodes) noexcept {
  if (nodes.weights.empty()) return nodes.size();
  uint64_t sum = 0;
  for (uint32_t w : nodes.weights) sum += w;
  return sum;
}

// A ring as the kernels want it: tokens ascending with equal values collapsed
// to their first entry (the lower node index, which is the one that wins), and
// owners[i] the node of tokens[i], plus owners[n] == owners[0] for the wrap.
template <class Token>
struct SortedRing {
  static_assert(std::is_unsigned_v<Token>);
  std::vector<Token> tokens;
  std::vector<uint32_t> owners;  // tokens.size() + 1 entries

  // `entries` must be sorted by (token, node) and non-empty; throws
  // std::invalid_argument otherwise. `huge_pages`: vectors of 40 MiB or more
  // ask for transparent huge pages (reserve_huge), for a ring that kernels
  // build their tables from; a kernel that keeps the ring as its table
  // (ring/lower_bound, ring/branchless: a copy) gets the pages a std::vector
  // gets either way.
  static SortedRing from_entries(std::span<const RingEntry<Token>> entries,
                                 bool huge_pages = false) {
    if (entries.empty()) throw std::invalid_argument("ring: no tokens");
    if (!std::is_sorted(entries.begin(), entries.end()))
      throw std::invalid_argument("ring: entries are not sorted by (token, node)");
    SortedRing ring;
    if (huge_pages) {
      reserve_huge(ring.tokens, entries.size());
      reserve_huge(ring.owners, entries.size() + 1);
    } else {
      ring.tokens.reserve(entries.size());
      ring.owners.reserve(entries.size() + 1);
    }
    for (std::size_t i = 0; i < entries.size(); ++i) {
      if (i > 0 && entries[i].token == entries[i - 1].token) continue;
      ring.tokens.push_back(entries[i].token);
      ring.owners.push_back(entries[i].node);
    }
    ring.owners.push_back(ring.owners.front());
    return ring;
  }

  std::size_t memory_bytes() const noexcept {
    return tokens.size() * sizeof(Token) + owners.size() * sizeof(uint32_t);
  }
};

// Reference owner for one key hash over entries sorted by (token, node): the
// entry that std::lower_bound finds for (x, node 0), or the first entry when x is
// above every token. `entries` must be non-empty.
template <class Token>
uint32_t ring_reference_owner(std::span<const RingEntry<Token>> entries, Token x) {
  auto it = std::lower_bound(entries.begin(), entries.end(), RingEntry<Token>{x, 0});
  return it == entries.end() ? entries.front().node : it->node;
}

// An adversarial ring: docs/spec.md §6's tokens squeezed into a window of 2^window_bits
// values starting at kClusterBase (token -> kClusterBase + (token >> (64 -
// window_bits))), sorted by (token, node). With a narrow window every token
// falls in one bucket of a bucket index, and into_cluster() maps key hashes
// into the same window. window_bits: 1 to 63, else std::invalid_argument;
// other throws as ring_entries.
inline constexpr uint64_t kClusterBase = 0x5a5a'0000'0000'0000;
std::vector<RingEntry<uint64_t>> clustered_ring_entries(const NodeSet& nodes, unsigned window_bits);
inline uint64_t into_cluster(uint64_t key_hash, unsigned window_bits) noexcept {
  return kClusterBase + (key_hash >> (64 - window_bits));
}

}  // namespace chbench
