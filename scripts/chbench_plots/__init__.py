"""Plots and a Markdown report for one chbench run (scripts/plot.py is the
command; its docstring says what it writes).

One module per family of the bench, each with its plot and, where it has one,
its part of the report; the rest is shared:

  load.py      the bench's JSON: names, counters, repetitions -> Result
  families.py  the run's families (order, titles, parameters) and name segments
               (context "chbench_families"), or the fallback for older runs
  plots.py     THE PLOT TABLE: every plot's file, family, title, text, drawing
  registry.py  the run's kernel registry (context "chbench_registry"): schemes
               in order, which kernels are SIMD, their scalar rivals, knobs,
               the stream baseline
  goals.py     goals.toml: the goals and ratios the report computes, and the
               one evaluator of them; goals_report.py and ratios.py print them;
               goal_names.py checks their kernel and scheme names against the
               run's registry
  palette.py   a colour per scheme, by its place in the registry
  rings.py     the ring kernels of a family measured on one ring (RingPoint)
  rounds.py    a run timed in comparison groups (chbench_timing, chbench_groups):
               each member's rounds, its reference, paired and unpaired ratios
  intervals.py intervals of medians and ratios, verdicts met / not met /
               inconclusive, the tie rule for "the fastest"
  caches.py    the run's L2 and the results whose table is larger (the wider
               run-to-run margin of their verdicts)
  series.py    a family's results as plot lines
  style.py     colours, markers, axes and legends shared by every plot
  numeric.py   number formatting and log-log interpolation
  report.py    report.md; plot_text.py the text beside each plot
  main.py      the command line

No module knows a kernel by name: kernels, rivals and knobs come from the run's
registry, kernel names used by goals from goals.toml.
"""
