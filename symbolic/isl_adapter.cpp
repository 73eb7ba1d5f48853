// Conversion of our integer sets to isl text, parsed by isl: the text form keeps the adapter small
// and makes every set printable in a diagnostic.
#include "isl_adapter.hpp"

#include <isl/constraint.h>
#include <isl/options.h>
#include <isl/version.h>

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <set>
#include <sstream>

namespace cats::sym::isl_adapter {

Ctx::Ctx(unsigned long maxOperations) {
  checkIslLibrary();  // before any isl call: a wrong copy would give silently different answers
  ctx_ = isl_ctx_alloc();
  if (!ctx_) throw IslError("cannot allocate an isl context");
  isl_options_set_on_error(ctx_, ISL_ON_ERROR_CONTINUE);
  isl_ctx_set_max_operations(ctx_, maxOperations);
}

Ctx::~Ctx() { isl_ctx_free(ctx_); }

void Ctx::resetBudget() const { isl_ctx_reset_operations(ctx_); }

/* The wrong copy is libLLVM's (Polly's isl, built on imath); ours is Debian's libisl, shared or
   linked from its archive into the executable, and built on GMP. */
void checkIslLibrary() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&isl_ctx_alloc), &info) != 0 && info.dli_fname &&
      std::string(info.dli_fname).find("libLLVM") != std::string::npos)
    throw IslError(std::string("isl_ctx_alloc resolves to ") + info.dli_fname + ", not libisl: link isl before LLVM (TOOLCHAIN.md)");
  const char* version = isl_version();
  if (!version || !std::strstr(version, "GMP"))
    throw IslError(std::string("isl_version() is '") + (version ? version : "") +
                   "', not Debian's libisl (GMP): link isl before LLVM (TOOLCHAIN.md)");
}

namespace {

bool isIdentifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

const std::set<std::string>& islKeywords() {
  static const std::set<std::string> words{"and", "or", "not", "exists", "floor", "ceil", "mod", "min", "max",
                                           "true", "false", "infty", "NaN", "implies", "cond", "rat", "domain",
                                           "range", "mul", "div", "floord", "ceild", "xor", "to", "lexmin", "lexmax"};
  return words;
}

std::string numberText(const GiNaC::numeric& n) {
  if (!n.is_integer()) throw IslError("rational coefficient in an affine expression (scale by denominatorLcm)");
  std::ostringstream out;
  out << n;
  return out.str();
}

std::string functionName(const Expr& e) {
  return GiNaC::ex_to<GiNaC::function>(e).get_name();
}

}  // namespace

std::string islName(const std::string& name) {
  if (isIdentifier(name) && islKeywords().count(name) == 0 && name.rfind("v_", 0) != 0) return name;
  std::string out = "v_";
  for (char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      out += c;
    } else {
      static const char* hex = "0123456789abcdef";
      out += '_';
      out += hex[(static_cast<unsigned char>(c) >> 4) & 15];
      out += hex[static_cast<unsigned char>(c) & 15];
    }
  }
  return out;
}

long denominatorLcm(const Expr& e) {
  Expr x = GiNaC::expand(e);
  long l = 1;
  auto visit = [&](const Expr& term) {
    Expr coefficient = term;
    if (GiNaC::is_a<GiNaC::mul>(term)) {
      coefficient = 1;
      for (std::size_t k = 0; k < term.nops(); ++k)
        if (GiNaC::is_a<GiNaC::numeric>(term.op(k))) coefficient = term.op(k);
    }
    if (GiNaC::is_a<GiNaC::numeric>(coefficient)) {
      auto d = GiNaC::ex_to<GiNaC::numeric>(coefficient).denom();
      if (d.is_integer() && d.to_long() > 0) l = std::lcm(l, d.to_long());
    }
  };
  if (GiNaC::is_a<GiNaC::add>(x)) {
    for (std::size_t k = 0; k < x.nops(); ++k) visit(x.op(k));
  } else {
    visit(x);
  }
  return l;
}

