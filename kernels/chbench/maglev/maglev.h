// Maglev hashing: Eisenbud et al., "Maglev: A Fast and Reliable Software
// Network Load Balancer", NSDI 2016, section 3.4 and its Pseudocode 1. Each
// backend (node) walks its own permutation of the M slots of a lookup table,
// offset + j * skip mod M for j = 0, 1, ...; the backends take turns claiming
// the next free slot of their permutation until every slot is taken. A key
// hash h belongs to entry[h mod M]: one division and one load, whatever N.
// The exact rules (hashes of the names, ties, M) are in docs/profiles/maglev.md.
// The reference (reference.cc) is Pseudocode 1 as written; the kernels
// maglev/scalar and maglev/simd look keys up in maglev_table() with the table
// lookups below (maglev.cc, simd.cc), which the Redis profile shares.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "chbench/nodes.h"
#include "chbench/scheme.h"

namespace chbench {

// A node's permutation of the table (paper, section 3.4): offset =
// h1(name) mod M, skip = h2(name) mod (M - 1) + 1, with h1 = XXH3_64bits(name)
// (seed 0, the rendezvous seed) and h2 = XXH3_64bits_withSeed(name, 1). M
// prime makes every skip coprime with M, so each permutation visits every slot.
struct MaglevPermutation {
  uint32_t offset;
  uint32_t skip;
};
MaglevPermutation maglev_permutation(std::string_view name, uint32_t table_size) noexcept;

// Checks a node list for Maglev: validate(nodes), then nodes.table_size prime,
// at most kMaglevMaxTableSize, and at least the node count (a table smaller
// than N leaves nodes without a slot). Throws std::invalid_argument with a
// one-line message otherwise.
inline constexpr uint32_t kMaglevMaxTableSize = 0x7fffffffu;
void validate_maglev(const NodeSet& nodes);

// True when n is prime (trial division; n < 2^32).
bool is_prime(uint32_t n) noexcept;

// The lookup table entry[0 ... M - 1] of node indices, filled as Pseudocode 1
// fills it (backends in list order, each taking the next free slot of its
// permutation), with the permutation advanced incrementally instead of
// recomputed. Throws like validate_maglev(), std::bad_alloc if M entries do
// not fit in memory. Expected O(M log M) steps (the paper's bound).
std::vector<uint32_t> maglev_table(const NodeSet& nodes);

// The filling itself, from given permutations (one per node, in node order,
// each with offset < M and 1 <= skip < M, M prime), e.g. Table 1 of the
// paper. Precondition: 1 <= permutations.size() <= table_size.
std::vector<uint32_t> maglev_populate(std::span<const MaglevPermutation> permutations,
                                      uint32_t table_size);

// ---- table lookup kernels (Maglev, and Redis Cluster's slot table) --------

// owner = entries[h mod M], M = entries.size(), one key at a time. Throws
// std::invalid_argument if entries is empty or has 2^32 or more entries.
std::unique_ptr<OwnerTable> make_table_lookup_scalar(std::vector<uint32_t> entries);

// The same in batches: h mod M by the SIMD exact remainder of modn/modn.h
// (mod_n_owners) into a block of slot indices, then 32-bit gathers of the
// owners (Highway; 16 lanes on AVX-512, 8 on AVX2). Throws like the scalar one.
std::unique_ptr<OwnerTable> make_table_lookup_simd(const std::vector<uint32_t>& entries);

// out[i] = table[slots[i]] with SIMD gathers. Preconditions: every slot <
// table size, out.size() == slots.size() (both not checked).
void gather_owners(const uint32_t* table, std::span<const uint32_t> slots, std::span<uint32_t> out);

}  // namespace chbench
