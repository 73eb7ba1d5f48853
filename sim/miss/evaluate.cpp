// Layer conditions and misses of every reuse group at one parameter point.
#include "miss/evaluate.hpp"

#include <algorithm>
#include <cmath>

namespace cats::sim::miss {

namespace {

/* A loop iteration touching more than this many times a level's lines misses all its reuses there:
   no set keeps its share (and enumerating its lines would cost more than it tells). */
constexpr std::uint64_t kPartialFitLimit = 2;

/* "e" at "map" as a number, nullopt when a symbol is left. */
std::optional<double> numberAt(const sym::Expr& e, const GiNaC::exmap& map) {
  sym::Expr v = e.subs(map).evalf();
  if (!GiNaC::is_a<GiNaC::numeric>(v) || !GiNaC::ex_to<GiNaC::numeric>(v).is_real()) return std::nullopt;
  return GiNaC::ex_to<GiNaC::numeric>(v).to_double();
}

/* Iterations of "loop" from its numeric start, bound and step (0 when it does not run). */
double tripsOf(ir::Comparison cmp, double start, double bound, double step) {
  constexpr double eps = 1e-9;
  double t = 0;
  switch (cmp) {
    case ir::Comparison::Less: t = step > 0 ? std::ceil((bound - start) / step - eps) : 0; break;
    case ir::Comparison::LessEqual: t = step > 0 ? std::floor((bound - start) / step + eps) + 1 : 0; break;
    case ir::Comparison::Greater: t = step < 0 ? std::ceil((start - bound) / -step - eps) : 0; break;
    case ir::Comparison::GreaterEqual: t = step < 0 ? std::floor((start - bound) / -step + eps) + 1 : 0; break;
    case ir::Comparison::NotEqual: t = step != 0 ? (bound - start) / step : 0; break;
  }
  return std::max(0.0, t);
}

sym::Expr tripsFormula(ir::Comparison cmp, const sym::Expr& start, const sym::Expr& bound, const sym::Expr& step) {
  bool inclusive = cmp == ir::Comparison::LessEqual || cmp == ir::Comparison::GreaterEqual;
  return ((bound - start) / step + (inclusive ? 1 : 0)).expand();
}

struct Point {
  const Nest& nest;
  const cache::HierarchyConfig& config;
  const sym::Context& ctx;
  EvaluateOptions options;
  GiNaC::exmap params;
  std::vector<std::vector<double>> strides, offsets;  // [group]: numeric strides and member offsets
  Evaluation out;
  /* [level][group][position 0..d]: footprint with loops before "position" fixed. */
  std::vector<std::vector<std::vector<Footprint>>> lines;

  bool loopValues() {
    for (const LoopInfo& loop : nest.loops) {
      GiNaC::exmap numeric = params, symbolic;
      for (auto p = loop.parent; p; p = nest.loops[*p].parent) {
        numeric[nest.loops[*p].iterator] = GiNaC::numeric(static_cast<long>(out.loops[*p].mid * 2), 1) / 2;
        symbolic[nest.loops[*p].iterator] = out.loops[*p].midSym;
      }
      LoopValue v;
      if (loop.reason.empty()) {
        auto start = numberAt(loop.start, numeric), bound = numberAt(loop.bound, numeric), step = numberAt(loop.step, numeric);
        if (!start || !bound || !step) return unbound(loop.start + loop.bound + loop.step);
        v.trips = tripsOf(loop.comparison, *start, *bound, *step);
        v.mid = *start + *step * (v.trips - 1) / 2;
        if (!options.formulas) {
          out.loops.push_back(v);
          continue;
        }
        sym::Expr s = loop.start.subs(symbolic), b = loop.bound.subs(symbolic), st = loop.step.subs(symbolic);
        v.tripsSym = tripsFormula(loop.comparison, s, b, st);
        v.midSym = (s + st * (v.tripsSym - 1) / 2).expand();
      }
      out.loops.push_back(v);
    }
    return true;
  }

  bool unbound(const sym::Expr& e) {
    std::string names;
    for (const auto& s : sym::symbolsOfKind(e.subs(params), ctx, sym::SymbolKind::Parameter))
      names += (names.empty() ? "" : ", ") + s.get_name();
    out.reason = names.empty() ? "the model cannot evaluate " + sym::print(e) : "no value for the parameter " + names;
    return false;
  }