std::string affineText(const Expr& input) {
  Expr e = GiNaC::expand(input);
  if (GiNaC::is_a<GiNaC::numeric>(e)) return numberText(GiNaC::ex_to<GiNaC::numeric>(e));
  if (GiNaC::is_a<GiNaC::symbol>(e)) return islName(GiNaC::ex_to<GiNaC::symbol>(e).get_name());
  if (GiNaC::is_a<GiNaC::add>(e)) {
    std::vector<std::string> terms;
    for (std::size_t k = 0; k < e.nops(); ++k) terms.push_back(affineText(e.op(k)));
    std::sort(terms.begin(), terms.end());  // deterministic text
    std::string out;
    for (const auto& t : terms) out += (out.empty() ? "" : " + ") + ("(" + t + ")");
    return out;
  }
  if (GiNaC::is_a<GiNaC::mul>(e)) {
    std::string number = "1";
    std::string factor;
    for (std::size_t k = 0; k < e.nops(); ++k) {
      const Expr& f = e.op(k);
      if (GiNaC::is_a<GiNaC::numeric>(f)) {
        number = numberText(GiNaC::ex_to<GiNaC::numeric>(f));
      } else if (factor.empty()) {
        factor = affineText(f);
      } else {
        throw IslError("not affine: product " + sym::print(e));
      }
    }
    return number + "*(" + factor + ")";
  }
  if (GiNaC::is_a<GiNaC::function>(e)) {
    std::string name = functionName(e);
    if (name == "idiv" || name == "imod") {
      auto divisor = toInteger(e.op(1));
      if (!divisor || *divisor <= 0) throw IslError("not affine: division by a non-constant in " + sym::print(e));
      long scale = denominatorLcm(e.op(0));
      if (name == "idiv")
        return "floor((" + affineText(e.op(0) * scale) + ")/" + std::to_string(*divisor * scale) + ")";
      if (scale != 1) throw IslError("not affine: remainder of a rational expression " + sym::print(e));
      return "((" + affineText(e.op(0)) + ") mod " + std::to_string(*divisor) + ")";
    }
    if (name == "min" || name == "max") {
      if (denominatorLcm(e.op(0)) != 1 || denominatorLcm(e.op(1)) != 1)
        throw IslError("not affine: rational operand of " + sym::print(e));
      return name + "(" + affineText(e.op(0)) + ", " + affineText(e.op(1)) + ")";
    }
  }
  throw IslError("not affine: " + sym::print(e));
}

std::string constraintText(const Constraint& c) {
  long scale = denominatorLcm(c.expr);
  return affineText(c.expr * scale) + (c.equality ? " = 0" : " >= 0");
}

std::string setText(const IntegerSet& set) {
  auto names = [](const std::vector<Symbol>& symbols) {
    std::string out;
    for (const auto& s : symbols) out += (out.empty() ? "" : ", ") + islName(s.get_name());
    return out;
  };
  std::string constraints;
  for (const auto& c : set.constraints) constraints += (constraints.empty() ? "" : " and ") + constraintText(c);
  std::string body;
  if (!set.existentials.empty()) {
    body = " : exists (" + names(set.existentials) + " : " + (constraints.empty() ? "true" : constraints) + ")";
  } else if (!constraints.empty()) {
    body = " : " + constraints;
  }
  std::string tuple = set.name.empty() ? "" : islName(set.name);
  return "[" + names(set.params) + "] -> { " + tuple + "[" + names(set.dims) + "]" + body + " }";
}

isl::set toSet(const Ctx& ctx, const IntegerSet& set) {
  std::string text = setText(set);
  try {
    ctx.resetBudget();
    return isl::set(ctx.get(), text);
  } catch (const isl::exception& e) {
    throw IslError(std::string("isl cannot read ") + text + ": " + e.what());
  }
}

std::int64_t countPoints(const Ctx& ctx, const IntegerSet& set, const ParamValues& values) {
  try {
    return countPoints(ctx, toSet(ctx, set), set.params, values);
  } catch (const IslError& e) {
    throw IslError(std::string(e.what()) + " in " + setText(set));
  }
}

std::int64_t countPoints(const Ctx& ctx, const isl::set& set, const std::vector<Symbol>& params,
                         const ParamValues& values) {
  try {
    isl::set s = set;
    for (const auto& param : params) {
      auto it = values.find(param.get_name());
      if (it == values.end()) throw IslError("no value for parameter '" + param.get_name() + "'");
      int position = isl_set_find_dim_by_name(s.get(), isl_dim_param, islName(param.get_name()).c_str());
      if (position < 0) continue;  // declared but unused
      s = isl::manage(isl_set_fix_val(s.release(), isl_dim_param, static_cast<unsigned>(position),
                                        isl_val_int_from_si(ctx.raw(), it->second)));
    }
    ctx.resetBudget();
    isl_val* v = isl_set_count_val(s.get());
    isl::val count = isl::manage(v);
    if (!v || isl_ctx_last_error(ctx.raw()) != isl_error_none) {
      isl_ctx_reset_error(ctx.raw());
      throw IslError("isl cannot count the set");
    }
    if (!count.is_int()) throw IslError("unbounded set");
    return count.get_num_si();
  } catch (const isl::exception& e) {
    throw IslError(std::string("isl cannot count the set: ") + e.what());
  }
}

