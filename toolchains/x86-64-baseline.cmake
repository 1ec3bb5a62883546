# Shared by x86-64-v2.cmake, x86-64-v3.cmake and x86-64-v4.cmake, which set
# CHBENCH_BASELINE to an x86-64 microarchitecture level and include this file:
# Debian's GCC with every translation unit compiled for that level. The
# top-level CMakeLists.txt turns the level into what Highway needs, so that it
# compiles (and dispatches to) no target below it.
include(${CMAKE_CURRENT_LIST_DIR}/gcc.cmake)
set(CMAKE_C_FLAGS_INIT "-march=${CHBENCH_BASELINE}")
set(CMAKE_CXX_FLAGS_INIT "-march=${CHBENCH_BASELINE}")