  /* Numeric strides and member offsets of every group (once: GiNaC substitution is the cost). */
  bool groupValues() {
    for (const Group& g : nest.groups) {
      std::vector<double> s, o;
      for (const auto& e : g.strides) {
        auto v = numberAt(e, params);
        if (!v) return unbound(e);
        s.push_back(std::abs(*v));
      }
      for (const auto& e : g.offsets) {
        auto v = numberAt(e, params);
        if (!v) return unbound(e);
        o.push_back(*v);
      }
      strides.push_back(std::move(s));
      offsets.push_back(std::move(o));
    }
    return true;
  }

  /* The walk of group "g" with its loops before "position" fixed. */
  Walk walkOf(std::size_t g, std::size_t position) const {
    const Group& group = nest.groups[g];
    Walk w;
    w.elementBytes = static_cast<double>(group.elementBytes);
    for (std::size_t k = 0; k < group.loops.size(); ++k) {
      const LoopValue& v = out.loops[group.loops[k]];
      bool fixed = k < position;
      w.dims.push_back({strides[g][k], fixed ? 1.0 : v.trips, group.strides[k], fixed ? sym::Expr(1) : v.tripsSym});
    }
    w.offsets = offsets[g];
    return w;
  }

  bool footprints() {
    std::size_t levels = config.levels.size();
    lines.assign(levels, std::vector<std::vector<Footprint>>(nest.groups.size()));
    for (std::size_t g = 0; g < nest.groups.size(); ++g) {
      const Group& group = nest.groups[g];
      for (std::size_t position = 0; position <= group.loops.size(); ++position) {
        Walk walk = walkOf(g, position);
        // The footprint depends on the line size only: levels sharing one (D1, L2, LL at 64 B) share it.
        std::map<std::int64_t, Footprint> byLineSize;
        for (std::size_t l = 0; l < levels; ++l) {
          std::int64_t lineBytes = config.levels[l].lineBytes;
          auto it = byLineSize.find(lineBytes);
          if (it == byLineSize.end()) it = byLineSize.emplace(lineBytes, footprint(walk, lineBytes, options.formulas)).first;
          lines[l][g].push_back(it->second);
        }
      }
    }
    out.loopLines.assign(levels, std::vector<double>(nest.loops.size(), 0));
    out.loopLinesSym.assign(levels, std::vector<sym::Expr>(nest.loops.size(), 0));
    out.programLines.assign(levels, 0);
    for (std::size_t l = 0; l < levels; ++l) {
      for (std::size_t loop = 0; loop < nest.loops.size(); ++loop) {
        Footprint f = unionIn(l, loop);
        out.loopLines[l][loop] = f.lines;
        out.loopLinesSym[l][loop] = f.linesSym;
      }
      out.programLines[l] = unionIn(l, std::nullopt).lines;
    }
    return true;
  }

  /* Whether group "group" never brings a line into level "l": it only writes, and the level does
     not allocate on a write miss (every write misses there, and nothing stays). */
  bool bypasses(std::size_t l, const Group& group) const {
    return group.writeOnly && config.levels[l].allocate == cache::AllocatePolicy::NoWriteAllocate;
  }

  /* Lines all groups touch in one iteration of "loop" (the whole program without one) at level
     "l". Groups of one container in different nests (other loops) touch the same data, as an
     initialisation and a kernel do: their union counts the largest; groups in one nest add up. */
  Footprint unionIn(std::size_t l, std::optional<std::size_t> loop) const {
    std::map<std::size_t, std::map<std::vector<std::size_t>, Footprint>> byContainer;
    for (std::size_t g = 0; g < nest.groups.size(); ++g) {
      const Group& group = nest.groups[g];
      if (bypasses(l, group)) continue;
      std::size_t position = 0;
      if (loop) {
        auto at = std::find(group.loops.begin(), group.loops.end(), *loop);
        if (at == group.loops.end()) continue;
        position = static_cast<std::size_t>(at - group.loops.begin()) + 1;
      }
      Footprint& sum = byContainer[group.container][group.loops];
      sum.lines += lines[l][g][position].lines;
      sum.linesSym += lines[l][g][position].linesSym;
    }
    Footprint total;
    for (const auto& [container, nests] : byContainer) {
      const Footprint* widest = nullptr;
      for (const auto& [loops, f] : nests)
        if (!widest || f.lines > widest->lines) widest = &f;
      total.lines += widest->lines;
      total.linesSym += widest->linesSym;
    }
    return total;
  }