namespace {

Expr rationalOf(isl_val* v) {
  isl::val value = isl::manage(v);
  if (!v || !value.is_rat()) throw IslError("isl gave a non-rational coefficient");
  return GiNaC::numeric(value.get_num_si()) / GiNaC::numeric(isl_val_get_den_si(value.get()));
}

/* The symbols of the parameters of "space" (an isl object with isl_dim_param), matched by name. */
template <typename NameOf>
std::vector<Expr> paramTerms(int count, NameOf nameOf, const std::vector<Symbol>& params) {
  std::vector<Expr> out;
  for (int k = 0; k < count; ++k) {
    const char* name = nameOf(k);
    auto it = std::find_if(params.begin(), params.end(),
                           [&](const Symbol& p) { return name && islName(p.get_name()) == name; });
    if (it == params.end()) throw IslError(std::string("isl parameter without a symbol: ") + (name ? name : "?"));
    out.push_back(*it);
  }
  return out;
}

std::string affString(isl_aff* aff) {
  char* text = isl_aff_to_str(aff);
  std::string out = text ? text : "";
  free(text);
  return out;
}

/* Division "k" of "bset", over "dims", "params" and the divisions "earlier" (read so far). */
Division readDivision(isl_basic_set* bset, int k, const std::vector<Symbol>& dims, const std::vector<Expr>& params,
                      const std::vector<Division>& earlier, const std::vector<std::string>& earlierText) {
  isl::aff aff = isl::manage(isl_basic_set_get_div(bset, k));
  if (aff.is_null()) throw IslError("isl cannot give a division");
  Expr e = rationalOf(isl_aff_get_constant_val(aff.get()));
  for (std::size_t p = 0; p < params.size(); ++p)
    e += rationalOf(isl_aff_get_coefficient_val(aff.get(), isl_dim_param, static_cast<int>(p))) * params[p];
  for (std::size_t d = 0; d < dims.size(); ++d)
    e += rationalOf(isl_aff_get_coefficient_val(aff.get(), isl_dim_in, static_cast<int>(d))) * dims[d];
  int localDivs = isl_aff_dim(aff.get(), isl_dim_div);
  for (int j = 0; j < localDivs; ++j) {
    Expr c = rationalOf(isl_aff_get_coefficient_val(aff.get(), isl_dim_div, j));
    if (c.is_zero()) continue;
    isl::aff inner = isl::manage(isl_aff_get_div(aff.get(), j));
    std::string text = affString(inner.get());
    auto it = std::find(earlierText.begin(), earlierText.end(), text);
    if (it == earlierText.end()) throw IslError("isl division refers to an unknown division " + text);
    e += c * earlier[static_cast<std::size_t>(it - earlierText.begin())].symbol;
  }
  long d = denominatorLcm(e);
  return Division{Symbol("cnt_q" + std::to_string(k)), GiNaC::expand(e * d), d};
}

struct ConstraintReader {
  const std::vector<Symbol>* dims;
  const std::vector<Expr>* params;
  const std::vector<Division>* divisions;
  std::vector<Constraint> out;
  std::string failure;
};

Constraint constraintTerms(isl_constraint* c, const std::vector<Symbol>& dims, const std::vector<Expr>& params,
                           const std::vector<Division>& divisions);

/* Appends "raw" (taken) in our terms to the ConstraintReader "user". */
isl_stat readConstraint(isl_constraint* raw, void* user) {
  struct Owner {
    isl_constraint* c;
    ~Owner() { isl_constraint_free(c); }
    isl_constraint* get() const { return c; }
  } c{raw};
  auto& r = *static_cast<ConstraintReader*>(user);
  try {
    r.out.push_back(constraintTerms(c.get(), *r.dims, *r.params, *r.divisions));
    return isl_stat_ok;
  } catch (const IslError& e) {
    r.failure = e.what();
    return isl_stat_error;
  }
}

Constraint constraintTerms(isl_constraint* c, const std::vector<Symbol>& dims, const std::vector<Expr>& params,
                           const std::vector<Division>& divisions) {
  Expr e = rationalOf(isl_constraint_get_constant_val(c));
  for (std::size_t p = 0; p < params.size(); ++p)
    e += rationalOf(isl_constraint_get_coefficient_val(c, isl_dim_param, static_cast<int>(p))) * params[p];
  for (std::size_t d = 0; d < dims.size(); ++d)
    e += rationalOf(isl_constraint_get_coefficient_val(c, isl_dim_set, static_cast<int>(d))) * dims[d];
  for (std::size_t d = 0; d < divisions.size(); ++d)
    e += rationalOf(isl_constraint_get_coefficient_val(c, isl_dim_div, static_cast<int>(d))) * divisions[d].symbol;
  return Constraint{GiNaC::expand(e), isl_constraint_is_equality(c) == isl_bool_true};
}

/* "bset" in our terms. */
BasicSetTerms readBasicSet(isl_basic_set* bset, const std::vector<Symbol>& dims, const std::vector<Symbol>& params) {
  std::vector<Expr> paramSymbols = paramTerms(
      isl_basic_set_dim(bset, isl_dim_param),
      [&](int k) { return isl_basic_set_get_dim_name(bset, isl_dim_param, static_cast<unsigned>(k)); }, params);
  BasicSetTerms terms;
  std::vector<std::string> divisionText;
  for (int k = 0; k < isl_basic_set_dim(bset, isl_dim_div); ++k) {
    terms.divisions.push_back(readDivision(bset, k, dims, paramSymbols, terms.divisions, divisionText));
    isl::aff aff = isl::manage(isl_basic_set_get_div(bset, k));
    divisionText.push_back(affString(aff.get()));
  }
  ConstraintReader reader{&dims, &paramSymbols, &terms.divisions, {}, {}};
  if (isl_basic_set_foreach_constraint(bset, readConstraint, &reader) < 0)
    throw IslError("isl cannot walk the constraints of a basic set" +
                   (reader.failure.empty() ? std::string() : ": " + reader.failure));
  terms.constraints = std::move(reader.out);
  return terms;
}

}  // namespace

