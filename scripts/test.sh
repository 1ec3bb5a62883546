#!/usr/bin/env bash
# The test command: installs what is missing, configures and builds the
# Release preset, and runs every test through ctest: the Catch2 suites, the
# lab's and the bench's command-line checks, and the scripts' own tests.
#
# Usage: bash scripts/test.sh
# Exit status: ctest's (non-zero if any test fails).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/install-deps.sh
cmake --preset release
cmake --build --preset release
exec ctest --preset release
