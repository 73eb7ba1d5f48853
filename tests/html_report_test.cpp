// `cats-static report`: the HTML file end to end, opened in a real browser (headless Chromium):
// it runs its script without console errors and its screenshot is not blank.
#include "support.hpp"

#include <catch2/catch.hpp>
#include <png.h>

#include <cstdlib>
#include <filesystem>
#include <regex>
#include <set>

namespace {

using cats::test::CliResult;
using cats::test::readFile;
using cats::test::runCli;
using cats::test::tempDir;

struct Browser {
  int exitCode = -1;
  std::string out;
  std::string err;
};

/* Chromium headless on "page" with "mode" (--dump-dom, --screenshot=FILE), its own profile. */
Browser runChromium(const std::string& page, const std::string& mode) {
  std::string dir = tempDir();
  std::string command = std::string(CATS_CHROMIUM) + " --headless=new --no-sandbox --disable-gpu --hide-scrollbars --no-first-run --user-data-dir=" + dir +
                        "/profile --enable-logging=stderr --v=0 --window-size=1280,1600 " + mode + " file://" + page + " >" + dir + "/out.txt 2>" + dir +
                        "/err.txt";
  Browser b;
  b.exitCode = std::system(command.c_str());
  b.out = readFile(dir + "/out.txt");
  b.err = readFile(dir + "/err.txt");
  return b;
}

/* Console messages Chromium logged: lines with ":CONSOLE" (errors and uncaught exceptions too). */
std::vector<std::string> consoleLines(const std::string& log) {
  std::vector<std::string> lines;
  std::istringstream in(log);
  for (std::string line; std::getline(in, line);)
    if (line.find(":CONSOLE") != std::string::npos) lines.push_back(line);
  return lines;
}

struct Picture {
  std::size_t width = 0, height = 0;
  std::size_t colours = 0;         // distinct RGB values
  double notBackground = 0;        // fraction of pixels unlike the top-left one
};

Picture readPng(const std::string& path) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  REQUIRE(png_image_begin_read_from_file(&image, path.c_str()) != 0);
  image.format = PNG_FORMAT_RGB;
  std::vector<png_byte> pixels(PNG_IMAGE_SIZE(image));
  REQUIRE(png_image_finish_read(&image, nullptr, pixels.data(), 0, nullptr) != 0);
  Picture p{image.width, image.height, 0, 0};
  std::set<std::uint32_t> seen;
  std::size_t other = 0;
  for (std::size_t i = 0; i + 2 < pixels.size(); i += 3) {
    std::uint32_t rgb = (std::uint32_t{pixels[i]} << 16) | (std::uint32_t{pixels[i + 1]} << 8) | pixels[i + 2];
    seen.insert(rgb);
    if (pixels[i] != pixels[0] || pixels[i + 1] != pixels[1] || pixels[i + 2] != pixels[2]) ++other;
  }
  p.colours = seen.size();
  p.notBackground = 3.0 * static_cast<double>(other) / static_cast<double>(pixels.size());
  return p;
}

bool looksBlank(const Picture& p) { return p.colours < 16 || p.notBackground < 0.02; }

std::string report(const std::string& dir, const std::string& args, CliResult* result = nullptr) {
  std::string out = dir + "/report.html";
  CliResult r = runCli("report " + args + " -o " + out);
  if (result) *result = r;
  INFO(r.err);
  REQUIRE(r.exitCode == 0);
  return out;
}

}  // namespace

