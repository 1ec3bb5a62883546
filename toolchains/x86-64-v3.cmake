# GCC, native, for the x86-64-v3 level: AVX2, BMI2, FMA (Haswell, Zen and later); Highway's lowest target is AVX2.
# The binary does not start on an older CPU.
set(CHBENCH_BASELINE x86-64-v3)
include(${CMAKE_CURRENT_LIST_DIR}/x86-64-baseline.cmake)
