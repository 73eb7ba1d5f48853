#include "values.hpp"

#include <cctype>
#include <limits>

namespace cats::driver {

namespace {

/* Recursive descent over "text"; any error leaves "ok" false and the result meaningless. */
class IntegerParser {
 public:
  explicit IntegerParser(std::string_view text) : text_(text) {}

  std::optional<std::int64_t> parse() {
    std::int64_t value = binary(0);
    skipSpace();
    if (!ok_ || pos_ != text_.size()) return std::nullopt;
    return value;
  }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
  bool ok_ = true;

  struct Operator {
    std::string_view token;
    int precedence;
  };
  static constexpr Operator operators_[] = {{"<<", 4}, {">>", 4}, {"*", 5}, {"/", 5}, {"%", 5}, {"+", 3},
                                            {"-", 3},  {"&", 2},  {"^", 1}, {"|", 0}};

  void skipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }

  const Operator* peekOperator() {
    skipSpace();
    for (const auto& op : operators_)
      if (text_.substr(pos_, op.token.size()) == op.token) return &op;
    return nullptr;
  }

  /* Precedence climbing: operands joined by operators of at least "minPrecedence". */
  std::int64_t binary(int minPrecedence) {
    std::int64_t left = unary();
    while (ok_) {
      const Operator* op = peekOperator();
      if (!op || op->precedence < minPrecedence) break;
      pos_ += op->token.size();
      std::int64_t right = binary(op->precedence + 1);
      left = apply(op->token, left, right);
    }
    return left;
  }

  std::int64_t apply(std::string_view op, std::int64_t a, std::int64_t b) {
    std::int64_t r = 0;
    if (op == "+") ok_ = ok_ && !__builtin_add_overflow(a, b, &r);
    else if (op == "-") ok_ = ok_ && !__builtin_sub_overflow(a, b, &r);
    else if (op == "*") ok_ = ok_ && !__builtin_mul_overflow(a, b, &r);
    else if (op == "/" || op == "%") {
      ok_ = ok_ && b != 0 && !(a == std::numeric_limits<std::int64_t>::min() && b == -1);
      if (ok_) r = op == "/" ? a / b : a % b;
    } else if (op == "<<" || op == ">>") {
      ok_ = ok_ && b >= 0 && b < 63 && a >= 0;
      if (ok_) r = op == "<<" ? a << b : a >> b;
      ok_ = ok_ && (op == ">>" || (r >> b) == a);
    } else if (op == "&") r = a & b;
    else if (op == "^") r = a ^ b;
    else r = a | b;
    return r;
  }

  std::int64_t unary() {
    skipSpace();
    if (pos_ >= text_.size()) return fail();
    char c = text_[pos_];
    if (c == '+' || c == '-' || c == '~') {
      ++pos_;
      std::int64_t v = unary();
      if (c == '-') return v == std::numeric_limits<std::int64_t>::min() ? fail() : -v;
      return c == '~' ? ~v : v;
    }
    if (c == '(') {
      ++pos_;
      std::int64_t v = binary(0);
      skipSpace();
      if (pos_ >= text_.size() || text_[pos_] != ')') return fail();
      ++pos_;
      return v;
    }
    return literal();
  }

  /* A C integer literal with its u/U/l/L/ll/LL suffixes. */
  std::int64_t literal() {
    int base = 10;
    if (text_.substr(pos_, 2) == "0x" || text_.substr(pos_, 2) == "0X") base = 16, pos_ += 2;
    else if (text_.substr(pos_, 2) == "0b" || text_.substr(pos_, 2) == "0B") base = 2, pos_ += 2;
    else if (text_.substr(pos_, 1) == "0") base = 8;
    std::size_t start = pos_;
    std::uint64_t value = 0;
    for (; pos_ < text_.size(); ++pos_) {
      int digit = digitValue(text_[pos_]);
      if (digit < 0 || digit >= base) break;
      if (value > (std::numeric_limits<std::uint64_t>::max() - digit) / base) return fail();
      value = value * base + digit;
    }
    if (pos_ == start && base != 8) return fail();
    while (pos_ < text_.size() && std::string_view("uUlL").find(text_[pos_]) != std::string_view::npos) ++pos_;
    if (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_' || text_[pos_] == '.'))
      return fail();
    if (value > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) return fail();
    return static_cast<std::int64_t>(value);
  }

  static int digitValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }

  std::int64_t fail() {
    ok_ = false;
    return 0;
  }
};

}  // namespace

std::optional<std::int64_t> parseInteger(std::string_view text) { return IntegerParser(text).parse(); }

}  // namespace cats::driver
