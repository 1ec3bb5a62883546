"""Intervals of medians and of ratios over a run's rounds, and the verdicts
they give.

The bench times each comparison group in R interleaved rounds (context
`chbench_timing`): round k of every member of a group ran in the same round,
so two members' rounds pair. A median's interval is distribution-free, from
the order statistics of its values; a ratio of two members of one group is
the median of the per-round ratios (paired), of members of two groups the
ratio of their medians with a seeded percentile bootstrap (unpaired).

A figure is an Estimate: its value and its 95 % interval, or no interval
(basis "point": a run without rounds, judged on the value as before; or
fewer than MIN_VALUES rounds, which judges nothing). judge() turns an
Estimate and a threshold into MET, NOT_MET or INCONCLUSIVE; combine() does
it for a goal of several figures.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from typing import Callable, Optional

import numpy
from scipy.stats import binom

from .numeric import sig3

CONFIDENCE = 0.95
LEVEL = "95 %"  # CONFIDENCE as the text writes it
MIN_VALUES = 6  # below this no order statistics cover a median at 95 %
BOOTSTRAP_SEED = 12345
BOOTSTRAP_RESAMPLES = 4000
MET, NOT_MET, INCONCLUSIVE = "met", "not met", "inconclusive"
NO_INTERVAL_NOTE = "no interval (run without rounds)"


@dataclass(frozen=True)
class Estimate:
    """One figure: value (a median ns/key or a ratio, unitless), and its
    interval lo ≤ value ≤ hi at CONFIDENCE, both None when there is none.
    basis: "paired" (per-round ratios of one group), "unpaired" (ratio of
    two groups' medians, bootstrap), "median" (one member's rounds),
    "point" (a run without rounds: the value alone)."""

    value: float
    lo: Optional[float] = None
    hi: Optional[float] = None
    basis: str = "point"

    @property
    def has_interval(self) -> bool:
        """Whether lo and hi are known."""
        return self.lo is not None and self.hi is not None


def lower_rank(n: int, confidence: float = CONFIDENCE) -> Optional[int]:
    """The 1-based rank k of the lower end of a median's interval over n
    values: the largest k with P(Binomial(n, 1/2) ≤ k - 1) ≤ (1 - confidence)
    / 2; the upper end is rank n + 1 - k. None when no k qualifies (n < 6 at
    95 %). n = 10 -> 2, n = 20 -> 6, n = 6 -> 1."""
    tail = (1 - confidence) / 2
    k = None
    for candidate in range(1, n // 2 + 1):
        if binom.cdf(candidate - 1, n, 0.5) <= tail + 1e-12:
            k = candidate
        else:
            break
    return k


def finite(values) -> list:
    """The finite numbers of `values` (None and NaN dropped), sorted."""
    return sorted(float(v) for v in values
                  if v is not None and not isinstance(v, bool) and math.isfinite(v))


def median_interval(values) -> Optional[tuple]:
    """(lo, hi): the distribution-free 95 % interval of the median of
    `values` (order statistics x_(k), x_(n+1-k), lower_rank), or None with
    fewer than MIN_VALUES finite values. 1..10 -> (2, 9)."""
    xs = finite(values)
    k = lower_rank(len(xs)) if len(xs) >= MIN_VALUES else None
    if k is None:
        return None
    return xs[k - 1], xs[len(xs) - k]


def median_estimate(values) -> Optional[Estimate]:
    """The median of `values` with its interval (basis "median"); None
    when no value is finite."""
    xs = finite(values)
    if not xs:
        return None
    interval = median_interval(xs)
    lo, hi = interval if interval else (None, None)
    return Estimate(statistics.median(xs), lo, hi, "median")


def paired_ratio(a: list, b: list) -> Optional[Estimate]:
    """a_k ÷ b_k over the rounds k both measured (positive, finite), as the
    median of those ratios with its interval (basis "paired"); None when no
    round pairs. a and b are one group's rounds, index k the same round."""
    ratios = [x / y for x, y in zip(a, b)
              if x is not None and y is not None and math.isfinite(x) and math.isfinite(y)
              and y > 0 and x >= 0]
    estimate = median_estimate(ratios)
    return None if estimate is None else Estimate(estimate.value, estimate.lo, estimate.hi,
                                                  "paired")


