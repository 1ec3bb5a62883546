# Cross-compilation for aarch64 Linux with Debian's g++-aarch64-linux-gnu and
# the arm64 (multiarch) builds of the libraries:
#   bash scripts/install-deps.sh --toolchain aarch64
# Headers in /usr/include serve every architecture; libraries and CMake
# package files come from /usr/lib/aarch64-linux-gnu. Highway dispatches at run
# time from NEON (every aarch64 CPU has it) to SVE, SVE2, SVE_256 and SVE2_128.
#
# ctest runs the test programs under qemu-aarch64 (Debian's qemu-user), the
# CMAKE_CROSSCOMPILING_EMULATOR. The emulated CPU comes from the environment
# variable QEMU_CPU (qemu's default: "max", SVE2 with 512-bit vectors); the
# aarch64-* test presets set it, e.g. "cortex-a72" (NEON only) or
# "max,sve256=on" (SVE2 with 256-bit vectors). See scripts/test-arm.sh.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
# Never pick up a library of the build machine's own architecture.
set(CMAKE_IGNORE_PATH /usr/lib/x86_64-linux-gnu /lib/x86_64-linux-gnu
                      /usr/lib/x86_64-linux-gnu/cmake)

find_program(CHBENCH_QEMU_AARCH64 NAMES qemu-aarch64 qemu-aarch64-static)
if(CHBENCH_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${CHBENCH_QEMU_AARCH64})
endif()
