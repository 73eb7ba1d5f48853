// Built into sanitizer builds only: LeakSanitizer reads these before any environment, so the
// test-listing step and child processes need no LSAN_OPTIONS. Only third-party libraries that
// keep allocations for the life of the process (CLN's caches, GiNaC's registry, LLVM) are listed.
extern "C" const char* __lsan_default_suppressions() {
  return "leak:libcln.so\nleak:libginac.so\nleak:libLLVM-14.so\nleak:libclang-cpp.so\n";
}

// Without this, every run prints which suppressions it used.
extern "C" const char* __lsan_default_options() { return "print_suppressions=0"; }
