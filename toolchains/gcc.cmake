# Native build with Debian's GCC (the default toolchain).
set(CMAKE_C_COMPILER gcc)
set(CMAKE_CXX_COMPILER g++)
