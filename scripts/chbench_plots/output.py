"""How a figure becomes files for a docs site: the formats (PNG, SVG, PDF),
the light or dark theme, text that needs none of the reader's fonts, and bytes
that do not change between two renders of the same data.

- SVG text is drawn as paths (rcParams svg.fonttype = "path") in DejaVu Sans,
  the font matplotlib ships, so a page shows the same letters on every
  machine; PDF embeds it as a TrueType font (pdf.fonttype = 42).
- svg.hashsalt is fixed and the Date / CreationDate metadata left out, so that
  a re-run on the same data writes identical SVG and PDF bytes, and the file
  names carry no date: `<plot>.<format>`, `<plot>-dark.<format>` for the dark
  theme.
- The dark theme keeps every series' colour (a kernel is the same colour in
  both) and turns the axes, text, grid and the grey or black lines light.

Used by plot.py, compare.py and lab_docs.py (the --format and --theme options).
"""

from __future__ import annotations

import argparse
import contextlib
import io
from typing import Iterator

FORMATS = ("png", "svg", "pdf")
DEFAULT_FORMATS = ("png", "svg")
THEMES = ("light", "dark")
HASH_SALT = "chbench"
DARK_BACKGROUND = "#0d1117"  # GitHub's dark page
DARK_FOREGROUND = "#e6edf3"

# Every theme: fonts matplotlib ships, text as paths in SVG, stable SVG ids.
COMMON_RC = {"font.family": "DejaVu Sans", "svg.fonttype": "path", "svg.hashsalt": HASH_SALT,
             "pdf.fonttype": 42, "path.simplify": True}
DARK_RC = {"figure.facecolor": DARK_BACKGROUND, "axes.facecolor": DARK_BACKGROUND,
           "savefig.facecolor": DARK_BACKGROUND, "axes.edgecolor": DARK_FOREGROUND,
           "axes.labelcolor": DARK_FOREGROUND, "axes.titlecolor": DARK_FOREGROUND,
           "text.color": DARK_FOREGROUND, "xtick.color": DARK_FOREGROUND,
           "ytick.color": DARK_FOREGROUND, "grid.color": "#8b949e",
           "legend.facecolor": "#161b22", "legend.edgecolor": "#8b949e"}
# What savefig writes for a date: nothing (one key per format's metadata).
NO_DATE = {"svg": {"Date": None}, "pdf": {"CreationDate": None, "ModDate": None}, "png": {}}


def parse_formats(text: str) -> tuple:
    """The argparse type of --format: 'png,svg' -> ('png', 'svg'), each once,
    in the order given. Raises argparse.ArgumentTypeError naming what is wrong."""
    items = [item.strip().lower() for item in text.split(",")]
    if not any(items):
        raise argparse.ArgumentTypeError("--format takes a comma list of png, svg, pdf; got "
                                         "an empty one")
    if "" in items:
        raise argparse.ArgumentTypeError(f"'{text}' has an empty item (a comma list of "
                                         f"{', '.join(FORMATS)})")
    unknown = [item for item in items if item not in FORMATS]
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown format {', '.join(repr(u) for u in unknown)} in '{text}' (choose from "
            f"{', '.join(FORMATS)})")
    return tuple(dict.fromkeys(items))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """--format LIST and --theme light|dark, as every plotting script takes them."""
    parser.add_argument("--format", dest="formats", type=parse_formats, metavar="LIST",
                        default=DEFAULT_FORMATS,
                        help="comma list of png, svg, pdf to write each plot as (default: "
                             "png,svg)")
    parser.add_argument("--theme", choices=THEMES, default="light",
                        help="light (default) or dark: dark plots are named <plot>-dark.<format>")


def file_name(stem: str, fmt: str, theme: str = "light") -> str:
    """'schemes_nodes', 'svg', 'dark' -> 'schemes_nodes-dark.svg'."""
    return f"{stem}{'-dark' if theme == 'dark' else ''}.{fmt}"


def embed_name(stem: str, formats: tuple, theme: str = "light") -> str:
    """The file a Markdown page shows for a plot: its PNG, else its SVG, else
    its PDF (one of `formats`)."""
    fmt = next((f for f in ("png", "svg", "pdf") if f in formats), formats[0])
    return file_name(stem, fmt, theme)