  /* Whether group "g" reuses lines from one iteration of its loop at "position" to the next. */
  bool carriesReuse(std::size_t g, std::size_t position, std::int64_t line) const {
    double stride = strides[g][position];
    if (stride < line) return true;
    auto [lo, hi] = std::minmax_element(offsets[g].begin(), offsets[g].end());
    return lo != offsets[g].end() && stride <= *hi - *lo;
  }

  /* A conflict of group "g"'s reuse carried by the loop at "position" in "level", if any. */
  std::optional<Conflict> conflict(std::size_t g, std::size_t position, std::size_t l) {
    const cache::LevelConfig& level = config.levels[l];
    cache::Geometry geo = cache::geometryOf(level);
    if (level.associativity == 0 || geo.sets <= 1 || !carriesReuse(g, position, level.lineBytes)) return std::nullopt;
    const Footprint& f = lines[l][g][position + 1];
    double need = std::min(f.lines, static_cast<double>(geo.lines));
    if (need <= geo.ways) return std::nullopt;
    std::uint64_t enough = static_cast<std::uint64_t>(std::ceil(need / geo.ways));
    auto used = setsUsed(f, level.lineBytes, geo.sets, enough);
    if (!used || static_cast<double>(*used * geo.ways) >= need) return std::nullopt;
    Conflict c{g, position, l, *used, static_cast<std::uint64_t>(std::llround(f.lines)), padding(f, level, geo, need)};
    return c;
  }

  /* The padding of the widest stride that spreads "f"'s lines over enough sets, as a sentence. */
  std::string padding(const Footprint& f, const cache::LevelConfig& level, const cache::Geometry& geo, double need) const {
    Footprint padded = f;
    Dim* widest = nullptr;
    for (auto& r : padded.runs)
      for (auto& d : r.copies)
        if (!widest || d.stride > widest->stride) widest = &d;
    if (!widest) return "none found";
    for (auto& r : padded.runs)
      for (auto& d : r.copies)
        if (d.stride == widest->stride) d.stride += level.lineBytes;
    auto used = setsUsed(padded, level.lineBytes, geo.sets, geo.sets);
    std::string sets = used ? std::to_string(*used) : "enough";
    std::string text = "pad each row (stride " + std::to_string(std::llround(widest->stride - level.lineBytes)) + " bytes) by " +
                       std::to_string(level.lineBytes) + " bytes (one line): its lines then map to " + sets + " sets";
    if (used && static_cast<double>(*used * geo.ways) < need) text += " (still too few)";
    return text;
  }

  /* Share of group "g"'s lines in one iteration of "loop" that stay in level "l" although the
     iteration touches more lines than the level holds: under LRU a set survives a cyclic walk when
     it holds at most "ways" of the iteration's lines. Every container's base is taken at set 0, as
     the page-aligned blocks of the simulator's parameters are. */
  double survivingShare(std::size_t l, std::size_t loop, std::size_t g) const {
    const cache::LevelConfig& level = config.levels[l];
    cache::Geometry geo = cache::geometryOf(level);
    if (level.associativity == 0 || out.loopLines[l][loop] > kPartialFitLimit * static_cast<double>(geo.lines)) return 0;
    std::vector<std::uint32_t> occupancy(geo.sets, 0);
    std::vector<std::uint64_t> mine;
    auto sets = static_cast<std::int64_t>(geo.sets);
    for (std::size_t other = 0; other < nest.groups.size(); ++other) {
      const Group& group = nest.groups[other];
      auto at = std::find(group.loops.begin(), group.loops.end(), loop);
      if (at == group.loops.end()) continue;
      auto position = static_cast<std::size_t>(at - group.loops.begin());
      const Footprint& f = lines[l][other][position + 1];
      std::uint32_t weight = carriesReuse(other, position, level.lineBytes) ? 1 : 2;
      auto visit = [&](std::int64_t x) {
        auto set = static_cast<std::uint64_t>(((x % sets) + sets) % sets);
        occupancy[set] += weight;
        if (other == g) mine.push_back(set);
        return true;
      };
      if (!forEachLine(f, level.lineBytes, kPartialFitLimit * geo.lines, visit)) return 0;
    }
    if (mine.empty()) return 0;
    double surviving = 0;
    for (std::uint64_t set : mine) surviving += occupancy[set] <= geo.ways ? 1 : 0;
    return surviving / static_cast<double>(mine.size());
  }