std::vector<Constraint> divisionBounds(const Division& q) {
  return {Constraint{q.numerator - q.denominator * q.symbol, false},
          Constraint{q.denominator * q.symbol + q.denominator - 1 - q.numerator, false}};
}

std::vector<BasicSetTerms> disjointBasicSets(const Ctx& ctx, const isl::set& set, const std::vector<Symbol>& dims,
                                             const std::vector<Symbol>& params) {
  try {
    ctx.resetBudget();
    isl::set s = isl::manage(
        isl_set_make_disjoint(isl_set_remove_redundancies(isl_set_coalesce(isl_set_compute_divs(set.copy())))));
    if (s.is_null()) throw IslError("isl cannot simplify the set");
    if (isl_set_dim(s.get(), isl_dim_set) != static_cast<int>(dims.size()))
      throw IslError("set dimensions do not match");
    std::vector<BasicSetTerms> out;
    std::string failure;
    s.foreach_basic_set([&](const isl::basic_set& b) {
      if (!failure.empty()) return;
      try {
        out.push_back(readBasicSet(b.get(), dims, params));
      } catch (const IslError& e) {
        failure = e.what();
      }
    });
    if (!failure.empty()) throw IslError(failure);
    return out;
  } catch (const isl::exception& e) {
    throw IslError(std::string("isl cannot split the set: ") + e.what());
  }
}

namespace {

struct PointCollector {
  std::vector<std::string> names;
  std::vector<ParamValues> points;
  std::size_t maxPoints = 0;
};

/* Appends the coordinates of "raw" (taken) to the PointCollector "user". */
isl_stat collectPoint(isl_point* raw, void* user) {
  isl::point point = isl::manage(raw);
  auto& collector = *static_cast<PointCollector*>(user);
  if (collector.points.size() >= collector.maxPoints) return isl_stat_error;
  ParamValues values;
  for (std::size_t k = 0; k < collector.names.size(); ++k) {
    isl::val v = isl::manage(isl_point_get_coordinate_val(point.get(), isl_dim_set, static_cast<int>(k)));
    if (v.is_null() || !v.is_int()) return isl_stat_error;
    values[collector.names[k]] = v.get_num_si();
  }
  collector.points.push_back(std::move(values));
  return isl_stat_ok;
}

}  // namespace

