# GCC, native, for the x86-64-v2 level: SSE4.2, POPCNT, SSSE3 (Nehalem and later); Highway's lowest target is SSE4.
# The binary does not start on an older CPU.
set(CHBENCH_BASELINE x86-64-v2)
include(${CMAKE_CURRENT_LIST_DIR}/x86-64-baseline.cmake)