def unpaired_ratio(a: list, b: list, seed: int = BOOTSTRAP_SEED) -> Optional[Estimate]:
    """median(a) ÷ median(b) of two configurations timed in different
    groups, with a percentile bootstrap interval (each sample resampled
    apart, BOOTSTRAP_RESAMPLES times, seeded: the same input gives the same
    interval). No interval when either has fewer than MIN_VALUES rounds;
    None when either has none or b's median is not positive."""
    xs, ys = finite(a), finite(b)
    if not xs or not ys or statistics.median(ys) <= 0:
        return None
    value = statistics.median(xs) / statistics.median(ys)
    if len(xs) < MIN_VALUES or len(ys) < MIN_VALUES:
        return Estimate(value, None, None, "unpaired")
    rng = numpy.random.default_rng(seed)
    ax, ay = numpy.array(xs), numpy.array(ys)
    med_a = numpy.median(ax[rng.integers(0, len(xs), (BOOTSTRAP_RESAMPLES, len(xs)))], axis=1)
    med_b = numpy.median(ay[rng.integers(0, len(ys), (BOOTSTRAP_RESAMPLES, len(ys)))], axis=1)
    ratios = med_a / med_b
    tail = (1 - CONFIDENCE) / 2 * 100
    lo, hi = numpy.percentile(ratios, [tail, 100 - tail])
    return Estimate(value, min(float(lo), value), max(float(hi), value), "unpaired")


# How far a ratio moves between two runs beyond its own interval: two
# back-to-back quick sweeps on a shared 2-vCPU VM agreed on 94 to 96.5 % of
# their within-group ratios within 5 % (docs/measurement.md), while the
# intervals of one run are often narrower than that (a speed-up of 4.01-4.12
# in one sweep, 3.89-3.95 in the next). A verdict therefore needs its interval
# to clear the threshold by this share too; each run's interval is widened by
# half the 5 %, so that two runs can only say met and not met of one goal when
# they differ by more than 5 %.
RUN_TO_RUN = 0.025

# The widening of a figure that moves between runs far more than its
# interval, in any of three cases.
# - A configuration whose lookup structure (the table's memory_bytes) is
#   larger than the core's L2: its lookups wait on the L3 and DRAM that other
#   tenants share. Four pairs of back-to-back quick sweeps on a 2-vCPU Zen 5
#   VM (2026-12-07, 1,429 within-group ratios with intervals): the two runs'
#   intervals lay within 2 x 2.5 % of each other for 97.2 % of the 1,152
#   ratios of tables within L2, but for 92.8 % of the 277 of larger tables
#   (98.6 % within 2 x 10 %). One pair put the best ring kernel's speed-up
#   over lower_bound at 16M tokens at 48.0 (42.2-54.3) and 25.2 (21.8-27.7)
#   against a goal of 30: met and not met with 2.5 %, met and inconclusive
#   with 10 %.
# - An absolute time (ns/key, not a ratio): it follows the host's pace, which
#   a ratio of two kernels timed in the same rounds largely cancels. The
#   canary's fixed compute loop took a median of 137 to 160 us in quiet
#   sweeps of that VM and 168 us in one beside noise-check.sh's memory hammer;
#   the fastest jumpback kernel's worst N of `dense` read 0.933 (0.929-0.942)
#   ns/key in a quiet sweep and 1.08 (1.07-1.12) beside the hammer, against
#   at most 1 ns: met and not met with 2.5 %, inconclusive in both with 10 %.
# - A ratio of two comparison groups (an unpaired estimate, such as one
#   kernel at its slowest N ÷ at its fastest): the groups were timed minutes
#   apart, so it moves with the host's pace like an absolute time. In two
#   back-to-back quick sweeps on that VM (later the same day), the five O(1)
#   SIMD kernels' slowest-N ÷ fastest-N ratios differed by 9 to 15 % (3.68
#   against 3.38 for jumpback/simd, 3.96 against 3.45 for flip/simd), while
#   82.3 % of the within-group ratios agreed within 5 %.
RUN_TO_RUN_WIDE = 0.10


