# `cmake --install`: the kernel library chbench::kernels (static), its public
# headers, the CMake package (chbenchConfig.cmake, its version file, the
# exported targets and FindxxHash.cmake) and the pkg-config file chbench.pc.
# Included by the top-level CMakeLists.txt after kernels/.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(_chbench_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/chbench)

install(TARGETS chbench_kernels EXPORT chbenchTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        FILE_SET HEADERS DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT chbenchTargets NAMESPACE chbench:: DESTINATION ${_chbench_cmake_dir})

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/chbenchConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/chbenchConfig.cmake
                              INSTALL_DESTINATION ${_chbench_cmake_dir})
# 0.x: a new minor version may change the interface.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/chbenchConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/chbenchConfig.cmake
              ${PROJECT_BINARY_DIR}/chbenchConfigVersion.cmake
              ${CMAKE_CURRENT_LIST_DIR}/FindxxHash.cmake
        DESTINATION ${_chbench_cmake_dir})

# chbench.pc names its directories relative to its own folder (${pcfiledir}).
set(_chbench_pc_dir ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig)
file(RELATIVE_PATH CHBENCH_PC_PREFIX ${_chbench_pc_dir} ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" CHBENCH_PC_PREFIX "${CHBENCH_PC_PREFIX}")
file(RELATIVE_PATH CHBENCH_PC_LIBDIR ${CMAKE_INSTALL_PREFIX} ${CMAKE_INSTALL_FULL_LIBDIR})
file(RELATIVE_PATH CHBENCH_PC_INCLUDEDIR ${CMAKE_INSTALL_PREFIX} ${CMAKE_INSTALL_FULL_INCLUDEDIR})
configure_file(${CMAKE_CURRENT_LIST_DIR}/chbench.pc.in ${PROJECT_BINARY_DIR}/chbench.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/chbench.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