TEST_CASE("report writes one self-contained page with every view", "[report][html]") {
  std::string dir = tempDir();
  CliResult run;
  std::string html = readFile(report(dir, "examples/matmul-heap -D N=64 --miss-classes", &run));
  CHECK(run.err.find("wrote") != std::string::npos);
  for (const char* id : {"summary", "cache", "timeline", "statistics", "control-flow", "source"})
    CHECK(html.find(std::string("<section id=\"") + id + "\">") != std::string::npos);
  CHECK(html.find("<section id=\"scaling\">") == std::string::npos);  // no sweep asked for
  // Nothing is fetched: no external scripts, styles, fonts or images.
  CHECK_FALSE(std::regex_search(html, std::regex(R"(<script[^>]+src=|<link |@import|url\(\s*['"]?https?:|<img )")));
  CHECK(html.find("https://") == std::string::npos);
  // The numbers are the simulation's: the summary's access total is simulate's.
  CliResult text = runCli("simulate examples/matmul-heap -D N=64 --format json");
  REQUIRE(text.exitCode == 0);
  std::smatch total;
  REQUIRE(std::regex_search(text.out, total, std::regex(R"("accesses": (\d+))")));
  std::string digits = total[1];
  std::string grouped;
  for (std::size_t i = 0; i < digits.size(); ++i) grouped += (i > 0 && (digits.size() - i) % 3 == 0 ? "," : "") + digits.substr(i, 1);
  CHECK(html.find("<li>" + grouped + " accesses;") != std::string::npos);
  // The source heat map colours the hot line of the kernel, and the timeline draws the three arrays.
  CHECK(html.find("C[i * n + j] += A[i * n + k] * B[k * n + j];") != std::string::npos);
  CHECK(std::regex_search(html, std::regex(R"re(<tr style="background:rgb\(255,\d+,\d+\)"><td class="num">\d+</td>)re")));
  for (const char* container : {">A (", ">B (", ">C ("}) CHECK(html.find(container) != std::string::npos);
  CHECK(html.find("Miss classes") != std::string::npos);
  for (const char* part : {"<h3>Traffic between levels</h3>", "<h3>Misses per set</h3>", "<h3>Cross-context reuse</h3>", "<svg class=\"sets\""})
    CHECK(html.find(part) != std::string::npos);
  // Same input, same bytes.
  CHECK(readFile(report(tempDir(), "examples/matmul-heap -D N=64 --miss-classes")) == html);
}

TEST_CASE("report draws scaling curves for --sweep and the dependences of the loops", "[report][html]") {
  std::string html = readFile(report(tempDir(), "examples/jacobi-2d -D N=100 --sweep N=50..200 --points 4"));
  CHECK(html.find("<section id=\"scaling\">") != std::string::npos);
  std::size_t charts = 0;
  for (std::size_t at = html.find("<svg class=\"curves\""); at != std::string::npos; at = html.find("<svg class=\"curves\"", at + 1)) ++charts;
  CHECK(charts == 4);  // accesses, footprint, D1 and LL misses
  CHECK(html.find("4 points of N from 50 to 200") != std::string::npos);
  CHECK(html.find("parallel (no carried dependence)") != std::string::npos);
  CHECK(html.find("carries flow on A") != std::string::npos);  // the time loop
  CHECK(html.find("Fusion candidates") != std::string::npos);
}

TEST_CASE("report shows data one kernel leaves in the cache for the next as cross-context reuse", "[report][html]") {
  std::string html = readFile(report(tempDir(), "tests/inputs/statistics/two_kernels.c"));
  // consume() hits 1,000 times on lines produce() brought into D1 (simulate --reuse-matrix's numbers).
  CHECK(html.find("<h4>D1: 1,375 hits, 375 by the context that brought the line in, 1,000 by another</h4>") != std::string::npos);
  CHECK(std::regex_search(html, std::regex(R"re(<td>#1 main &gt; produce@[^<]*</td><td class="num diagonal" style="background:[^"]+">375</td><td class="num" style="background:[^"]+">1,000</td>)re")));
}

TEST_CASE("report caps the timeline of a large trace, says so and exits 1", "[report][html]") {
  std::string dir = tempDir();
  CliResult run = runCli("report examples/jacobi-2d -D N=50 --max-events 5 -o " + dir + "/report.html");
  CHECK(run.exitCode == 1);
  CHECK(run.err.find("too large for one page") != std::string::npos);
  std::string html = readFile(dir + "/report.html");  // written whole, up to the cap
  CHECK(html.find("</html>") != std::string::npos);
  CHECK(run.err.find("warning: the memory timeline shows the first 5 of") != std::string::npos);
  CHECK(html.find("<p class=\"warning\">the memory timeline shows the first 5 of") != std::string::npos);
}

TEST_CASE("report rejects bad output paths and several configurations without leaving files", "[report][html]") {
  std::string dir = tempDir();
  CliResult unwritable = runCli("report examples/matmul-heap -D N=32 -o " + dir + "/missing/dir/report.html");
  CHECK(unwritable.exitCode == 1);
  CHECK(unwritable.err.find("cannot write") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir + "/missing"));
  CliResult several = runCli("report examples/matmul-heap -D N=32 --D1 32768,8,64 --D1 65536,8,64 -o " + dir + "/r.html");
  CHECK(several.exitCode == 2);
  CHECK(several.err.find("one cache configuration") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir + "/r.html"));
}

