"""What the guide prints beside each scheme besides its figures: how the
scheme was set up (its parameters' values, from the run's results where
the bench names them and from the lab's JSON for the lab's figures), and
the caveats its own page states (docs/schemes/*.md).

A caveat is one line of a scheme page that starts `Caveat:` (for the scheme
the page is named after, docs/schemes/<scheme>.md) or ``Caveat (`name`):``
(for the scheme `name`, on a page that covers several)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Optional

from .load import Result

CAVEAT = re.compile(r"^Caveat(?: \(`([A-Za-z0-9_]+)`\))?: (.+)$")
# Parameter (registry name) -> how a value is written, and the lab JSON key.
PARAMS = {"vnodes": ("V = {}", "vnodes"), "table_size": ("M = {}", "table_size"),
          "capacity": ("capacity A = {}", "capacity"), "probes": ("{} probes", "probes")}


def caveats(folder: Path) -> dict:
    """scheme -> [caveat text] of the pages in `folder` ({} if it is absent)."""
    out: dict = {}
    for page in sorted(folder.glob("*.md")) if folder.is_dir() else []:
        for line in page.read_text(encoding="utf-8").splitlines():
            m = CAVEAT.match(line.strip())
            if m:
                out.setdefault(m.group(1) or page.stem, []).append(m.group(2))
    return out


def setup_text(params: list, result: Optional[Result], lab: Optional[dict]) -> str:
    """'V = 100; capacity A = 10,000 (lab)': each parameter of the scheme
    (registry names) with its value: from the bench's result (the name's
    segments or its counters) where it carries one, else from the lab's JSON
    (marked "(lab)"); a parameter neither states is named with "default".
    '–' for a scheme without parameters."""
    parts = []
    for p in params:
        if p == "weights":
            parts.append("weights all 1")
            continue
        fmt, key = PARAMS.get(p, (p + " = {}", p))
        value = bench_value(p, result)
        if value is not None:
            parts.append(fmt.format(f"{value:,}"))
        elif lab is not None and lab.get(key) is not None:
            parts.append(fmt.format(f"{lab[key]:,}") + " (lab)")
        else:
            parts.append(f"{p}: default")
    return "; ".join(parts) if parts else "–"


def bench_value(param: str, r: Optional[Result]) -> Optional[int]:
    """The value of `param` the bench's result states, or None."""
    if r is None:
        return None
    if param == "vnodes":
        return r.vnodes
    if param == "table_size":
        return r.table_size
    if param == "capacity":
        return r.fleet_capacity or r.params.get("capacity")
    return r.params.get(param)
