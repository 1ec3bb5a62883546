# GCC, native, for the x86-64-v4 level: AVX-512 F/BW/CD/DQ/VL (Skylake-SP, Zen 4 and later); Highway's only target is AVX3.
# The binary does not start on an older CPU.
set(CHBENCH_BASELINE x86-64-v4)
include(${CMAKE_CURRENT_LIST_DIR}/x86-64-baseline.cmake)
