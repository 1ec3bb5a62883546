# Finds xxHash (Debian: libxxhash-dev), which ships no CMake package of its
# own, as the chbench build does: its header xxhash.h and its library.
#
# Sets XXHASH_INCLUDE_DIR and XXHASH_LIBRARY (cache variables: point them
# elsewhere to use another copy), xxHash_FOUND, and the imported target
# xxHash::xxhash. chbench's installed package config uses this module too
# (it is installed beside chbenchConfig.cmake).
find_path(XXHASH_INCLUDE_DIR xxhash.h)
find_library(XXHASH_LIBRARY xxhash)

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(xxHash REQUIRED_VARS XXHASH_LIBRARY XXHASH_INCLUDE_DIR)

if(xxHash_FOUND AND NOT TARGET xxHash::xxhash)
  add_library(xxHash::xxhash UNKNOWN IMPORTED)
  set_target_properties(xxHash::xxhash PROPERTIES
    IMPORTED_LOCATION "${XXHASH_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${XXHASH_INCLUDE_DIR}")
endif()
mark_as_advanced(XXHASH_INCLUDE_DIR XXHASH_LIBRARY)
