"""A plot's PNG at the committed size: scaled down to COMMITTED_DPI (area
averaging) and stored with a palette of at most 256 colours, about a fifth
of the bytes of matplotlib's RGBA file at 150 dpi.

A palette PNG is taken as already committed-size and left alone, so that
shrinking twice changes nothing. The palette: the image's own colours when
it has at most 256, else a count-weighted k-means over its colours started
from the 256 commonest (white, the axes and the series' colours stay exact).
"""

from __future__ import annotations

import io
import struct
import zlib
from typing import Optional

import numpy as np

COMMITTED_DPI = 100
PALETTE_SIZE = 256
KMEANS_STEPS = 6
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


def resample_axis(image: np.ndarray, size: int, axis: int) -> np.ndarray:
    """`image` averaged down to `size` samples along `axis`: each output
    sample the mean of the input over its share of the axis (a box filter
    at fractional edges, through the running integral)."""
    n = image.shape[axis]
    moved = np.moveaxis(image, axis, 0).astype(np.float64)
    integral = np.concatenate([np.zeros((1,) + moved.shape[1:]), np.cumsum(moved, axis=0)])
    edges = np.linspace(0.0, n, size + 1)
    whole = np.floor(edges).astype(int).clip(0, n - 1)
    frac = (edges - whole)[(...,) + (None,) * (moved.ndim - 1)]
    at = integral[whole] + frac * moved[whole]
    out = (at[1:] - at[:-1]) / (n / size)
    return np.moveaxis(out, 0, axis)


def palette_of(colors: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """At most PALETTE_SIZE colours (rows of `colors`, float RGBA) standing for
    them all: the colours themselves when few, else k-means weighted by
    `counts`, started from the commonest."""
    if len(colors) <= PALETTE_SIZE:
        return colors
    order = np.argsort(-counts, kind="stable")
    centers = colors[order[:PALETTE_SIZE]].copy()
    for _ in range(KMEANS_STEPS):
        nearest = nearest_index(colors, centers)
        weight = np.bincount(nearest, counts, PALETTE_SIZE)
        for channel in range(colors.shape[1]):
            total = np.bincount(nearest, counts * colors[:, channel], PALETTE_SIZE)
            used = weight > 0
            centers[used, channel] = total[used] / weight[used]
    return np.round(centers)


def nearest_index(colors: np.ndarray, centers: np.ndarray) -> np.ndarray:
    """For each colour, the index of the nearest center (squared distance)."""
    out = np.empty(len(colors), dtype=np.int64)
    for start in range(0, len(colors), 8192):
        part = colors[start:start + 8192]
        distance = ((part[:, None, :] - centers[None, :, :]) ** 2).sum(axis=2)
        out[start:start + 8192] = distance.argmin(axis=1)
    return out


def indexed(pixels: np.ndarray) -> tuple:
    """(palette as uint8 rows, H×W uint8 indices) of an H×W×C uint8 image."""
    channels = pixels.shape[2]
    packed = np.zeros(pixels.shape[:2], np.uint32)
    for c in range(channels):  # one integer a colour: np.unique on rows is slow
        packed |= pixels[:, :, c].astype(np.uint32) << (8 * c)
    keys, inverse, counts = np.unique(packed.reshape(-1), return_inverse=True,
                                      return_counts=True)
    colors = np.stack([(keys >> (8 * c)) & 0xFF for c in range(channels)], 1).astype(np.float64)
    palette = palette_of(colors, counts)
    if palette is colors:
        index_of_color = np.arange(len(colors))
    else:
        index_of_color = nearest_index(colors, palette)
    indices = index_of_color[inverse.reshape(-1)].astype(np.uint8)
    return palette.astype(np.uint8), indices.reshape(pixels.shape[:2])


def chunk(kind: bytes, data: bytes) -> bytes:
    """One PNG chunk: length, type, data, CRC."""
    return struct.pack(">I", len(data)) + kind + data + struct.pack(
        ">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def encode_indexed(palette: np.ndarray, indices: np.ndarray, dpi: float) -> bytes:
    """A palette PNG (8-bit indices, tRNS when a colour is not opaque, pHYs)."""
    height, width = indices.shape
    head = struct.pack(">IIBBBBB", width, height, 8, COLOR_TYPE_PALETTE, 0, 0, 0)
    per_metre = int(round(dpi / INCH_M))
    rows = np.concatenate([np.zeros((height, 1), np.uint8), indices], axis=1)
    out = [SIGNATURE, chunk(b"IHDR", head),
           chunk(b"pHYs", struct.pack(">IIB", per_metre, per_metre, 1)),
           chunk(b"PLTE", palette[:, :3].tobytes())]
    if palette.shape[1] == 4 and (palette[:, 3] < 255).any():
        out.append(chunk(b"tRNS", palette[:, 3].tobytes()))
    out += [chunk(b"IDAT", zlib.compress(rows.tobytes(), 9)), chunk(b"IEND", b"")]
    return b"".join(out)


def shrink(png: bytes, source_dpi: float = 150.0) -> Optional[bytes]:
    """The committed-size palette PNG of `png`, or None when `png` already
    is a palette PNG. The source resolution is its pHYs chunk's, else
    `source_dpi`; a source at or below COMMITTED_DPI keeps its pixels.
    Raises ValueError when `png` is not a readable PNG."""
    parts = chunks(png)
    if parts["IHDR"][9] == COLOR_TYPE_PALETTE:
        return None
    from matplotlib import image as mpl_image

    try:
        pixels = mpl_image.imread(io.BytesIO(png), format="png")
    except Exception as err:  # PIL raises many kinds on a broken PNG
        raise ValueError(f"unreadable PNG ({err})") from None
    pixels = np.atleast_3d(pixels).astype(np.float64)
    if pixels.max() <= 1.0:
        pixels = pixels * 255.0
    if pixels.shape[2] == 4 and (pixels[:, :, 3] >= 254.5).all():
        pixels = pixels[:, :, :3]
    dpi = dpi_of(parts) or source_dpi
    scale = min(1.0, COMMITTED_DPI / dpi)
    height, width = (max(1, round(n * scale)) for n in pixels.shape[:2])
    small = resample_axis(resample_axis(pixels, height, 0), width, 1)
    palette, indices = indexed(np.clip(np.round(small), 0, 255).astype(np.uint8))
    return encode_indexed(palette, indices, dpi * scale)
