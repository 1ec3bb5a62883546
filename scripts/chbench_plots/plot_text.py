"""The text beside each plot in report.md: the table's text (plots.py) with
the parts that depend on the run filled in (which kernel has which knob, the
clustered plot's reference, which line style is which scheme, the stream
baseline)."""

from __future__ import annotations

from typing import Optional


def filled(text: str, knobs: str, reference: Optional[str], lines: str,
           floor: Optional[str]) -> str:
    """A plot's text with {knobs} ('`a`: lockstep group, ...'), {reference}
    (the clustered plot's reference kernel, or None), {lines} (the line key
    of the nodes plot, 'solid: ring, ...') and {floor} (the stream
    baseline's name, or None) filled in."""
    if reference:
        ref = (f"The dashed line across each group, and the outlined bar, is `{reference}`, "
               "the reference; the figure above every other bar is its time ÷ the "
               "reference's, in red where it is slower.")
    else:
        ref = "No reference kernel: the goals file compares no kernel with this family."
    return (text.replace("{knobs}", knobs or "none in this run").replace("{reference}", ref)
            .replace("{lines}", lines)
            .replace("{floor}", f"`{floor}`" if floor else "the stream baseline"))
