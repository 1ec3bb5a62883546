// mod-N (docs/spec.md §5): key hash h belongs to node h % N. The reference
// (reference.cc) and modn/scalar compute it with a division; the SIMD exact
// remainder below (simd.cc) serves modn/simd and Maglev's table lookups.
#pragma once

#include <cstdint>
#include <span>

namespace chbench::simd {

// out[i] = key_hashes[i] % n, exactly, for every uint64_t hash and 1 <= n < 2^32,
// without a division instruction: the divisor is normalised (shifted until its
// top bit is set) and the 96-bit shifted dividend is reduced by two 2-by-1
// word divisions with a precomputed reciprocal (Moller & Granlund, "Improved
// Division by Invariant Integers", IEEE Trans. Computers 60(2), 2011,
// algorithm 4, with 32-bit words in 64-bit lanes). Shapes: out.size() ==
// key_hashes.size(). Throws std::invalid_argument if n == 0 or the sizes
// differ.
void mod_n_owners(std::span<const uint64_t> key_hashes, uint32_t n, std::span<uint32_t> out);

}  // namespace chbench::simd
