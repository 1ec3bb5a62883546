"""A plot's PNG at the committed size: scaled down to COMMITTED_DPI (box
filter) and stored with a palette of at most 256 colours, about a fifth of
the bytes of matplotlib's RGBA file at 150 dpi. Pillow (matplotlib's own
image library) scales and quantizes; this module decides sizes and keeps
the palette form idempotent.

A palette PNG is taken as already committed-size and left alone, so that
shrinking twice changes nothing.
"""

from __future__ import annotations

import io
import struct
from typing import Optional

COMMITTED_DPI = 100
PALETTE_SIZE = 256
SIGNATURE = b"\x89PNG\r\n\x1a\n"
COLOR_TYPE_PALETTE = 3
INCH_M = 0.0254


def chunks(png: bytes) -> dict:
    """{chunk type: data of its first occurrence} of a PNG. Raises ValueError
    when the bytes are not a PNG."""
    if not png.startswith(SIGNATURE):
        raise ValueError("not a PNG file")
    out, at = {}, len(SIGNATURE)
    while at + 8 <= len(png):
        length, kind = struct.unpack(">I4s", png[at:at + 8])
        out.setdefault(kind.decode("latin-1"), png[at + 8:at + 8 + length])
        at += 12 + length
    if "IHDR" not in out:
        raise ValueError("PNG without a header")
    return out


def dpi_of(parts: dict) -> Optional[float]:
    """The resolution a PNG's pHYs chunk records, in dots per inch, or None."""
    phys = parts.get("pHYs", b"")
    if len(phys) != 9 or phys[8] != 1:
        return None
    return struct.unpack(">I", phys[:4])[0] * INCH_M


def shrink(png: bytes, source_dpi: float = 150.0) -> Optional[bytes]:
    """The committed-size palette PNG of `png`, or None when `png` already
    is a palette PNG. The source resolution is its pHYs chunk's, else
    `source_dpi`; a source at or below COMMITTED_DPI keeps its pixels. The
    palette: the image's own colours when it has at most 256, else Pillow's
    median cut, without dithering (flat areas stay flat). Raises ValueError
    when `png` is not a readable PNG."""
    parts = chunks(png)
    if parts["IHDR"][9] == COLOR_TYPE_PALETTE:
        return None
    from PIL import Image

    try:
        image = Image.open(io.BytesIO(png))
        image.load()
    except Exception as err:  # Pillow raises many kinds on a broken PNG
        raise ValueError(f"unreadable PNG ({err})") from None
    image = image.convert("RGBA")
    if image.getchannel("A").getextrema()[0] >= 255:
        image = image.convert("RGB")
    dpi = dpi_of(parts) or source_dpi
    scale = min(1.0, COMMITTED_DPI / dpi)
    size = tuple(max(1, round(n * scale)) for n in image.size)
    small = image.resize(size, Image.Resampling.BOX) if size != image.size else image
    method = Image.Quantize.MEDIANCUT if small.mode == "RGB" else Image.Quantize.FASTOCTREE
    indexed = small.quantize(PALETTE_SIZE, method=method, dither=Image.Dither.NONE)
    out = io.BytesIO()
    indexed.save(out, format="PNG", optimize=True, dpi=(dpi * scale, dpi * scale))
    return out.getvalue()
