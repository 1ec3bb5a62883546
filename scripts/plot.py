#!/usr/bin/python3
"""Plots and a Markdown report for one chbench run.

Reads the Google Benchmark 1.7.1 JSON that build/release/bench/chbench_bench
writes (--benchmark_out=FILE --benchmark_out_format=json, run with
repetitions), with the kernel registry the bench records in its context
("chbench_registry": which kernels are SIMD, their scalar rivals, knobs, the
stream baseline, the scheme order), and writes into an existing folder:

  <plot>.png         one plot per family the run measured (a few families
                     have two, latency.png draws "tokens" beside "latency"):
                     chbench_plots/plots.py is the one table of them, each
                     with its family, title and the text the report gives it
  report.md          machine and build, ratios, goals (chbench_plots/goals.toml,
                     or --goals FILE), ring kernels, SIMD targets, plots,
                     tables, checks

--schemes LIST and --kernels LIST (scheme names; full scheme/kernel names)
make the plots that draw a line or panel per kernel draw only those kernels
(chbench_plots/subset.py; the report says so under each, and its tables stay
whole); an unknown name is bad input.

Each plot is written as PNG and SVG (--format png,svg,pdf picks; --theme dark
writes <plot>-dark.<format>; chbench_plots/output.py says how the files stay
the same from run to run). A family missing from the JSON gets no plot; the
report says so. The report follows the run's own family order and reads
each configuration's parameters from its name, as the run describes its
families and name segments (context "chbench_families"; a run from before
is read by the fallback chbench_plots/families.py documents). A run from
before the bench recorded its registry is drawn with --registry
LATER/bench.json, a later run's registry (it must list every kernel the run
measured; the report says whose it took). The code is
the package chbench_plots/ beside this file, one module per family.

Exit status: 0 on success; 2 when the input cannot be read, is not JSON
(corrupt or truncated), holds no chbench benchmarks or no kernel registry (or
a corrupt one, or a corrupt description of its families), --schemes or
--kernels names what the run does not know, the goals file is
unusable (or names a scheme or kernel the registry of a run that describes
its families lacks), or the output folder does not exist or cannot be
written; then nothing at all is written. 1 when matplotlib
is missing, or writing failed midway (the folder is left as it was).

Run it with Debian's interpreter, /usr/bin/python3, which sees
python3-matplotlib.
"""

import sys

import cli
from chbench_plots.main import main

if __name__ == "__main__":
    sys.exit(cli.exit_status(main))
