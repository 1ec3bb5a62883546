"""The core's L2 as a run recorded it, and which configurations' lookup
structures are larger than it: those wait on the L3 and DRAM other tenants
share, and their verdicts take intervals.RUN_TO_RUN_WIDE."""

from __future__ import annotations

import json
from typing import Optional


def l2_bytes(context: dict) -> Optional[int]:
    """The core's L2 in bytes as the bench saw it: its noise rule's
    private_cache_bytes (context chbench_noise: sysfs, else the C library's),
    else the largest level-2 data or unified cache of Google Benchmark's
    `caches`; None when the run records neither. On a VM that shows no cache
    in sysfs the rule's size is the C library's, from the hypervisor's CPUID,
    which cpu_identity.py does not compare; for the L2, a per-core cache, it
    has been the CPU's on the VMs seen (1 MiB on the Zen 5 VM that reported an
    L3 of 508 MiB)."""
    rule = context.get("chbench_noise")
    try:
        size = json.loads(rule).get("private_cache_bytes") if isinstance(rule, str) else None
    except (ValueError, AttributeError, RecursionError):
        size = None
    if isinstance(size, (int, float)) and not isinstance(size, bool) and size > 0:
        return int(size)
    sizes = [size for level, size in data_caches(context) if level == 2]
    return max(sizes) if sizes else None


def data_caches(context: dict) -> list:
    """(level, bytes) of each data or unified cache in Google Benchmark's
    `caches` list, in its order; entries without a positive size left out."""
    caches = context.get("caches")
    out = []
    for cache in caches if isinstance(caches, list) else []:
        if not isinstance(cache, dict) or cache.get("type") not in ("Data", "Unified"):
            continue
        size = cache.get("size")
        if isinstance(size, (int, float)) and not isinstance(size, bool) and size > 0:
            out.append((cache.get("level"), size))
    return out


def mark_beyond_l2(results: list, context: dict) -> None:
    """Sets each load.Result's beyond_l2: its memory_bytes above l2_bytes
    (left None where either is unknown)."""
    l2 = l2_bytes(context)
    for r in results:
        if l2 is not None and r.memory_bytes is not None:
            r.beyond_l2 = r.memory_bytes > l2
