#!/usr/bin/env bash
# A stand-in for chbench-lab, for testing scripts/lab_docs.py without a build:
# --help prints a "Schemes:" line as the real lab's help does; any other
# command prints text that is not JSON.
set -euo pipefail
if [[ ${1:-} == --help ]]; then
  echo "Schemes: modn, ring, hrw (rendezvous), jump, maglev"
else
  echo "not json"
fi