TEST_CASE("Chromium renders the report without console errors, and not blank", "[report][html][browser]") {
  REQUIRE(std::filesystem::exists(CATS_CHROMIUM));  // scripts/install-deps.sh installs Debian's chromium
  std::string page = report(tempDir(), "examples/jacobi-2d -D N=100 --sweep N=50..200 --points 3 --miss-classes");

  Browser dom = runChromium(page, "--dump-dom");
  REQUIRE(dom.exitCode == 0);
  CHECK(dom.out.find("data-ready=\"yes\"") != std::string::npos);  // the script ran to its end
  std::vector<std::string> console = consoleLines(dom.err);
  INFO(dom.err);
  REQUIRE(console.size() == 1);  // only the page's own "ready" message: no error, no warning
  CHECK(console.front().find("cats-static report ready") != std::string::npos);

  std::string shot = std::filesystem::path(page).parent_path() / "shot.png";
  Browser picture = runChromium(page, "--screenshot=" + shot);
  REQUIRE(picture.exitCode == 0);
  Picture p = readPng(shot);
  CHECK(p.width == 1280);
  CHECK_FALSE(looksBlank(p));

  // The blank check can fail: an empty page is blank, and a page whose script throws is caught.
  std::string dir = tempDir();
  std::string empty = cats::test::writeFile(dir, "empty.html", "<!DOCTYPE html><html><body></body></html>");
  REQUIRE(runChromium(empty, "--screenshot=" + dir + "/empty.png").exitCode == 0);
  CHECK(looksBlank(readPng(dir + "/empty.png")));
  std::string broken = cats::test::writeFile(dir, "broken.html", "<!DOCTYPE html><html><body><script>undefinedFunction();</script></body></html>");
  std::vector<std::string> errors = consoleLines(runChromium(broken, "--dump-dom").err);
  REQUIRE(errors.size() == 1);
  CHECK(errors.front().find("Uncaught ReferenceError") != std::string::npos);
}

TEST_CASE("report's design-review section lists review's findings with its numbers", "[report][html][review]") {
  const std::string args = "examples/review/column-sums-2d.c";
  std::string page = report(tempDir(), args);
  std::string html = readFile(page);
  REQUIRE(html.find("<section id=\"review\">") != std::string::npos);
  CHECK(html.find("<a href=\"#review\">Design review</a>") != std::string::npos);
  // Every finding of `review` is a row with its kind, place and D1 misses before and after.
  CliResult review = runCli("review " + args + " --format json");
  REQUIRE(review.exitCode == 0);
  static const std::regex finding(R"re("kind": "(\w[\w-]*)".*?"line": (\d+).*?"before": (\d+),\s*"after": (\d+))re");
  auto grouped = [](const std::string& digits) {
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) out += (i > 0 && (digits.size() - i) % 3 == 0 ? "," : "") + digits.substr(i, 1);
    return out;
  };
  std::string flat = std::regex_replace(review.out, std::regex("\n"), " ");
  std::size_t rows = 0;
  for (auto it = std::sregex_iterator(flat.begin(), flat.end(), finding); it != std::sregex_iterator(); ++it, ++rows) {
    INFO((*it)[0].str());
    CHECK(html.find("<tr><td>" + (*it)[1].str() + "</td>") != std::string::npos);
    CHECK(html.find("column-sums-2d.c:" + (*it)[2].str() + "</code>") != std::string::npos);
    CHECK(html.find("D1 " + grouped((*it)[3].str()) + " → " + grouped((*it)[4].str())) != std::string::npos);
  }
  CHECK(rows == 2);  // padding and interchange
  // The page renders in the browser with its new section, and without console errors.
  Browser dom = runChromium(page, "--dump-dom");
  REQUIRE(dom.exitCode == 0);
  CHECK(dom.out.find("data-ready=\"yes\"") != std::string::npos);
  CHECK(consoleLines(dom.err).size() == 1);
  // Code that is already good says so; --no-review leaves the section (and its simulations) out.
  CHECK(readFile(report(tempDir(), "examples/review/dot.c")).find("No finding") != std::string::npos);
  std::string without = readFile(report(tempDir(), args + " --no-review"));
  CHECK(without.find("<section id=\"review\">") == std::string::npos);
  CHECK(without.find("#review") == std::string::npos);
}