def all_names(stem: str, theme: str = "light") -> list:
    """Every file name a plot may have in one theme, for removing stale ones."""
    return [file_name(stem, fmt, theme) for fmt in FORMATS]


@contextlib.contextmanager
def theme(name: str) -> Iterator[None]:
    """The rcParams of a theme while figures are made and saved (matplotlib
    reads colours when an artist is made and fonts when a file is written)."""
    import matplotlib

    with matplotlib.rc_context({**COMMON_RC, **(DARK_RC if name == "dark" else {})}):
        yield


def _greyish(rgba) -> bool:
    """A dark grey or black, which vanishes on a dark background."""
    r, g, b = rgba[:3]
    return max(r, g, b) - min(r, g, b) < 0.08 and (r + g + b) / 3 < 0.55


def _lighten(rgba) -> tuple:
    """A dark grey turned into its light counterpart, alpha kept."""
    r, g, b = rgba[:3]
    return (1 - r * 0.6, 1 - g * 0.6, 1 - b * 0.6, rgba[3] if len(rgba) > 3 else 1.0)


def darken_background(fig) -> None:
    """For the dark theme: lines, markers and texts drawn in black or dark grey
    by the plotting code (theory lines, the stream floor, marks) turn light,
    and white label boxes dark; every other colour is kept."""
    from matplotlib.colors import to_rgba
    from matplotlib.lines import Line2D
    from matplotlib.text import Text

    for line in fig.findobj(Line2D):
        for get, put in ((line.get_color, line.set_color),
                         (line.get_markeredgecolor, line.set_markeredgecolor)):
            rgba = to_rgba(get())
            if _greyish(rgba):
                put(_lighten(rgba))
    for text in fig.findobj(Text):
        rgba = to_rgba(text.get_color())
        if _greyish(rgba):
            text.set_color(_lighten(rgba))
        box = text.get_bbox_patch()
        if box is not None and sum(box.get_facecolor()[:3]) > 1.8:  # a light label box
            box.set_facecolor(DARK_RC["legend.facecolor"])
            box.set_edgecolor(DARK_RC["legend.edgecolor"])


def encode(fig, fmt: str, dpi: float, theme_name: str = "light") -> bytes:
    """The figure as bytes of one format, with no date in them (call inside
    theme(theme_name))."""
    if theme_name == "dark":
        darken_background(fig)
    buf = io.BytesIO()
    fig.savefig(buf, format=fmt, dpi=dpi, metadata=NO_DATE[fmt])
    return buf.getvalue()


def encode_all(fig, stem: str, formats: tuple, dpi: float, theme_name: str = "light") -> dict:
    """{file name: bytes} of the figure in every format of `formats`."""
    return {file_name(stem, fmt, theme_name): encode(fig, fmt, dpi, theme_name)
            for fmt in formats}


# The figures a forked worker of encode_figures encodes, by stem: set in the
# parent before the workers fork, so that they inherit them (figures do not
# pickle cheaply).
_PENDING: dict = {}


def _encode_pending(job: tuple) -> dict:
    stem, formats, dpi, theme_name = job
    return encode_all(_PENDING[stem], stem, formats, dpi, theme_name)


def encode_figures(figs: dict, formats: tuple, dpi: float, theme_name: str = "light",
                   workers: int | None = None) -> dict:
    """{file name: bytes} of every figure of `figs` ({stem: Figure or None};
    None is skipped) in every format, as encode_all gives them, the figures
    spread over `workers` forked processes (default: one per CPU; serial
    with one CPU, one figure, or where fork is missing). Call inside
    theme(theme_name): the workers inherit it. The bytes are the same
    either way."""
    import multiprocessing
    import os

    _PENDING.clear()
    _PENDING.update((stem, fig) for stem, fig in figs.items() if fig is not None)
    jobs = [(stem, formats, dpi, theme_name) for stem in _PENDING]
    workers = min(workers or os.cpu_count() or 1, len(jobs))
    try:
        if workers < 2 or "fork" not in multiprocessing.get_all_start_methods():
            parts = list(map(_encode_pending, jobs))
        else:
            with multiprocessing.get_context("fork").Pool(workers) as pool:
                parts = pool.map(_encode_pending, jobs, chunksize=1)
    finally:
        _PENDING.clear()
    return {name: data for part in parts for name, data in part.items()}