def run_to_run(wide: bool) -> float:
    """The widening of a figure's interval for a verdict: RUN_TO_RUN_WIDE for
    an absolute time, a ratio across comparison groups or a figure of a
    lookup structure larger than the core's L2 (goals.Judged.wide), else
    RUN_TO_RUN."""
    return RUN_TO_RUN_WIDE if wide else RUN_TO_RUN


def judge(estimate: Estimate, threshold: float, least: bool,
          margin: float = RUN_TO_RUN) -> str:
    """MET, NOT_MET or INCONCLUSIVE of one figure against "at least
    threshold" (least) or "at most threshold". With an interval [lo, hi],
    widened by `margin` m (run_to_run()) to [lo / (1 + m), hi × (1 + m)]: at least T is met
    when its low end ≥ T, not met when its high end < T; at most T met when
    the high end ≤ T, not met when the low end > T; else inconclusive (the
    interval straddles T, or comes nearer to it than two runs agree). A run
    without rounds (basis "point") is judged on its value (met / not met); a
    figure of rounds without an interval is inconclusive. Equality but for
    floating-point rounding counts as meeting T."""
    slack = abs(threshold) * 1e-9
    if estimate.basis == "point":
        low = high = estimate.value
    elif not estimate.has_interval:
        return INCONCLUSIVE
    else:
        low, high = estimate.lo / (1 + margin), estimate.hi * (1 + margin)
    if least:
        return MET if low >= threshold - slack else NOT_MET if high < threshold - slack \
            else INCONCLUSIVE
    return MET if high <= threshold + slack else NOT_MET if low > threshold + slack \
        else INCONCLUSIVE


def combine(outcomes: list) -> Optional[str]:
    """The outcome of a goal judged on several figures, the worst deciding:
    NOT_MET if any is, MET if all are, else INCONCLUSIVE; None for none."""
    if not outcomes:
        return None
    if NOT_MET in outcomes:
        return NOT_MET
    return MET if all(o == MET for o in outcomes) else INCONCLUSIVE


def figure_text(estimate: Estimate, unit: str = "×") -> str:
    """'2.41× (95 % interval 2.33–2.50)': the value and interval_text."""
    return f"{sig3(estimate.value)}{unit}" + interval_text(estimate)


def interval_text(estimate: Estimate) -> str:
    """' (95 % interval 2.33–2.50)', ' (no 95 % interval: fewer than 6
    rounds)' or '' for a run without rounds (its verdict says so)."""
    if estimate.has_interval:
        return f" ({LEVEL} interval {sig3(estimate.lo)}–{sig3(estimate.hi)})"
    if estimate.basis == "point":
        return ""
    return f" (no {LEVEL} interval: fewer than {MIN_VALUES} rounds)"


def fastest(candidates: list, ns_of: Callable, ratio_of: Callable) -> list:
    """The fastest of `candidates` (lowest ns_of(c), ns/key), alone when
    separated, else the tie: the candidates sorted by ns_of, cut to the
    fastest one when the runner-up ÷ it (ratio_of(runner-up, fastest), an
    Estimate or None) has an interval above 1 (lo > 1), or when the figures
    have no rounds at all (basis "point": the old rule, the lowest median);
    otherwise the fastest and every candidate whose ratio to it is not
    above 1 (None, no interval, or lo ≤ 1). [] for no candidate."""
    ranked = sorted(candidates, key=ns_of)
    if len(ranked) < 2:
        return ranked
    best = ranked[0]

    def separated(other) -> bool:
        ratio = ratio_of(other, best)
        if ratio is None:
            return False
        return ratio.basis == "point" or (ratio.has_interval and ratio.lo > 1)

    if separated(ranked[1]):
        return [best]
    return [best] + [c for c in ranked[1:] if not separated(c)]