  /* Misses of group "g" at level "l" when the reuse carried by its loop at "failing" (and by
     every loop outside it) misses: one load per line per iteration of that loop. */
  double missesIf(std::size_t l, std::size_t g, std::optional<std::size_t> failing) const {
    const Group& group = nest.groups[g];
    if (!failing) return lines[l][g][0].lines;
    double executions = 1;
    for (std::size_t k = 0; k <= *failing; ++k) executions *= out.loops[group.loops[k]].trips;
    return executions * lines[l][g][*failing + 1].lines;
  }

  void misses() {
    out.groups.assign(config.levels.size(), std::vector<GroupLevel>(nest.groups.size()));
    out.containerMisses.assign(config.levels.size(), {});
    for (std::size_t l = 0; l < config.levels.size(); ++l) {
      double capacity = effectiveCapacity(config, l);
      double line = config.levels[l].lineBytes;
      for (std::size_t g = 0; g < nest.groups.size(); ++g) {
        const Group& group = nest.groups[g];
        GroupLevel& result = out.groups[l][g];
        std::optional<std::size_t> outer;  // the failing loop outside result.failing
        bool conflicted = false;
        for (std::size_t q = 0; q < group.loops.size(); ++q) {
          bool fits = out.loopLines[l][group.loops[q]] * line <= capacity;
          auto c = conflict(g, q, l);
          if (c) out.conflicts.push_back(*c);
          if (!fits || c) {
            outer = result.failing;
            result.failing = q;
            conflicted = c.has_value();
          }
          if (!fits) result.tooLarge = q;
        }
        if (bypasses(l, group)) {
          double executions = static_cast<double>(group.accessesPerIteration);
          for (std::size_t loop : group.loops) executions *= out.loops[loop].trips;
          result.misses = executions;
          continue;
        }
        result.misses = missesIf(l, g, result.failing);
        if (result.failing && !conflicted && options.partialFits) {
          double share = survivingShare(l, group.loops[*result.failing], g);
          result.misses = (1 - share) * result.misses + share * missesIf(l, g, outer);
        }
      }
      containerTotals(l, out.programLines[l] * line <= capacity);
    }
  }

  /* Misses per container at level "l": the sum of its groups' misses, or its lines once when the
     whole program fits ("programFits") and every reuse between nests hits. */
  void containerTotals(std::size_t l, bool programFits) {
    std::map<std::size_t, double>& totals = out.containerMisses[l];
    if (!programFits) {
      for (std::size_t g = 0; g < nest.groups.size(); ++g) totals[nest.groups[g].container] += out.groups[l][g].misses;
      return;
    }
    std::map<std::size_t, std::map<std::vector<std::size_t>, double>> byContainer;
    for (std::size_t g = 0; g < nest.groups.size(); ++g) {
      if (bypasses(l, nest.groups[g])) totals[nest.groups[g].container] += out.groups[l][g].misses;
      else byContainer[nest.groups[g].container][nest.groups[g].loops] += lines[l][g][0].lines;
    }
    for (const auto& [container, nests] : byContainer) {
      double widest = 0;
      for (const auto& [loops, n] : nests) widest = std::max(widest, n);
      totals[container] += widest;
    }
  }
};

}  // namespace

double effectiveCapacity(const cache::HierarchyConfig& config, std::size_t level) {
  double bytes = static_cast<double>(config.levels.at(level).sizeBytes);
  if (config.inclusion == cache::Inclusion::Exclusive)
    for (std::size_t above = 0; above < level; ++above) bytes += static_cast<double>(config.levels[above].sizeBytes);
  return bytes;
}

Evaluation evaluate(const Nest& nest, const cache::HierarchyConfig& config, const sym::Context& ctx, const sym::ParamValues& values,
                    const EvaluateOptions& options) {
  Point p{nest, config, ctx, options, {}, {}, {}, {}, {}};
  for (const auto& [name, value] : values)
    if (auto s = ctx.find(name)) p.params[*s] = value;
  if (p.loopValues() && p.groupValues() && p.footprints()) p.misses();
  return std::move(p.out);
}

}  // namespace cats::sim::miss