std::optional<std::vector<ParamValues>> parameterPoints(const Ctx& ctx, const isl::set& set,
                                                        const std::vector<Symbol>& params, std::size_t maxPoints) {
  ctx.resetBudget();
  int count = isl_set_dim(set.get(), isl_dim_param);
  if (count < 0 || isl_set_dim(set.get(), isl_dim_set) != 0) return std::nullopt;
  PointCollector collector;
  collector.maxPoints = maxPoints;
  for (int k = 0; k < count; ++k) {
    const char* name = isl_set_get_dim_name(set.get(), isl_dim_param, static_cast<unsigned>(k));
    auto it = std::find_if(params.begin(), params.end(),
                           [&](const Symbol& p) { return name && islName(p.get_name()) == name; });
    if (it == params.end()) return std::nullopt;
    collector.names.push_back(it->get_name());
  }
  isl::set points = isl::manage(isl_set_move_dims(set.copy(), isl_dim_set, 0, isl_dim_param, 0,
                                                  static_cast<unsigned>(count)));
  if (points.is_null()) {
    isl_ctx_reset_error(ctx.raw());
    return std::nullopt;
  }
  if (isl_set_is_bounded(points.get()) != isl_bool_true) {
    isl_ctx_reset_error(ctx.raw());
    return std::nullopt;
  }
  if (isl_set_foreach_point(points.get(), collectPoint, &collector) < 0) {
    isl_ctx_reset_error(ctx.raw());
    return std::nullopt;
  }
  return collector.points;
}

bool isEmpty(const Ctx& ctx, const IntegerSet& set) {
  isl::set s = toSet(ctx, set);
  try {
    ctx.resetBudget();
    return s.is_empty();
  } catch (const isl::exception& e) {
    throw IslError(std::string("isl cannot decide emptiness: ") + e.what());
  }
}

isl::set imageSet(const Ctx& ctx, const IntegerSet& set, const std::vector<Expr>& subscripts, const std::string& name) {
  IntegerSet space = set;
  space.constraints.clear();
  space.existentials.clear();
  std::string domain = setText(space);
  std::string out;
  for (const auto& s : subscripts) {
    long scale = denominatorLcm(s);
    if (scale != 1) throw IslError("rational subscript " + sym::print(s));
    out += (out.empty() ? "" : ", ") + affineText(s);
  }
  std::string text = domain.substr(0, domain.rfind('}')) + " -> " + islName(name) + "[" + out + "] }";
  try {
    ctx.resetBudget();
    isl::map access(ctx.get(), text);
    return toSet(ctx, set).apply(access);
  } catch (const isl::exception& e) {
    throw IslError(std::string("isl cannot build the image under ") + text + ": " + e.what());
  }
}

}  // namespace cats::sym::isl_adapter

namespace cats::sym::isl_adapter {

std::string mapText(const IntegerSet& domain, const std::string& tuple, const std::string& range,
                    const std::vector<Expr>& outputs) {
  IntegerSet renamed = domain;
  renamed.name = tuple;
  std::string text = setText(renamed);
  std::string values;
  for (const auto& e : outputs) values += (values.empty() ? "" : ", ") + affineText(e);
  auto close = text.find(']', text.find("{ "));
  return text.substr(0, close + 1) + " -> " + (range.empty() ? "" : islName(range)) + "[" + values + "]" +
         text.substr(close + 1);
}

isl::map toMap(const Ctx& ctx, const std::string& text) {
  try {
    return isl::map(ctx.get(), text);
  } catch (const isl::exception& e) {
    throw IslError(std::string("isl cannot read ") + text + ": " + e.what());
  }
}

isl::map projection(const Ctx& ctx, unsigned n, unsigned first, unsigned count) {
  std::string in, out;
  for (unsigned k = 0; k < n; ++k) in += (k ? ", x" : "x") + std::to_string(k);
  for (unsigned k = first; k < first + count; ++k) out += (k > first ? ", x" : "x") + std::to_string(k);
  return toMap(ctx, "{ [" + in + "] -> [" + out + "] }");
}

namespace {

std::optional<std::int64_t> finite(const isl::val& v) {
  if (v.is_null() || !v.is_int()) return std::nullopt;
  return v.get_num_si();
}

}  // namespace

ValueRange coordinateRange(const isl::set& set, int pos) {
  return {finite(set.dim_min_val(pos)), finite(set.dim_max_val(pos))};
}

}  // namespace cats::sym::isl_adapter
