// What the lab's tests share: the tolerance, the reference owners and the
// spread of the statistics the tests compare with theory.
//
// The tests check exact properties (consistent schemes never move a key
// between old nodes; the keys that move are exactly the newcomer's or the
// leaver's) and statistical ones, with tolerances derived from the theory in
// placement.h rather than tuned to one run. Every key set is fixed (user:1 ...
// user:K, node-0 ...), so the results are deterministic; the tolerances say how
// far an honest implementation may land from the expectation (6 standard
// deviations unless a comment says otherwise).
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "chbench/fleet.h"
#include "chbench/scheme.h"

namespace chbench::lab::test {

inline constexpr double kSigmas = 6.0;

// Owners by the scheme's reference, the plainest code of docs/spec.md (§1).
inline std::vector<uint32_t> reference_owners(Scheme scheme, const Fleet& fleet,
                                              const std::vector<uint64_t>& hashes) {
  std::vector<uint32_t> out(hashes.size());
  build_reference(scheme, fleet)->owners(hashes, out);
  return out;
}

// Standard deviation of the fraction of K independent keys that each land in a
// set of probability p (binomial).
inline double binomial_sd(double p, uint64_t k) {
  return std::sqrt(p * (1 - p) / static_cast<double>(k));
}

// Excess kurtosis of Beta(a, b) (standard formula, e.g. Johnson, Kotz &
// Balakrishnan, Continuous Univariate Distributions vol. 2, ch. 25).
inline double beta_excess_kurtosis(double a, double b) {
  return 6 * ((a - b) * (a - b) * (a + b + 1) - a * b * (a + b + 2)) /
         (a * b * (a + b + 2) * (a + b + 3));
}

// The schemes that never move a key between nodes that stay.
inline constexpr Scheme kConsistent[] = {Scheme::kRing, Scheme::kRendezvous, Scheme::kJump};

}  // namespace chbench::lab::test
