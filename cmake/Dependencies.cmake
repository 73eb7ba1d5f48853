# Finds every third-party library; see ../shared/TOOLCHAIN.md for why each line is as it is.
find_package(PkgConfig REQUIRED)
pkg_check_modules(ISL REQUIRED IMPORTED_TARGET isl)
pkg_check_modules(GINAC REQUIRED IMPORTED_TARGET ginac)

find_package(LLVM 14 CONFIG REQUIRED HINTS /usr/lib/llvm-14/lib/cmake/llvm NO_DEFAULT_PATH)
find_package(Clang CONFIG REQUIRED HINTS /usr/lib/llvm-14/lib/cmake/clang NO_DEFAULT_PATH)

find_package(nlohmann_json 3 REQUIRED)
find_package(fmt REQUIRED)
find_package(CLI11 CONFIG REQUIRED)

# The tooling frontend needs Clang's resource dir to find stddef.h and friends.
find_path(CATS_CLANG_STDDEF_DIR stddef.h
  PATHS ${LLVM_LIBRARY_DIR}/clang/${LLVM_PACKAGE_VERSION}/include
  NO_DEFAULT_PATH REQUIRED)
get_filename_component(CATS_CLANG_RESOURCE_DIR ${CATS_CLANG_STDDEF_DIR} DIRECTORY)
set(CATS_CLANG_DRIVER ${LLVM_TOOLS_BINARY_DIR}/clang)
message(STATUS "Clang resource dir: ${CATS_CLANG_RESOURCE_DIR}")
