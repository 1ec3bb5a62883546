"""Family "profiles": production systems' key hashing with the library's
kernels, beside each system's own lookup where one was timed (report only)."""

from __future__ import annotations

from . import intervals, rounds
from .load import Result, Run
from .numeric import integer, sig3

# The kernel names of a system's own lookup (the bench's own_lookup_name):
# libmemcached itself for ketama, the reproduced own search for the others.
OWN_LOOKUPS = ("libmemcached", "own_lookup")


def section(run: Run) -> list:
    """Family `profiles`: each profile's kernels from key strings, and the ratio
    to the system's own lookup on the same keys in the same run."""
    results = run.family("profiles")
    if not results:
        return []
    lines = ["## Production profiles (family `profiles`)", "",
             "Keys hashed as each system hashes them (ketama: MD5; redis: CRC16 slot; kafka: "
             "murmur2; cassandra: Murmur3 token; maglev: XXH3) and looked up with the "
             "library's kernels, key hashing included, one thread; docs/profiles.md defines "
             "each profile. `libmemcached` is libmemcached's own `memcached_generate_hash` "
             "on the same keys and servers; `own_lookup` is the system's own search "
             "(a proxy's binary search over its own points, say) as the profile's "
             "reference reproduces it from the system's source, over the system's one-key "
             "hash. Their owners were checked identical to the kernels' before timing. "
             "Speed-up = median ns/key of the own lookup ÷ median ns/key of the "
             "kernel, both from this run; " + (
                 "spread = the median's 95 % interval over the rounds, and the speed-up's "
                 "interval beside it." if any(r.interval for r in results)
                 else "spread = fastest ... slowest repetition."), ""]
    client = {(r.scheme, r.nodes, r.vnodes, r.keys): r for r in results
              if r.kernel in OWN_LOOKUPS}
    lines += ["| profile | N | V | K | kernel | ns/key | spread | CV | vs own lookup |",
              "|---|---:|---:|---:|---|---:|---:|---:|---:|"]
    for r in sorted(results, key=lambda r: (r.scheme, r.nodes or 0, r.kernel not in OWN_LOOKUPS,
                                            r.order)):
        other = client.get((r.scheme, r.nodes, r.vnodes, r.keys))
        ratio = "–" if other is None or other is r else speedup_text(other, r)
        spread = (f"{sig3(r.ns_lo)} ... {sig3(r.ns_hi)}"
                  if r.ns_lo is not None and r.ns_hi is not None else "–")
        cv = f"{100 * r.cv:.1f}%" if r.cv is not None else "–"
        lines.append(f"| {r.scheme} | {integer(r.nodes)} | {integer(r.vnodes)} | "
                     f"{integer(r.keys)} | `{r.kernel}` | {sig3(r.ns)} | {spread} | {cv} | "
                     f"{ratio} |")
    lines.append("")
    return lines


def speedup_text(client: Result, r: Result) -> str:
    """The own lookup's ns/key ÷ r's: '2.41×', with its interval over the
    rounds where the run has one (rounds.ratio)."""
    estimate = rounds.ratio(client, r)
    if estimate is None:
        return f"{sig3(client.ns / r.ns)}×"
    return intervals.figure_text(estimate)
