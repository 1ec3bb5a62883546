// What the placement measurements should read in expectation: the spread of
// the ring's shares and of key shares, and the keys a join moves.
#pragma once

#include <cstdint>

namespace chbench::lab {

// Expected standard deviation of the node shares of the circle, as a fraction
// of the fair share 1/N, for N nodes with V tokens each drawn independently and
// uniformly: sqrt((N - 1) / (N V + 1)).
// Why: the N V arcs between uniform points on a circle are jointly
// Dirichlet(1, ..., 1) (uniform spacings; Pyke, "Spacings", JRSS B 27, 1965),
// so a node's share, the sum of V of them, is Beta(V, (N - 1) V) with variance
// (N - 1) / (N^2 (N V + 1)); divided by (1/N)^2 that is the formula. It falls as
// 1/sqrt(V) once N V >> 1: about sqrt((N - 1) / (N V)).
double ring_share_std_theory(uint64_t n, uint64_t v);

// The same for key shares when K keys land independently: the circle's
// variance plus the binomial sampling noise of K keys, (N - 1) / K relative to
// (1/N)^2 (conditional variance p (1 - p) / K at mean share p = 1/N).
// For the other schemes (an ideal hash spreads keys uniformly) use v = 0, which
// leaves only the sampling term: sqrt((N - 1) / K).
double key_share_std_theory(uint64_t n, uint64_t v, uint64_t k);

// Expected busiest / mean share of the circle with one token per node: the
// largest of N uniform spacings has mean H_N / N (H_N = 1 + 1/2 + ... + 1/N;
// Pyke 1965, section 4), so busiest / mean is H_N on average.
double ring_busiest_theory_v1(uint64_t n);

}  // namespace chbench::lab
