"""A run's bench JSON on disk: `bench.json`, Google Benchmark's file as the
bench wrote it, or `bench.json.gz`, the committed form (compact.py). Every
reader takes either; a run folder may hold both (run.sh writes both), and
then the full file is read.
"""

from __future__ import annotations

import gzip
import zlib
from pathlib import Path

from .errors import InputError

FULL_NAME = "bench.json"
COMPACT_NAME = "bench.json.gz"
GZIP_MAGIC = b"\x1f\x8b"


def in_folder(run_dir: Path) -> Path:
    """The bench JSON of a run folder: bench.json if it exists, else
    bench.json.gz if that exists, else bench.json (whose absence the reader
    then reports)."""
    full, compact = run_dir / FULL_NAME, run_dir / COMPACT_NAME
    return compact if compact.exists() and not full.exists() else full


def read_bytes(path: Path) -> bytes:
    """The JSON bytes of `path`, gunzipped when the file is gzip (by its
    first bytes, whatever its name). Raises InputError with one line: the
    file cannot be read, or is gzip but corrupt or cut short."""
    try:
        raw = path.read_bytes()
    except OSError as err:
        raise InputError(f"cannot read {path}: {err.strerror or err}") from None
    if not raw.startswith(GZIP_MAGIC):
        return raw
    try:
        return gzip.decompress(raw)
    except EOFError:
        raise InputError(f"{path} is cut short (the gzip stream ends early); "
                         "copy it again or re-run compact_run.py") from None
    except (OSError, zlib.error) as err:
        raise InputError(f"{path} is not a valid gzip file ({err}); is it corrupt?") from None
