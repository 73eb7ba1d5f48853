// glibc 2.36's memset and memcpy as Cachegrind (Valgrind 3.19) counts them: the ifunc picks
// __memset_avx2_unaligned_erms and __memcpy_avx_unaligned_erms on the AVX2 host, and Valgrind
// counts `rep stosb`/`rep movsb` as one access per byte. Measured with a program calling both
// on n doubles (docs/register-model.md, "memset and memcpy for loops"):
//   memset   800 B: 28 writes, 12 misses;  16,000 B: 16,000 writes, 249 misses (one per line)
//   memcpy   800 B: 36 reads, 31 writes;   240,000 B: 239,962 reads, 239,956 writes;
//            2,560,000 B: 80,010 reads, 80,004 writes (32-byte non-temporal loop), misses per line.
#include "library_idioms.hpp"

#include <algorithm>
#include <map>
#include <optional>

namespace cats::sim {

namespace {

constexpr std::int64_t kVectorBytes = 32;                  // AVX2 vectors below and above the `rep` range
constexpr std::int64_t kRepStosbThreshold = 2048;          // glibc's __x86_rep_stosb_threshold
constexpr std::int64_t kRepMovsbThreshold = 4096;          // __x86_rep_movsb_threshold for 32-byte vectors
constexpr std::int64_t kNonTemporalThreshold = 2'359'296;  // 3/4 of the 3 MiB L3 share (bracketed by measurement: rep movsb at 2,048,000 B, vectors at 2,560,000 B)

/* The access width glibc uses for a call on "bytes" bytes. */
std::int64_t widthFor(const std::string& library, std::int64_t bytes) {
  if (library == "memset") return bytes >= kRepStosbThreshold ? 1 : kVectorBytes;
  return bytes >= kRepMovsbThreshold && bytes < kNonTemporalThreshold ? 1 : kVectorBytes;
}

/* "a" of a loop over "slot" from "start" moved to walk bytes: base at that loop's first
   iteration, plus the byte index in "walk" (or the fixed byte "at" when it is not negative). */
AccessOp byteWalk(const AccessOp& a, int slot, std::int64_t start, std::int64_t width, std::int64_t at, int walk) {
  std::vector<std::pair<int, std::int64_t>> terms;
  for (const auto& [s, c] : a.offset.terms())
    if (s != slot) terms.emplace_back(s, c);
  if (at < 0) terms.emplace_back(walk, 1);
  AccessOp out = a;
  out.offset = Formula::linear(a.offset.constantTerm() + a.offset.coefficientOf(slot) * start + std::max<std::int64_t>(at, 0), terms);
  out.bytes = static_cast<std::uint32_t>(width);
  out.repeat = 1;
  return out;
}

class Rewriter {
 public:
  Rewriter(const CompilationPlan& plan, std::vector<std::string>& notes) : plan_(plan), notes_(notes) {}

  void block(Block& b) {
    Block kept;
    for (Op& op : b) {
      std::vector<Op> after;
      if (auto* l = op.loop()) {
        const LoopDecision* d = plan_.loop(l->scope);
        if (d && d->removed) continue;
        for (const DistributedStore& ds : plan_.distributed) {
          if (ds.nest != l->scope) continue;
          if (std::optional<LoopOp> call = distribute(*l, ds)) (ds.before ? kept : after).emplace_back().value = std::move(*call);
          else note("a store split out of its loop as memset (" + ds.reason + ") runs in the source loop: its bounds are not constant here");
        }
        if (!d || d->replacedBy.empty() || !rewrite(*l, *d))
          for (Block* inner : {&l->pre, &l->header, &l->body, &l->post}) block(*inner);
      } else if (auto* br = std::get_if<BranchOp>(&op.value)) {
        for (auto& arm : br->arms) block(arm.body);
      } else if (auto* f = std::get_if<FrameOp>(&op.value)) {
        block(f->body);
      }
      kept.push_back(std::move(op));
      for (Op& a : after) kept.push_back(std::move(a));
    }
    b = std::move(kept);
  }

 private:
  const CompilationPlan& plan_;
  std::vector<std::string>& notes_;
  struct CopySource {  // what a rewritten memcpy loop read: its source access, loop slot and start
    AccessOp read;
    int slot = 0;
    std::int64_t start = 0;
  };
  std::map<std::size_t, CopySource> copies_;  // by loop scope

  void note(const std::string& text) {
    if (std::find(notes_.begin(), notes_.end(), text) == notes_.end()) notes_.push_back(text);
  }

  /* byteWalk of "a", or of the earlier copy's source when "a" is the read of a memcpy that
     Clang's MemCpyOpt makes copy from there (LoopDecision::copiesFrom). */
  AccessOp walk(const AccessOp& a, int slot, std::int64_t start, std::int64_t width, std::int64_t at, const LoopDecision& d) const {
    auto from = d.copiesFrom ? copies_.find(*d.copiesFrom) : copies_.end();
    if (a.write || from == copies_.end()) return byteWalk(a, slot, start, width, at, slot);
    return byteWalk(from->second.read, from->second.slot, from->second.start, width, at, slot);
  }

