// Dependences with isl's dataflow analysis. Every access gets its own isl tuple ("S3_a1": access
// 1 of statement 3) with its statement's domain and schedule, so a dependence relation names the
// two accesses it joins. Flow dependences are value-based (the last write before a read, may-
// writes do not kill); anti and output dependences are taken the same way with writes as sinks,
// which gives the nearest read/write before each write: fewer relations with constant distances,
// and a loop carries a memory-based dependence exactly when it carries one of these.
#include "symbolic/dependences.hpp"

#include "dependence_loops.hpp"
#include "isl_adapter.hpp"

#include <algorithm>
#include <map>

namespace cats::sym {

std::string_view toString(DependenceKind kind) {
  switch (kind) {
    case DependenceKind::Flow: return "flow";
    case DependenceKind::Anti: return "anti";
    case DependenceKind::Output: return "output";
  }
  return "flow";
}

namespace {

using isl_adapter::Ctx;
using isl_adapter::IslError;

std::string tagName(std::size_t statement, std::size_t access) {
  return "S" + std::to_string(statement) + "_a" + std::to_string(access);
}

/* The statement and access indices of tuple "S3_a1". */
std::pair<std::size_t, std::size_t> parseTag(const std::string& tag) {
  auto underscore = tag.find("_a");
  return {std::stoul(tag.substr(1, underscore - 1)), std::stoul(tag.substr(underscore + 2))};
}

/// The access relations and schedules of every access, one tuple per access.
struct Relations {
  isl::union_map reads, mustWrites, mayWrites, schedule;
  std::map<std::string, isl::map> schedules;  // tag -> { tag[dims] -> [padded schedule] }
  unsigned width = 1;
};

/* "statement"'s schedule padded with zeros to "width" positions. */
std::vector<Expr> paddedSchedule(const DepStatement& statement, unsigned width) {
  std::vector<Expr> out = statement.schedule;
  out.resize(std::max<std::size_t>(width, out.size()), Expr(0));
  return out;
}

/* Adds the accesses of statement "s" to "r"; throws IslError when one is not affine. */
void addStatement(const Ctx& ctx, const DepStatement& statement, std::size_t s, Relations& r) {
  std::vector<std::pair<std::string, isl::map>> accesses, schedules;
  for (std::size_t a = 0; a < statement.accesses.size(); ++a) {
    const DepAccess& access = statement.accesses[a];
    std::string tag = tagName(s, a);
    accesses.emplace_back(tag, isl_adapter::toMap(ctx, isl_adapter::mapText(statement.domain, tag, access.container,
                                                                            access.subscripts)));
    schedules.emplace_back(tag, isl_adapter::toMap(ctx, isl_adapter::mapText(statement.domain, tag, "",
                                                                             paddedSchedule(statement, r.width))));
  }
  for (std::size_t a = 0; a < accesses.size(); ++a) {
    isl::union_map& target = statement.accesses[a].kind == DepAccessKind::Read        ? r.reads
                             : statement.accesses[a].kind == DepAccessKind::MustWrite ? r.mustWrites
                                                                                      : r.mayWrites;
    target = target.unite(isl::union_map(accesses[a].second));
    r.schedule = r.schedule.unite(isl::union_map(schedules[a].second));
    r.schedules.emplace(schedules[a].first, schedules[a].second);
  }
}

std::size_t commonLoops(const DepStatement& a, const DepStatement& b) {
  std::size_t n = 0;
  while (n < a.loops.size() && n < b.loops.size() && a.loops[n] == b.loops[n]) ++n;
  return n;
}

/* "{ [s] -> [t] : s_p = t_p for p < equalUpTo and t_later > s_later }" in "width" dims; "later"
   < 0 for none. */
isl::map orderConstraint(const Ctx& ctx, unsigned width, unsigned equalUpTo, int later) {
  std::string s, t, constraints;
  for (unsigned k = 0; k < width; ++k) {
    s += (k ? ", s" : "s") + std::to_string(k);
    t += (k ? ", t" : "t") + std::to_string(k);
  }
  for (unsigned k = 0; k < equalUpTo; ++k)
    constraints += (constraints.empty() ? "" : " and ") + ("s" + std::to_string(k) + " = t" + std::to_string(k));
  if (later >= 0)
    constraints += (constraints.empty() ? "" : " and ") +
                   ("t" + std::to_string(later) + " > s" + std::to_string(later));
  return isl_adapter::toMap(ctx, "{ [" + s + "] -> [" + t + "]" + (constraints.empty() ? "" : " : " + constraints) + " }");
}

Distance classify(const isl::set& values, int pos) {
  auto range = isl_adapter::coordinateRange(values, pos);
  Distance d;
  if (range.min && range.max && *range.min == *range.max) {
    d.value = *range.min;
  } else if (range.min && *range.min > 0) {
    d.direction = "<";
  } else if (range.max && *range.max < 0) {
    d.direction = ">";
  } else if (range.min && *range.min >= 0) {
    d.direction = "<=";
  } else if (range.max && *range.max <= 0) {
    d.direction = ">=";
  } else {
    d.direction = "*";
  }
  return d;
}

/* The Dependence of one piece "instances" (schedule space) carried at "level". */
Dependence describe(const isl::map& instances, unsigned width, std::size_t common,
                    std::optional<std::size_t> level, Dependence base) {
  isl::set deltas = instances.deltas();
  base.level = level;
  for (std::size_t m = 0; m < common; ++m)
    base.distance.push_back(classify(deltas, static_cast<int>(2 * m + 1)));
  if (2 * common + 1 < width) base.next = classify(deltas, static_cast<int>(2 * common + 1));
  return base;
}

/* Splits "relation" (tagged instances source -> sink) by the common loop that carries it. */
void splitByLevel(const Ctx& ctx, const std::vector<DepStatement>& statements, const Relations& r,
                  const isl::map& relation, DependenceKind kind, Dependences& out) {
  auto [s, a] = parseTag(relation.domain_tuple_id().name());
  auto [t, b] = parseTag(relation.range_tuple_id().name());
  Dependence base;
  base.kind = kind;
  base.source = s;
  base.sourceAccess = a;
  base.sink = t;
  base.sinkAccess = b;
  base.container = statements[s].accesses[a].container;
  isl::map timed = relation.apply_domain(r.schedules.at(tagName(s, a))).apply_range(r.schedules.at(tagName(t, b)));
  std::size_t common = commonLoops(statements[s], statements[t]);
  for (std::size_t k = 0; k < common; ++k) {
    isl::map piece = timed.intersect(orderConstraint(ctx, r.width, static_cast<unsigned>(2 * k + 1), static_cast<int>(2 * k + 1)));
    if (!piece.is_empty()) out.dependences.push_back(describe(piece, r.width, common, k, base));
  }
  isl::map independent = timed.intersect(orderConstraint(ctx, r.width, static_cast<unsigned>(2 * common), -1));
  if (!independent.is_empty()) out.dependences.push_back(describe(independent, r.width, common, std::nullopt, base));
}

void collect(const Ctx& ctx, const std::vector<DepStatement>& statements, const Relations& r,
             const isl::union_map& relations, bool writesAreSinks, Dependences& out) {
  std::vector<isl::map> maps;
  relations.foreach_map([&](const isl::map& m) { maps.push_back(m); });
  std::sort(maps.begin(), maps.end(), [](const isl::map& x, const isl::map& y) {
    auto kx = std::make_pair(parseTag(x.domain_tuple_id().name()), parseTag(x.range_tuple_id().name()));
    auto ky = std::make_pair(parseTag(y.domain_tuple_id().name()), parseTag(y.range_tuple_id().name()));
    return kx < ky;
  });
  for (const auto& m : maps) {
    DependenceKind kind = DependenceKind::Flow;
    if (writesAreSinks) {
      auto [s, a] = parseTag(m.domain_tuple_id().name());
      kind = statements[s].accesses[a].kind == DepAccessKind::Read ? DependenceKind::Anti : DependenceKind::Output;
    }
    splitByLevel(ctx, statements, r, m, kind, out);
  }
}

unsigned scheduleWidth(const std::vector<DepStatement>& statements) {
  std::size_t width = 1;
  for (const auto& s : statements) width = std::max(width, s.schedule.size());
  return static_cast<unsigned>(width);
}

}  // namespace

Dependences computeDependences(const std::vector<DepStatement>& statements, unsigned long maxOperations) {
  Dependences out;
  try {
    Ctx ctx(maxOperations);
    Relations r;
    r.width = scheduleWidth(statements);
    isl::union_map empty(ctx.get(), "{ }");
    r.reads = r.mustWrites = r.mayWrites = r.schedule = empty;
    for (std::size_t s = 0; s < statements.size(); ++s) {
      try {
        addStatement(ctx, statements[s], s, r);
      } catch (const IslError& e) {
        out.skipped.emplace_back(s, e.what());
      }
    }
    ctx.resetBudget();
    isl::union_map writes = r.mustWrites.unite(r.mayWrites);
    isl::union_map flow = isl::union_access_info(r.reads)
                              .set_must_source(r.mustWrites)
                              .set_may_source(r.mayWrites)
                              .set_schedule_map(r.schedule)
                              .compute_flow()
                              .may_dependence();
    isl::union_map falseDeps = isl::union_access_info(writes)
                                   .set_must_source(r.mustWrites)
                                   .set_may_source(r.reads.unite(r.mayWrites))
                                   .set_schedule_map(r.schedule)
                                   .compute_flow()
                                   .may_dependence();
    collect(ctx, statements, r, flow, false, out);
    collect(ctx, statements, r, falseDeps, true, out);
    deps_detail::summarise(ctx, statements, out);
  } catch (const isl::exception& e) {
    out.approximate = true;
    out.reason = std::string("isl gave up (operation budget or error): ") + e.what();
  } catch (const IslError& e) {
    out.approximate = true;
    out.reason = e.what();
  }
  if (!out.skipped.empty()) {
    out.approximate = true;
    if (out.reason.empty()) out.reason = out.skipped.front().second;
  }
  return out;
}

std::optional<std::size_t> reductionWrite(const DepStatement& statement, const std::string& container) {
  std::optional<std::size_t> write;
  std::vector<const DepAccess*> reads;
  for (std::size_t a = 0; a < statement.accesses.size(); ++a) {
    const DepAccess& access = statement.accesses[a];
    if (access.container != container) continue;
    if (access.multiplicity != 1) return std::nullopt;
    if (access.kind == DepAccessKind::Read) {
      reads.push_back(&access);
    } else if (write) {
      return std::nullopt;
    } else {
      write = a;
    }
  }
  if (!write || reads.empty()) return std::nullopt;
  const auto& target = statement.accesses[*write].subscripts;
  auto same = [&](const DepAccess* r) {
    if (r->subscripts.size() != target.size()) return false;
    for (std::size_t k = 0; k < target.size(); ++k)
      if (!GiNaC::expand(r->subscripts[k] - target[k]).is_zero()) return false;
    return true;
  };
  return std::all_of(reads.begin(), reads.end(), same) ? write : std::nullopt;
}

}  // namespace cats::sym
