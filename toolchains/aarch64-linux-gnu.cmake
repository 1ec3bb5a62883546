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

# pkg-config (hiredis, libmurmurhash, libmemcached) reads the arm64 .pc files.
# libmemcached-dev:arm64 does not co-install with the amd64 package on
# bookworm (its dependency libsasl2-dev is not Multi-Arch: same), so the cross
# build links the arm64 runtime library (libmemcached11:arm64) with the headers
# of the amd64 libmemcached-dev, which are identical in every architecture
# (Multi-Arch: same): the link and .pc file its -dev package would ship are
# made here, under the build folder. CMake reads this file again for each
# try_compile, in the same process, with the try_compile's (temporary) binary
# folder: only the project's own reading may set the environment.
if(PROJECT_NAME STREQUAL "CMAKE_TRY_COMPILE")
  return()
endif()
set(_chbench_cross_dir "${CMAKE_BINARY_DIR}/cross-aarch64")
set(_chbench_memcached /usr/lib/aarch64-linux-gnu/libmemcached.so.11)
if(EXISTS "${_chbench_memcached}"
   AND NOT EXISTS /usr/lib/aarch64-linux-gnu/pkgconfig/libmemcached.pc)
  file(MAKE_DIRECTORY "${_chbench_cross_dir}/lib")
  file(CREATE_LINK "${_chbench_memcached}" "${_chbench_cross_dir}/lib/libmemcached.so" SYMBOLIC)
  file(WRITE "${_chbench_cross_dir}/pkgconfig/libmemcached.pc"
       "Name: libmemcached\n"
       "Description: arm64 libmemcached.so.11 with the headers in /usr/include (chbench)\n"
       "Version: 1.1.4\n"
       "Libs: -L${_chbench_cross_dir}/lib -lmemcached\n"
       "Cflags: -I/usr/include\n")
endif()
set(ENV{PKG_CONFIG_LIBDIR}
    "${_chbench_cross_dir}/pkgconfig:/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig")