  /* "loop" as the library call: a loop over the bytes in glibc's access width, the last
     (overlapping) access placed at the end as glibc's tail store is. */
  bool rewrite(LoopOp& loop, const LoopDecision& d) {
    const std::string& library = d.replacedBy;
    auto start = loop.start.constantValue(), end = loop.end.constantValue();
    std::vector<AccessOp> accesses;
    for (const Op& op : loop.body)
      if (const auto* a = std::get_if<AccessOp>(&op.value)) accesses.push_back(*a);
    bool linear = std::all_of(accesses.begin(), accesses.end(), [&](const AccessOp& a) {
      return !a.randomOffset && a.offset.isLinear() && a.offset.coefficientOf(loop.slot) > 0;
    });
    if (!start || !end || !loop.increasing || loop.tripsFromData || loop.segment || accesses.empty() || !linear ||
        accesses.size() != loop.body.size() || !loop.header.empty()) {
      note("a loop replaced by " + library + " whose bounds vary with an outer loop runs as the source loop (not as " + library + ")");
      return false;
    }
    std::int64_t bytes = std::max<std::int64_t>(0, *end - *start) * accesses.front().offset.coefficientOf(loop.slot);
    loop = libraryCall(loop, accesses, *start, bytes, d);
    return true;
  }

  /* The call of "library" over "bytes" bytes that "accesses" of loop "shape" walk from
     iteration "start" on. */
  LoopOp libraryCall(const LoopOp& shape, const std::vector<AccessOp>& accesses, std::int64_t start, std::int64_t bytes, const LoopDecision& d) {
    std::int64_t width = std::min(widthFor(d.replacedBy, bytes), std::max<std::int64_t>(bytes, 1));
    LoopOp call = shape;
    call.start = Formula::constant(0);
    call.end = Formula::constant(bytes - bytes % width);
    call.step = Formula::constant(width);
    call.increasing = true;
    call.tripsFromData = call.segment = false;
    call.vectorFactor = 1;
    call.library = d.replacedBy;
    call.body.clear();
    call.pre.clear();
    call.header.clear();
    call.post.clear();
    for (const AccessOp& a : accesses) {
      if (!a.write && d.replacedBy == "memcpy") copies_[shape.scope] = CopySource{a, shape.slot, start};
      call.body.push_back(Op{walk(a, shape.slot, start, width, -1, d)});
    }
    if (bytes % width != 0 && bytes > width)
      for (const AccessOp& a : accesses) call.post.push_back(Op{walk(a, shape.slot, start, width, bytes - width, d)});
    return call;
  }

  /* Store "ds.store" taken out of the loop nest "nest" (DistributedStore) and returned as the
     memset over what it stored; nothing when the nest's bounds are not constant. */
  std::optional<LoopOp> distribute(LoopOp& nest, const DistributedStore& ds) {
    std::vector<LoopOp*> chain{&nest};  // outermost first, down to the loop that holds the store
    Block::iterator store;
    while (true) {
      Block& body = chain.back()->body;
      store = std::find_if(body.begin(), body.end(), [&](const Op& op) {
        const auto* a = std::get_if<AccessOp>(&op.value);
        return a && a->tag == ds.store;
      });
      if (store != body.end()) break;
      LoopOp* next = nullptr;
      for (Op& op : body)
        if (auto* l = op.loop()) next = next ? nullptr : l;
      if (!next) return std::nullopt;
      chain.push_back(next);
    }
    const AccessOp a = std::get<AccessOp>(store->value);
    if (a.randomOffset || !a.offset.isLinear() || a.repeat != 1) return std::nullopt;
    std::int64_t covered = a.bytes;  // bytes of one run of the loops below the current one
    std::int64_t first = a.offset.constantTerm();
    std::vector<int> slots;
    for (auto l = chain.rbegin(); l != chain.rend(); ++l) {
      auto start = (*l)->start.constantValue(), end = (*l)->end.constantValue(), step = (*l)->step.constantValue();
      if (!start || !end || !step || *step != 1 || !(*l)->increasing || (*l)->tripsFromData || (*l)->segment) return std::nullopt;
      if (a.offset.coefficientOf((*l)->slot) != covered) return std::nullopt;  // not the bytes right after the last run's
      first += covered * *start;
      covered *= std::max<std::int64_t>(0, *end - *start);
      slots.push_back((*l)->slot);
    }
    std::vector<std::pair<int, std::int64_t>> terms;  // the slots of loops around the nest stay
    for (const auto& [slot, c] : a.offset.terms())
      if (std::find(slots.begin(), slots.end(), slot) == slots.end()) terms.emplace_back(slot, c);
    AccessOp byte = a;  // one byte per iteration of a loop from 0: the shape libraryCall walks
    terms.emplace_back(nest.slot, 1);
    byte.offset = Formula::linear(first, terms);
    chain.back()->body.erase(store);
    LoopDecision call;
    call.replacedBy = "memset";
    return libraryCall(nest, {byte}, 0, covered, call);
  }
};

}  // namespace

void runLibraryIdioms(Block& block, const CompilationPlan& plan, std::vector<std::string>& notes) { Rewriter(plan, notes).block(block); }

}  // namespace cats::sim
