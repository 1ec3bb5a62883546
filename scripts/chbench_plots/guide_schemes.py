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
from .registry import Param, Registry

CAVEAT = re.compile(r"^Caveat(?: \(`([A-Za-z0-9_]+)`\))?: (.+)$")
# The parameter table (kernels/chbench/params.h) as the bench exported it
# first, for a run whose registry has none.
LEGACY_PARAMS = (Param("vnodes", symbol="V", field="vnodes"),
                 Param("table_size", symbol="M", field="table_size"),
                 Param("weights", "per_node", symbol="W", default=1, field="weights"),
                 Param("capacity", symbol="A", field="fleet_capacity"),
                 Param("probes", symbol="k", field="probes"))


def params_of(registry: Registry, scheme: str) -> list:
    """The Param entries of the parameters `scheme` takes, in the scheme's
    order: the run's parameter table's, else LEGACY_PARAMS', else a bare
    Param of the name."""
    names = next((s.params for s in registry.schemes if s.name == scheme), ())
    legacy = {p.name: p for p in LEGACY_PARAMS}
    return [registry.param(n) or legacy.get(n) or Param(n, field=n) for n in names]


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
    """'V = 100; A = 10,000 (lab)': each parameter of the scheme (Param
    entries, params_of) with its value: from the bench's result (the name's
    segment, by the parameter's field) where it carries one, else from the
    lab's JSON (by the parameter's name, marked "(lab)"); a parameter neither
    states is named with "default", a per-node one by its default ("weights
    all 1"). '–' for a scheme without parameters."""
    parts = []
    for p in params:
        if p.kind == "per_node":
            parts.append(f"{p.name} all {p.default}" if p.default is not None else
                         f"{p.name}: default")
            continue
        value = result.params.get(p.field) if result is not None else None
        text = f"{value:,}" if value is not None else None
        if text is None and lab is not None and lab.get(p.name) is not None:
            text = f"{lab[p.name]:,} (lab)"
        parts.append(f"{p.symbol or p.name} = {text}" if text else f"{p.name}: default")
    return "; ".join(parts) if parts else "–"
