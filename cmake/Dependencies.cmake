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

# Clang and LLVM for the frontend (cats_clang_libraries). The shared libclang-cpp and libLLVM cost
# every run about 30 ms of start-up on this class of machine (half a million relocations and
# ~3,000 page faults before main); linked from the archives, only what the frontend uses is
# loaded (docs/decisions.md, "Clang linked statically"). Debian's static Clang targets name the
# shared libLLVM as their dependency, so the archives are listed here with LLVM's static
# components instead. Sanitizer builds keep the shared libraries: their leak suppressions name
# them (cmake/lsan_suppressions.cpp) and start-up does not matter there.
if(CATS_STATIC_CLANG AND NOT CATS_SANITIZE)
  set(cats_clang_archives)
  foreach(component Tooling ToolingCore ToolingInclusions Frontend Driver Parse Serialization Sema Edit Analysis ASTMatchers AST
                    Lex Basic Format Rewrite APINotes)
    list(APPEND cats_clang_archives ${LLVM_LIBRARY_DIR}/libclang${component}.a)
  endforeach()
  string(REPLACE ";" "," cats_clang_group "${cats_clang_archives}")
  llvm_map_components_to_libnames(cats_llvm_components support option mc mcparser bitreader bitstreamreader core binaryformat
                                  remarks profiledata frontendopenmp demangle)
  set(cats_clang_libraries "-Wl,--start-group,${cats_clang_group},--end-group" ${cats_llvm_components})
  # GiNaC, CLN, isl and GMP too: their shared libraries cost every run about 1-2 ms of symbol
  # lookups (9,000 of them) and page faults (docs/decisions.md, "Start-up: archives and no PIE").
  foreach(archive ginac cln isl gmp)
    find_library(CATS_${archive}_ARCHIVE lib${archive}.a REQUIRED)
  endforeach()
  set(cats_isl_libraries ${CATS_isl_ARCHIVE} ${CATS_gmp_ARCHIVE})
  set(cats_ginac_libraries ${CATS_ginac_ARCHIVE} ${CATS_cln_ARCHIVE} ${CATS_gmp_ARCHIVE})
  message(STATUS "Clang, LLVM, GiNaC, CLN, isl, GMP: static archives")
else()
  set(cats_clang_libraries clang-cpp LLVM)
  set(cats_isl_libraries PkgConfig::ISL)
  set(cats_ginac_libraries PkgConfig::GINAC)
  message(STATUS "Clang and LLVM: shared libraries")
endif()
