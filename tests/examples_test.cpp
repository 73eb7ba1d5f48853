// End to end: the class and stride of every access of every example, against the tables
// in tests/golden/<example>.accesses (regenerate with tests/update_golden.sh, then review).
#include "support.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <sstream>

using namespace cats;

namespace {

std::vector<std::string> expectedLines(const std::string& name) {
  std::istringstream in(test::readFile(test::sourcePath("tests/golden/" + name + ".accesses")));
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') lines.push_back(line);
  return lines;
}

}  // namespace

TEST_CASE("every access of every example is classified as expected", "[examples]") {
  struct Example {
    std::string golden;
    std::string path;
    std::vector<std::string> entries;
  };
  auto example = GENERATE(values<Example>({
      {"matmul-stack", "examples/matmul-stack", {}},
      {"matmul-static", "examples/matmul-static", {}},
      {"matmul-heap", "examples/matmul-heap", {}},
      {"matmul-heap.multiply", "examples/matmul-heap", {"multiply"}},
      {"matmul-ikj", "examples/matmul-ikj", {}},
      {"jacobi-2d", "examples/jacobi-2d", {}},
      {"transpose", "examples/transpose", {}},
      {"spmv-csr", "examples/spmv-csr", {}},
      {"particles-aos", "examples/particles-aos", {}},
      {"multifile", "examples/multifile/src", {}},
      {"alloc-in-loop", "examples/alloc-in-loop", {}},
      // examples/review: one program per file.
      {"review.matmul-ijk", "examples/review/matmul-ijk.c", {}},
      {"review.matmul-ikj-fixed", "examples/review/matmul-ikj-fixed.c", {}},
      {"review.column-sums", "examples/review/column-sums.c", {}},
      {"review.column-sums-fixed", "examples/review/column-sums-fixed.c", {}},
      {"review.column-sums-2d", "examples/review/column-sums-2d.c", {}},
      {"review.column-sums-2d-padded", "examples/review/column-sums-2d-padded.c", {}},
      {"review.wavefront", "examples/review/wavefront.c", {}},
      {"review.dot", "examples/review/dot.c", {}},
      {"review.two-passes", "examples/review/two-passes.c", {}},
      {"review.two-passes-fused", "examples/review/two-passes-fused.c", {}},
      {"review.two-passes-shifted", "examples/review/two-passes-shifted.c", {}},
      {"review.transpose", "examples/review/transpose.c", {}},
      {"review.transpose-tiled", "examples/review/transpose-tiled.c", {}},
      {"review.particles", "examples/review/particles.c", {}},
      {"review.particles-soa", "examples/review/particles-soa.c", {}},
      {"review.row-update", "examples/review/row-update.c", {}},
      {"review.row-update-restrict", "examples/review/row-update-restrict.c", {}},
      {"review.gather", "examples/review/gather.c", {}},
      {"review.gather-sorted", "examples/review/gather-sorted.c", {}},
  }));
  INFO(example.golden);
  test::AnalyzeOptions options;
  options.entries = example.entries;
  CHECK(test::accessLines(test::analyze({example.path}, options)) == expectedLines(example.golden));
}

TEST_CASE("every example directory is covered by the table above", "[examples]") {
  std::size_t directories = 0;
  for (const auto& entry : std::filesystem::directory_iterator(test::sourcePath("examples")))
    directories += entry.is_directory();
  CHECK(directories == 11);
}

TEST_CASE("naive matrix multiply: A stride-1, B stride-k by 8*n, C invariant in k", "[examples][matmul]") {
  test::AnalyzeOptions options;
  options.entries = {"multiply"};
  trace::Trace t = test::analyze({"examples/matmul-heap"}, options);
  const auto& a = test::findAccess(t, "A[i * n + k]", ir::AccessMode::Read);
  CHECK(a.classification.kind == trace::AccessClass::Stride1);
  CHECK(sym::print(*a.classification.strideBytes) == "8");
  const auto& b = test::findAccess(t, "B[k * n + j]", ir::AccessMode::Read);
  CHECK(b.classification.kind == trace::AccessClass::StrideK);
  CHECK(sym::print(*b.classification.strideBytes) == "8*n");
  CHECK(b.classification.strideIterator == "k");
  for (auto mode : {ir::AccessMode::Read, ir::AccessMode::Write}) {
    const auto& c = test::findAccess(t, "C[i * n + j]", mode);
    CHECK(c.classification.invariantInInnermostLoop);
    CHECK(t.scopes.at(*t.innermostLoop(c.scope)).iterator == "k");
  }
  for (const char* placement : {"examples/matmul-stack", "examples/matmul-static"}) {
    INFO(placement);
    trace::Trace p = test::analyze({placement});
    CHECK(test::findAccess(p, "A[i][k]", ir::AccessMode::Read).classification.kind == trace::AccessClass::Stride1);
    const auto& pb = test::findAccess(p, "B[k][j]", ir::AccessMode::Read);
    CHECK(pb.classification.kind == trace::AccessClass::StrideK);
    CHECK(sym::print(*pb.classification.strideBytes) == "1600");  // 8 * N with N = 200
    CHECK(test::findAccess(p, "C[i][j]", ir::AccessMode::Read, "matrix_mul").classification.invariantInInnermostLoop);
  }
}

TEST_CASE("CSR: x is indirect through col, the inner bounds are loads of rowptr", "[examples][spmv]") {
  trace::Trace t = test::analyze({"examples/spmv-csr"});
  const auto& x = test::findAccess(t, "x[col[j]]", ir::AccessMode::Read, "spmv");
  CHECK(x.classification.kind == trace::AccessClass::Indirect);
  CHECK(x.classification.indirectVia == std::vector<std::string>{"col"});
  CHECK(sym::print(x.offset) == "8*load(col, 4*j)");
}
