# shellcheck shell=bash
# Sourced by test.sh and test-arm.sh: the builds go through ccache
# (install-deps.sh installs it), with paths relative to the tree
# (CCACHE_BASEDIR) and the build folder left out of the hash
# (CCACHE_NOHASHDIR), so that another build of the same sources with the same
# flags in a folder as deep, the install tests' library alone
# (tests/library_only_test.sh), reuses the preset build's objects. Settings
# already in the environment win; a build folder configured before keeps the
# launcher it was configured with.
if command -v ccache >/dev/null 2>&1; then
  export CMAKE_C_COMPILER_LAUNCHER=${CMAKE_C_COMPILER_LAUNCHER:-ccache}
  export CMAKE_CXX_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER:-ccache}
  export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD}
  export CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1}
fi
