// ld.so's lazy binding (sim/lazy_binding.cpp): what one lookup touches, that it happens at a
// function's first call only, how the stream and the reports carry it, and the misses it costs
// a kernel against Cachegrind with and without `-Wl,-z,now`.
#include "sim/lazy_binding.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdlib>

using namespace cats;
using nlohmann::json;

namespace {

bool inRange(std::uint64_t a, std::uint64_t from, std::uint64_t to) { return a >= from && a < to; }

/* Whether "a" may hold the program's data: its statics, the brk heap (Valgrind reserves 8 MiB
   for it) or mmapped blocks (up to the stack's neighbourhood). */
bool onProgramData(std::uint64_t a, const sim::LayoutConstants& layout) {
  return inRange(a, layout.staticBase, layout.staticBase + 0x100000) || inRange(a, layout.heapBase, layout.heapBase + 0x800000) ||
         inRange(a, layout.mmapBase, layout.stackTop - 0x10000000);
}

}  // namespace

TEST_CASE("lazy binding: ld.so's lookup at a function's first call only, below the stack pointer and in the loader's tables",
          "[binding]") {
  sim::LayoutConstants layout;
  sim::LazyBinding binding(layout, false);
  const std::uint64_t sp = layout.stackTop - 0x40;
  auto first = binding.call("memset", sp);
  REQUIRE(first.size() > 100);
  std::size_t stack = 0, loader = 0, libc = 0, image = 0, writes = 0;
  for (const sim::LoaderAccess& a : first) {
    stack += inRange(a.address, sp - 0x800, sp + 64);  // the xsave area and the lookup's frames, in lines
    loader += inRange(a.address, layout.loaderBase, layout.libmBase);
    libc += inRange(a.address, layout.libcBase, layout.libcBase + 0x200000);
    image += inRange(a.address, layout.imageBase, layout.imageBase + 0x8000);
    writes += a.write;
  }
  CHECK(stack + loader + libc + image == first.size());  // nothing outside the regions a lookup reads
  sim::LazyBinding other(layout, false);  // nor on the program's data
  for (const char* function : {"memset", "posix_memalign", "aligned_alloc"})
    for (const sim::LoaderAccess& a : other.call(function, sp)) CHECK_FALSE(onProgramData(a.address, layout));
  CHECK(stack > 20);
  CHECK(loader > 20);
  CHECK(libc > 5);
  CHECK(image > 5);
  CHECK(writes > 20);  // xsave, and the GOT slot
  CHECK(binding.call("memset", sp).empty());  // bound: later calls go straight to the function
  CHECK_FALSE(binding.call("memcpy", sp).empty());
  CHECK(binding.call("strtok_r", sp).empty());  // not measured: named, nothing simulated
  CHECK(binding.bound() == std::vector<std::string>{"memset", "memcpy", "strtok_r"});
  CHECK(binding.unmeasured() == std::vector<std::string>{"strtok_r"});

  // With libm mapped, the lookup reads libm's tables too, and libc's from above libm.
  const sim::LayoutConstants mapped = sim::withLibm(layout);
  sim::LazyBinding withLibm(mapped, true);
  std::size_t inLibm = 0, aboveLibm = 0;
  for (const char* function : {"memset", "posix_memalign"})
    for (const sim::LoaderAccess& a : withLibm.call(function, sp)) {
      inLibm += inRange(a.address, mapped.libmBase, mapped.libcBase);
      aboveLibm += inRange(a.address, mapped.libcBase, mapped.libcBase + 0x200000);
      CHECK_FALSE(onProgramData(a.address, mapped));
    }
  CHECK(inLibm > 0);
  CHECK(aboveLibm > 10);
}

