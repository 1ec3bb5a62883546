#!/usr/bin/python3
"""Plots and a Markdown report for one chbench run.

Reads the Google Benchmark 1.7.1 JSON that build/release/bench/chbench_bench
writes (--benchmark_out=FILE --benchmark_out_format=json, run with
repetitions), with the kernel registry the bench records in its context
("chbench_registry": which kernels are SIMD, their scalar rivals, knobs, the
stream baseline, the scheme order), and writes into an existing folder:

  ring_tokens.png    ns/key vs ring tokens, per ring kernel, with the stream
                     floor                                     (family "tokens")
  latency.png        throughput beside latency vs ring tokens  ("tokens", "latency")
  inflight.png       ns/key vs keys in flight, per kernel and ring (family "inflight")
  clustered.png      ns/key on clustered tokens, vs a reference kernel (family "clustered")
  schemes_nodes.png  ns/key vs node count, every scheme        (family "nodes")
  threads.png        speed-up vs thread count, per kernel      (family "threads")
  batch.png          ns/key vs batch size K, per kernel        (family "batch")
  hashed.png         ns/key with key hashing included          (family "hashed")
  targets.png        SIMD speed-up over the scalar rival, per Highway target
                     (family "targets")
  weighted.png       weighted rendezvous' ns/key and SIMD speed-up at N = 64
                     and 1,000                                 (family "weighted")
  replicas.png       replica sets: ns/key against R, each point ÷ its R = 1
                                                               (family "replicas")
  report.md          machine and build, ratios, goals (chbench_plots/goals.toml,
                     or --goals FILE), ring kernels, SIMD targets, plots,
                     tables, checks

Each plot is written as PNG and SVG (--format png,svg,pdf picks; --theme dark
writes <plot>-dark.<format>; chbench_plots/output.py says how the files stay
the same from run to run). A family missing from the JSON gets no plot; the
report says so. A run from before the bench recorded its registry is drawn
with --registry LATER/bench.json, a later run's registry (it must list every
kernel the run measured; the report says whose it took). The code is
the package chbench_plots/ beside this file, one module per family.

Exit status: 0 on success; 2 when the input cannot be read, is not JSON
(corrupt or truncated), holds no chbench benchmarks or no kernel registry (or
a corrupt one), the goals file is unusable, or the output folder does not
exist or cannot be written; then nothing at all is written. 1 when matplotlib
is missing, or writing failed midway (the folder is left as it was).

Run it with Debian's interpreter, /usr/bin/python3, which sees
python3-matplotlib.
"""

import sys

from chbench_plots.main import main

if __name__ == "__main__":
    sys.exit(main())