TEST_CASE("simulate: the loader's accesses are counted apart, and --binding now or -z now leaves them out", "[binding][cli]") {
  const std::string source = "tests/inputs/binding/reuse_after_memset.c";
  const std::string geometry = " --D1=32768,8,64 --LL=262144,8,64 --format json";
  auto lazy = test::runCli("simulate " + source + geometry);
  REQUIRE(lazy.exitCode == 0);
  json l = json::parse(lazy.out);
  REQUIRE(l.contains("loader"));
  CHECK(l["loader"]["functions"] == json::array({"memset"}));
  CHECK(l["loader"]["D1"]["reads"].get<std::uint64_t>() > 100);
  CHECK_FALSE(l.contains("minor_version"));  // a field added within version 1

  auto now = test::runCli("simulate " + source + geometry + " --binding now");
  REQUIRE(now.exitCode == 0);
  json n = json::parse(now.out);
  CHECK_FALSE(n.contains("loader"));
  CHECK(n["accesses"] == l["accesses"]);  // the program's accesses either way
  CHECK(n["totals"]["D1"]["reads"] == l["totals"]["D1"]["reads"]);
  // The lookup evicts LL lines of the array the kernel sweeps next (it fills the LL exactly).
  const auto llMisses = [](const json& j) { return j["totals"]["LL"]["read_misses"].get<std::uint64_t>() + j["totals"]["LL"]["write_misses"].get<std::uint64_t>(); };
  CHECK(llMisses(l) > llMisses(n) + 200);

  if (std::system("command -v gcc >/dev/null 2>&1") == 0) {
    // Every spelling that binds before main (readelf: BIND_NOW, or no PLT slots), and one that does not.
    for (const char* flags : {"-Wl,-z,now", "-Wl,-z,relro,-z,now", "-Wl,-z -Wl,now", "-Wl,-znow", "-Xlinker -z -Xlinker now", "-fno-plt", "-static"}) {
      auto linkedNow = test::runCli("simulate " + source + geometry + " --compile-cmd 'gcc -O2 " + flags + "'");
      INFO(flags);
      REQUIRE(linkedNow.exitCode == 0);
      CHECK_FALSE(json::parse(linkedNow.out).contains("loader"));
    }
    auto relro = test::runCli("simulate " + source + geometry + " --compile-cmd 'gcc -O2 -Wl,-z,relro'");
    REQUIRE(relro.exitCode == 0);
    CHECK(json::parse(relro.out).contains("loader"));
  }
  auto text = test::runCli("simulate " + source + " --D1=32768,8,64 --LL=262144,8,64");
  CHECK_THAT(text.out, Catch::Contains("loader: memset bound lazily by ld.so:"));
  CHECK(test::runCli("simulate " + source + " --binding later").exitCode == 2);
}

namespace {

/* LL misses of main and libc's memset under Cachegrind for "source" built with "flags"; -1 when
   gcc or valgrind is missing, or glibc and Valgrind are not the ones sim/lazy_binding_table.inc
   was measured with (2.36 and 3.19: another lookup touches other lines). */
long cachegrindLLMisses(const std::string& source, const std::string& flags) {
  if (std::system("command -v gcc >/dev/null 2>&1 && valgrind --version | grep -qx 'valgrind-3.19.0' && "
                  "ldd --version | head -n 1 | grep -q ' 2\\.36$'") != 0)
    return -1;
  std::string dir = test::tempDir();
  std::string run = "gcc -O2 -g " + flags + " '" + source + "' -o '" + dir + "/p' && valgrind --tool=cachegrind --cache-sim=yes " +
                    "--D1=32768,8,64 --LL=262144,8,64 --I1=32768,8,64 --cachegrind-out-file='" + dir + "/cg' '" + dir +
                    "/p' >/dev/null 2>&1 && python3 '" + CATS_SOURCE_DIR + "/bench/cachegrind_misses.py' '" + dir + "/cg' > '" + dir + "/m.json'";
  if (std::system(run.c_str()) != 0) return -1;
  long misses = 0;
  const json byFunction = json::parse(test::readFile(dir + "/m.json"));
  for (const auto& [function, counts] : byFunction.items())
    if (function == "main" || function.rfind("__mem", 0) == 0) misses += counts.value("DLmr", 0L) + counts.value("DLmw", 0L);
  return misses;
}

long predictedLLMisses(const std::string& source, const std::string& binding) {
  auto r = test::runCli("simulate '" + source + "' --D1=32768,8,64 --LL=262144,8,64 --format json --binding " + binding);
  REQUIRE(r.exitCode == 0);
  json t = json::parse(r.out)["totals"]["LL"];
  return t["read_misses"].get<long>() + t["write_misses"].get<long>();
}

}  // namespace

TEST_CASE("lazy binding's misses agree with Cachegrind, built the default way and with -z now", "[binding][fidelity]") {
  const std::string source = test::sourcePath("tests/inputs/binding/reuse_after_memset.c");
  const long lazy = cachegrindLLMisses(source, ""), now = cachegrindLLMisses(source, "-Wl,-z,now");
  if (lazy < 0 || now < 0) {
    WARN("gcc, Valgrind 3.19 or glibc 2.36 (the lookup table's) is not installed: nothing to compare with");
    return;
  }
  INFO("Cachegrind LL misses: " << lazy << " lazily bound, " << now << " with -z now");
  REQUIRE(lazy > now + now / 20);  // the case is one where binding matters (about 10 % here)
  CHECK(std::abs(predictedLLMisses(source, "lazy") - lazy) <= lazy / 50);
  CHECK(std::abs(predictedLLMisses(source, "now") - now) <= now / 50);
}
