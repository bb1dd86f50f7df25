#include "jvm/java_regex.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <utility>
#include <vector>

#include "jvm/utf8.h"

namespace connectd::jvm {
namespace {

constexpr char32_t kMaxCodePoint = 0x10FFFF;
// PCRE2's largest repetition count (Java allows any int).
constexpr int kMaxRepetition = 65535;
constexpr int kMaxNesting = 100;

// ---- Code point sets ------------------------------------------------------------------------

using Ranges = std::vector<std::pair<char32_t, char32_t>>;

void Normalize(Ranges& r) {
  std::sort(r.begin(), r.end());
  Ranges merged;
  for (const auto& range : r) {
    if (!merged.empty() && range.first <= merged.back().second + 1) {
      merged.back().second = std::max(merged.back().second, range.second);
    } else {
      merged.push_back(range);
    }
  }
  r = std::move(merged);
}

Ranges Complement(Ranges r) {
  Normalize(r);
  Ranges out;
  char32_t next = 0;
  for (const auto& [lo, hi] : r) {
    if (lo > next) out.emplace_back(next, lo - 1);
    next = hi + 1;
  }
  if (next <= kMaxCodePoint) out.emplace_back(next, kMaxCodePoint);
  return out;
}

// Java's CASE_INSENSITIVE without UNICODE_CASE folds ASCII letters only.
Ranges CaseClose(Ranges r) {
  const size_t n = r.size();
  for (size_t i = 0; i < n; ++i) {
    const auto [lo, hi] = r[i];
    const char32_t lower_lo = std::max<char32_t>(lo, 'a');
    const char32_t lower_hi = std::min<char32_t>(hi, 'z');
    if (lower_lo <= lower_hi) r.emplace_back(lower_lo - 32, lower_hi - 32);
    const char32_t upper_lo = std::max<char32_t>(lo, 'A');
    const char32_t upper_hi = std::min<char32_t>(hi, 'Z');
    if (upper_lo <= upper_hi) r.emplace_back(upper_lo + 32, upper_hi + 32);
  }
  Normalize(r);
  return r;
}

Ranges Single(char32_t c) { return {{c, c}}; }

Ranges Intersect(Ranges a, Ranges b) {
  Normalize(a);
  Normalize(b);
  Ranges out;
  size_t i = 0;
  size_t j = 0;
  while (i < a.size() && j < b.size()) {
    const char32_t lo = std::max(a[i].first, b[j].first);
    const char32_t hi = std::min(a[i].second, b[j].second);
    if (lo <= hi) out.emplace_back(lo, hi);
    if (a[i].second < b[j].second) {
      ++i;
    } else {
      ++j;
    }
  }
  return out;
}

// Java's predefined classes (without UNICODE_CHARACTER_CLASS: ASCII) and POSIX \p{...} names.
Ranges Digits() { return {{'0', '9'}}; }
Ranges WordChars() { return {{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}}; }
Ranges Spaces() { return {{'\t', '\r'}, {' ', ' '}}; }  // [ \t\n\x0B\f\r]
Ranges HorizontalSpaces() {
  return {{' ', ' '},       {'\t', '\t'},     {0xA0, 0xA0},     {0x1680, 0x1680}, {0x180E, 0x180E},
          {0x2000, 0x200A}, {0x202F, 0x202F}, {0x205F, 0x205F}, {0x3000, 0x3000}};
}
Ranges VerticalSpaces() { return {{'\n', '\r'}, {0x85, 0x85}, {0x2028, 0x2029}}; }

std::optional<Ranges> PosixClass(std::u32string_view name) {
  const Ranges punct = {{'!', '/'}, {':', '@'}, {'[', '`'}, {'{', '~'}};
  if (name == U"Lower") return Ranges{{'a', 'z'}};
  if (name == U"Upper") return Ranges{{'A', 'Z'}};
  if (name == U"ASCII") return Ranges{{0, 0x7F}};
  if (name == U"Alpha") return Ranges{{'A', 'Z'}, {'a', 'z'}};
  if (name == U"Digit") return Digits();
  if (name == U"Alnum") return Ranges{{'0', '9'}, {'A', 'Z'}, {'a', 'z'}};
  if (name == U"Punct") return punct;
  if (name == U"Graph" || name == U"Print") {
    Ranges r = {{'0', '9'}, {'A', 'Z'}, {'a', 'z'}};
    r.insert(r.end(), punct.begin(), punct.end());
    if (name == U"Print") r.emplace_back(' ', ' ');
    Normalize(r);
    return r;
  }
  if (name == U"Blank") return Ranges{{' ', ' '}, {'\t', '\t'}};
  if (name == U"Cntrl") return Ranges{{0, 0x1F}, {0x7F, 0x7F}};
  if (name == U"XDigit") return Ranges{{'0', '9'}, {'A', 'F'}, {'a', 'f'}};
  if (name == U"Space") return Spaces();
  return std::nullopt;
}

bool IsAsciiLetter(char32_t c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsAsciiDigit(char32_t c) { return c >= '0' && c <= '9'; }

int HexValue(char32_t c) {
  if (c >= '0' && c <= '9') return static_cast<int>(c - '0');
  if (c >= 'a' && c <= 'f') return static_cast<int>(c - 'a' + 10);
  if (c >= 'A' && c <= 'F') return static_cast<int>(c - 'A' + 10);
  return -1;
}

// Java's RemoveQEQuoting: \Q...\E (or \Q to the end) becomes the same characters escaped.
std::u32string RemoveQuoting(std::u32string_view p) {
  std::u32string out;
  bool quoted = false;
  for (size_t i = 0; i < p.size();) {
    if (!quoted) {
      if (p[i] == '\\' && i + 1 < p.size()) {
        if (p[i + 1] == 'Q') {
          quoted = true;
        } else {
          out.push_back(p[i]);
          out.push_back(p[i + 1]);
        }
        i += 2;
      } else {
        out.push_back(p[i++]);
      }
      continue;
    }
    if (p[i] == '\\' && i + 1 < p.size() && p[i + 1] == 'E') {
      quoted = false;
      i += 2;
      continue;
    }
    const char32_t c = p[i++];
    if (IsAsciiLetter(c) || c >= 0x80) {
      out.push_back(c);
    } else if (IsAsciiDigit(c)) {
      out += U"\\x3";  // so that a digit never extends a preceding escape
      out.push_back(c);
    } else {
      out.push_back('\\');
      out.push_back(c);
    }
  }
  return out;
}

// ---- Translator -----------------------------------------------------------------------------

struct Flags {
  bool case_insensitive = false;  // (?i)
  bool dotall = false;            // (?s)
};

// What an atom was, for the quantifier that may follow it.
enum class AtomKind {
  kNothing,    // an inline flag group such as (?i): emitted nothing
  kAssertion,  // ^ $ \b \B lookaround: quantified inside a group
  kQuantifiable,
};

// Java's '$' and '\Z' without MULTILINE: the end of input, or before a line terminator that
// ends it, but never between "\r" and "\n".
constexpr char kJavaDollar[] =
    "(?=(?:\\r\\n|[\\n\\r\\x{85}\\x{2028}\\x{2029}])?\\z)(?!(?<=\\r)\\n)";

// Parses a Java pattern (after \Q..\E removal) and writes the PCRE2 pattern that means the same.
// `total_groups` is the pattern's number of capturing groups (from a first pass; -1 then), for
// back references to groups that never exist.
class Translator {
 public:
  Translator(std::u32string pattern, int total_groups)
      : p_(std::move(pattern)), total_groups_(total_groups) {}

  std::optional<std::string> Run(std::string* error) {
    Flags flags;
    bool ok = ParseAlternation(flags, 0);
    if (ok && pos_ < p_.size()) ok = Fail("unmatched closing ')'");
    if (!ok) {
      if (error != nullptr) *error = error_;
      return std::nullopt;
    }
    return out_;
  }

  int groups() const { return groups_; }

 private:
  bool Fail(const std::string& message) {
    if (error_.empty()) error_ = message;
    return false;
  }
  bool Unsupported(const std::string& what) {
    return Fail(what + " (valid in Java, not supported by connectd)");
  }

  bool AtEnd() const { return pos_ >= p_.size(); }
  char32_t Peek(size_t ahead = 0) const {
    return pos_ + ahead < p_.size() ? p_[pos_ + ahead] : char32_t{0xFFFFFFFF};
  }

  // ---- emission -----------------------------------------------------------------------------

  // One code point, literal in PCRE2 syntax both inside and outside a class.
  void EmitCodePoint(char32_t c) {
    if (c < 0x80 && (IsAsciiLetter(c) || IsAsciiDigit(c))) {
      out_.push_back(static_cast<char>(c));
      return;
    }
    char buffer[16];
    std::snprintf(buffer, sizeof buffer, "\\x{%X}", static_cast<unsigned>(c));
    out_ += buffer;
  }

  // Emits a class of explicit ranges, after Java's case folding and negation.
  void EmitClass(Ranges r, const Flags& flags, bool negate) {
    if (flags.case_insensitive) r = CaseClose(std::move(r));
    Normalize(r);
    if (negate) r = Complement(std::move(r));
    r = Intersect(std::move(r), Complement(Ranges{{0xD800, 0xDFFF}}));  // never in UTF-8 text
    if (r.empty()) {
      out_ += "(?:(*FAIL))";
      return;
    }
    out_.push_back('[');
    for (const auto& [lo, hi] : r) {
      EmitCodePoint(lo);
      if (hi != lo) {
        if (hi > lo + 1) out_.push_back('-');
        EmitCodePoint(hi);
      }
    }
    out_.push_back(']');
  }

  void EmitLiteral(char32_t c, const Flags& flags) {
    if ((flags.case_insensitive && IsAsciiLetter(c)) || (c >= 0xD800 && c <= 0xDFFF)) {
      EmitClass(Single(c), flags, false);
      return;
    }
    EmitCodePoint(c);
  }

  // A back reference; a group the pattern never defines never matches, as in Java.
  void EmitBackReference(const std::string& ref, int number, const Flags& flags) {
    if (number > total_groups_ && total_groups_ >= 0) {
      out_ += "(?:(*FAIL))";
      return;
    }
    out_ += flags.case_insensitive ? "(?i:" : "(?:";
    out_ += ref;
    out_.push_back(')');
  }

  // ---- grammar ------------------------------------------------------------------------------

  // Alternation := Sequence ('|' Sequence)*, up to ')' or the end. `flags` is the enclosing
  // group's: an inline (?i) changes it until that group ends, across later alternatives too.
  bool ParseAlternation(Flags& flags, int depth) {
    if (depth > kMaxNesting) return Fail("groups nested too deeply");
    for (;;) {
      if (!ParseSequence(flags, depth)) return false;
      if (AtEnd() || Peek() == ')') return true;
      ++pos_;  // '|'
      out_.push_back('|');
    }
  }

  bool ParseSequence(Flags& flags, int depth) {
    while (!AtEnd() && Peek() != '|' && Peek() != ')') {
      const size_t atom_start = out_.size();
      AtomKind kind = AtomKind::kQuantifiable;
      if (!ParseAtom(flags, depth, &kind)) return false;
      if (kind == AtomKind::kNothing) continue;
      if (!ParseQuantifier(kind, atom_start)) return false;
    }
    return true;
  }

  bool ParseAtom(Flags& flags, int depth, AtomKind* kind) {
    const char32_t c = Peek();
    switch (c) {
      case '(':
        return ParseGroup(flags, depth, kind);
      case '[': {
        Ranges r;
        if (!ParseClass(flags, &r, depth)) return false;
        EmitClass(std::move(r), Flags{}, false);  // folded and negated by ParseClass
        return true;
      }
      case '.':
        ++pos_;
        if (flags.dotall) {
          EmitClass({{0, kMaxCodePoint}}, flags, false);
        } else {
          EmitClass({{'\n', '\n'}, {'\r', '\r'}, {0x85, 0x85}, {0x2028, 0x2029}}, flags, true);
        }
        return true;
      case '^':
        ++pos_;
        out_ += "\\A";
        *kind = AtomKind::kAssertion;
        return true;
      case '$':
        ++pos_;
        out_ += kJavaDollar;
        *kind = AtomKind::kAssertion;
        return true;
      case '\\':
        return ParseEscape(flags, kind);
      case '*':
      case '+':
      case '?':
        return Fail(std::string("dangling meta character '") + static_cast<char>(c) + "'");
      case '{':
        return Fail("illegal repetition");
      default:
        ++pos_;
        EmitLiteral(c, flags);
        return true;
    }
  }

  bool ParseGroup(Flags& flags, int depth, AtomKind* kind) {
    ++pos_;  // '('
    Flags inner = flags;
    if (Peek() == '?') {
      ++pos_;
      const char32_t c = Peek();
      if (c == ':' || c == '>') {
        ++pos_;
        out_ += c == ':' ? "(?:" : "(?>";
      } else if (c == '=' || c == '!') {
        ++pos_;
        out_ += c == '=' ? "(?=" : "(?!";
        *kind = AtomKind::kAssertion;
      } else if (c == '<' && (Peek(1) == '=' || Peek(1) == '!')) {
        out_ += Peek(1) == '=' ? "(?<=" : "(?<!";
        pos_ += 2;
        *kind = AtomKind::kAssertion;
      } else if (c == '<') {
        ++pos_;
        std::u32string name;
        if (!ParseGroupName(&name)) return false;
        // A plain group: Java's names have no length limit, PCRE2's 32 code units.
        group_names_[name] = ++groups_;
        out_.push_back('(');
      } else {
        // Inline flags: (?idmsuxU-idmsuxU) or (?idmsuxU-idmsuxU:X).
        bool on = true;
        for (;; ++pos_) {
          const char32_t f = Peek();
          if (f == 'i') {
            inner.case_insensitive = on;
          } else if (f == 's') {
            inner.dotall = on;
          } else if (f == 'd' || f == 'm' || f == 'u' || f == 'x' || f == 'U') {
            return Unsupported(std::string("inline flag '") + static_cast<char>(f) + "'");
          } else if (f == '-' && on) {
            on = false;
          } else {
            break;
          }
        }
        if (Peek() == ')') {
          ++pos_;
          flags = inner;  // for the rest of the enclosing group
          *kind = AtomKind::kNothing;
          return true;
        }
        if (Peek() != ':') return Fail("unknown inline modifier");
        ++pos_;
        out_ += "(?:";
      }
    } else {
      ++groups_;
      out_.push_back('(');
    }
    if (!ParseAlternation(inner, depth + 1)) return false;
    if (Peek() != ')') return Fail("unclosed group");
    ++pos_;
    out_.push_back(')');
    return true;
  }

  bool ParseGroupName(std::u32string* name) {
    while (!AtEnd() && Peek() != '>') name->push_back(p_[pos_++]);
    if (AtEnd()) return Fail("named capturing group is missing trailing '>'");
    ++pos_;
    if (name->empty() || !IsAsciiLetter((*name)[0])) {
      return Fail("capturing group name does not start with a Latin letter");
    }
    for (char32_t c : *name) {
      if (!IsAsciiLetter(c) && !IsAsciiDigit(c)) {
        return Fail("named capturing group is missing trailing '>'");
      }
    }
    if (group_names_.count(*name) != 0) {
      return Fail("named capturing group <" + Utf8(*name) + "> is already defined");
    }
    return true;
  }

  static std::string Utf8(const std::u32string& s) {
    std::string out;
    for (char32_t c : s) AppendUtf8(c, out);
    return out;
  }

  // Quantifier := ('*' | '+' | '?' | '{' n (',' m?)? '}') ('?' lazy | '+' possessive)?, after
  // the atom that starts at out_[atom_start].
  bool ParseQuantifier(AtomKind kind, size_t atom_start) {
    const char32_t c = Peek();
    std::string quantifier;
    if (c == '*' || c == '+' || c == '?') {
      ++pos_;
      quantifier.push_back(static_cast<char>(c));
    } else if (c == '{') {
      ++pos_;
      long long min = 0;
      long long max = -1;
      if (!ParseCount(&min)) return Fail("illegal repetition");
      if (Peek() == ',') {
        ++pos_;
        if (IsAsciiDigit(Peek()) && !ParseCount(&max)) return false;
      } else {
        max = min;
      }
      if (Peek() != '}') return Fail("unclosed counted closure");
      ++pos_;
      if (max >= 0 && max < min) return Fail("illegal repetition range");
      if (min > kMaxRepetition || max > kMaxRepetition) {
        return Unsupported("a repetition count above " + std::to_string(kMaxRepetition));
      }
      quantifier = "{" + std::to_string(min) + (max == min ? "" : ",") +
                   (max > min ? std::to_string(max) : "") + "}";
    } else {
      return true;
    }
    if (Peek() == '?' || Peek() == '+') quantifier.push_back(static_cast<char>(p_[pos_++]));
    const char32_t next = Peek();
    if (next == '*' || next == '+' || next == '?') {
      return Fail(std::string("dangling meta character '") + static_cast<char>(next) + "'");
    }
    if (next == '{') return Unsupported("a quantifier applied to a quantified expression");
    if (kind == AtomKind::kAssertion) {
      out_.insert(atom_start, "(?:");
      out_.push_back(')');
    }
    out_ += quantifier;
    return true;
  }

  bool ParseCount(long long* value) {
    if (!IsAsciiDigit(Peek())) return false;
    long long v = 0;
    while (IsAsciiDigit(Peek())) {
      v = v * 10 + (p_[pos_++] - '0');
      if (v > 0x7FFFFFFF) return Fail("illegal repetition");  // Java: the count overflows int
    }
    *value = v;
    return true;
  }

  // An escape outside a class (the backslash is at pos_).
  bool ParseEscape(const Flags& flags, AtomKind* kind) {
    ++pos_;
    if (AtEnd()) return Fail("trailing backslash");
    const char32_t c = p_[pos_];
    Ranges set;
    bool is_set = false;
    if (!ParsePredefined(&set, &is_set)) return false;
    if (is_set) {
      EmitClass(std::move(set), flags, false);
      return true;
    }
    *kind = AtomKind::kAssertion;
    switch (c) {
      case 'b':
        ++pos_;
        if (Peek() == '{') return Unsupported("\\b{g}");
        out_ += "\\b";
        return true;
      case 'B':
        ++pos_;
        out_ += "\\B";
        return true;
      case 'A':
      case 'G':  // the end of the previous match: the start, for matches() and the first find
        ++pos_;
        out_ += "\\A";
        return true;
      case 'z':
        ++pos_;
        out_ += "\\z";
        return true;
      case 'Z':
        ++pos_;
        out_ += kJavaDollar;
        return true;
      default:
        break;
    }
    *kind = AtomKind::kQuantifiable;
    if (c >= '1' && c <= '9') return ParseBackReference(flags);
    if (c == 'k') {
      ++pos_;
      if (Peek() != '<') return Fail("\\k is not followed by '<' for named capturing group");
      std::u32string name;
      for (++pos_; !AtEnd() && Peek() != '>'; ++pos_) name.push_back(p_[pos_]);
      if (AtEnd()) return Fail("named capturing group is missing trailing '>'");
      ++pos_;
      auto named = group_names_.find(name);
      if (named == group_names_.end()) {
        return Fail("named capturing group <" + Utf8(name) + "> does not exist");
      }
      EmitBackReference("\\g{" + std::to_string(named->second) + "}", named->second, flags);
      return true;
    }
    std::optional<char32_t> literal;
    if (!ParseCharEscape(&literal)) return false;
    EmitLiteral(*literal, flags);
    return true;
  }

  // \n: one digit is always a group number; further digits join it while such a group has
  // been opened at this point of the pattern (Java's rule, "(a)\10" is group 1 then '0').
  bool ParseBackReference(const Flags& flags) {
    int number = static_cast<int>(p_[pos_++] - '0');
    while (IsAsciiDigit(Peek())) {
      const int longer = number * 10 + static_cast<int>(Peek() - '0');
      if (longer > groups_) break;
      number = longer;
      ++pos_;
    }
    EmitBackReference("\\g{" + std::to_string(number) + "}", number, flags);
    return true;
  }

  // \d \D \w \W \s \S \h \H \v \V \p{..} \P{..} at pos_ (after the backslash). Sets *is_set and
  // consumes them; leaves anything else alone.
  bool ParsePredefined(Ranges* set, bool* is_set) {
    const char32_t c = Peek();
    *is_set = true;
    switch (c) {
      case 'd':
      case 'D':
        *set = Digits();
        break;
      case 'w':
      case 'W':
        *set = WordChars();
        break;
      case 's':
      case 'S':
        *set = Spaces();
        break;
      case 'h':
      case 'H':
        *set = HorizontalSpaces();
        break;
      case 'v':
      case 'V':
        *set = VerticalSpaces();
        break;
      case 'p':
      case 'P': {
        ++pos_;
        if (Peek() != '{') return Unsupported("Unicode category \\p without braces");
        ++pos_;
        std::u32string name;
        while (!AtEnd() && Peek() != '}') name.push_back(p_[pos_++]);
        if (AtEnd()) return Fail("unclosed character family");
        std::optional<Ranges> posix = PosixClass(name);
        if (!posix) return Unsupported("\\p{...} other than the POSIX classes");
        *set = c == 'P' ? Complement(std::move(*posix)) : std::move(*posix);
        ++pos_;  // '}'
        return true;
      }
      default:
        *is_set = false;
        return true;
    }
    if (c == 'D' || c == 'W' || c == 'S' || c == 'H' || c == 'V') *set = Complement(*set);
    ++pos_;
    return true;
  }

  // A single-character escape at pos_ (after the backslash): control escapes, octal, hex,
  // Unicode, or an escaped non-letter.
  bool ParseCharEscape(std::optional<char32_t>* out) {
    const char32_t c = p_[pos_++];
    switch (c) {
      case 't':
        *out = '\t';
        return true;
      case 'n':
        *out = '\n';
        return true;
      case 'r':
        *out = '\r';
        return true;
      case 'f':
        *out = '\f';
        return true;
      case 'a':
        *out = 0x07;
        return true;
      case 'e':
        *out = 0x1B;
        return true;
      case 'c':
        if (AtEnd()) return Fail("illegal control escape sequence");
        *out = p_[pos_++] ^ 64;
        return true;
      case '0': {
        // \0n, \0nn, \0mnn (m <= 3).
        auto octal = [](char32_t d) { return d >= '0' && d <= '7'; };
        if (!octal(Peek())) return Fail("illegal octal escape sequence");
        char32_t v = p_[pos_++] - '0';
        if (octal(Peek())) {
          const bool three = v <= 3 && octal(Peek(1));
          v = v * 8 + (p_[pos_++] - '0');
          if (three) v = v * 8 + (p_[pos_++] - '0');
        }
        *out = v;
        return true;
      }
      case 'x': {
        if (Peek() == '{') {
          ++pos_;
          char32_t v = 0;
          int digits = 0;
          while (HexValue(Peek()) >= 0) {
            v = v * 16 + static_cast<char32_t>(HexValue(p_[pos_++]));
            if (v > kMaxCodePoint) return Fail("hexadecimal codepoint is too big");
            ++digits;
          }
          if (digits == 0 || Peek() != '}') return Fail("unclosed hexadecimal escape sequence");
          ++pos_;
          *out = v;
          return true;
        }
        if (HexValue(Peek()) < 0 || HexValue(Peek(1)) < 0) {
          return Fail("illegal hexadecimal escape sequence");
        }
        *out = static_cast<char32_t>(HexValue(p_[pos_]) * 16 + HexValue(p_[pos_ + 1]));
        pos_ += 2;
        return true;
      }
      case 'u': {
        char32_t v;
        if (!ReadHex4(&v)) return Fail("illegal Unicode escape sequence");
        if (v >= 0xD800 && v <= 0xDBFF && Peek() == '\\' && Peek(1) == 'u') {
          const size_t save = pos_;
          pos_ += 2;
          char32_t low;
          if (ReadHex4(&low) && low >= 0xDC00 && low <= 0xDFFF) {
            v = 0x10000 + ((v - 0xD800) << 10) + (low - 0xDC00);
          } else {
            pos_ = save;
          }
        }
        *out = v;
        return true;
      }
      default:
        break;
    }
    if (c == 'R' || c == 'X' || c == 'N') {
      return Unsupported(std::string("\\") + static_cast<char>(c));
    }
    if (IsAsciiLetter(c) || IsAsciiDigit(c)) return Fail("illegal/unsupported escape sequence");
    *out = c;  // an escaped non-letter is itself
    return true;
  }

  bool ReadHex4(char32_t* v) {
    *v = 0;
    for (int i = 0; i < 4; ++i) {
      const int h = HexValue(Peek());
      if (h < 0) return false;
      *v = *v * 16 + static_cast<char32_t>(h);
      ++pos_;
    }
    return true;
  }

  // Class := '[' '^'? Operand ('&&' Operand)* ']', an Operand a union of characters, ranges,
  // predefined classes and nested classes; a ']' right after '[' or '[^' is a literal. Java
  // (JDK 9+) intersects the operands (empty ones ignored), folds case per operand under (?i),
  // then negates the whole. The result, in *out, is final (folded and negated).
  bool ParseClass(const Flags& flags, Ranges* out, int depth) {
    if (depth > kMaxNesting) return Fail("character classes nested too deeply");
    ++pos_;  // '['
    bool negate = false;
    if (Peek() == '^') {
      negate = true;
      ++pos_;
    }
    std::optional<Ranges> result;
    Ranges operand;
    bool operand_empty = true;
    auto close_operand = [&] {
      if (operand_empty) return;
      if (flags.case_insensitive) operand = CaseClose(std::move(operand));
      result = result ? Intersect(std::move(*result), std::move(operand)) : std::move(operand);
      operand.clear();
      operand_empty = true;
    };
    bool first = true;
    for (;;) {
      if (AtEnd()) return Fail("unclosed character class");
      const char32_t c = Peek();
      if (c == ']' && !first) {
        ++pos_;
        break;
      }
      first = false;
      if (c == '&' && Peek(1) == '&') {
        pos_ += 2;
        close_operand();
        continue;
      }
      operand_empty = false;
      if (c == '[') {
        Ranges nested;
        if (!ParseClass(flags, &nested, depth + 1)) return false;
        operand.insert(operand.end(), nested.begin(), nested.end());
        continue;
      }
      Ranges set;
      bool is_set = false;
      char32_t lo = 0;
      if (!ParseClassAtom(&set, &is_set, &lo)) return false;
      if (is_set) {
        operand.insert(operand.end(), set.begin(), set.end());
        continue;
      }
      if (Peek() == '-' && pos_ + 1 < p_.size() && Peek(1) != ']' && Peek(1) != '[' &&
          !(Peek(1) == '&' && Peek(2) == '&')) {
        ++pos_;  // '-'
        char32_t hi = 0;
        if (!ParseClassAtom(&set, &is_set, &hi)) return false;
        if (is_set || hi < lo) return Fail("illegal character range");
        operand.emplace_back(lo, hi);
      } else {
        operand.emplace_back(lo, lo);
      }
    }
    close_operand();
    Ranges r = result ? std::move(*result) : Ranges{};
    if (flags.case_insensitive) r = CaseClose(std::move(r));
    Normalize(r);
    *out = negate ? Complement(std::move(r)) : std::move(r);
    return true;
  }

  bool ParseClassAtom(Ranges* set, bool* is_set, char32_t* c) {
    *is_set = false;
    if (Peek() != '\\') {
      *c = p_[pos_++];
      return true;
    }
    ++pos_;
    if (AtEnd()) return Fail("unclosed character class");
    if (!ParsePredefined(set, is_set)) return false;
    if (*is_set) return true;
    const char32_t e = Peek();
    if (IsAsciiLetter(e) &&
        std::u32string_view(U"tnrfaecxu").find(e) == std::u32string_view::npos) {
      return Fail("illegal/unsupported escape sequence");  // \b, \A, \Q... mean nothing here
    }
    if (e >= '1' && e <= '9') return Fail("illegal/unsupported escape sequence");
    std::optional<char32_t> literal;
    if (!ParseCharEscape(&literal)) return false;
    *c = *literal;
    return true;
  }

  const std::u32string p_;
  const int total_groups_;
  size_t pos_ = 0;
  int groups_ = 0;
  std::string out_;
  std::string error_;
  std::map<std::u32string, int> group_names_;  // Java's group names -> their numbers

 public:
  // The named groups' numbers, by name (UTF-8), after Run.
  std::map<std::string, int> GroupNumbers() const {
    std::map<std::string, int> out;
    for (const auto& [name, number] : group_names_) out[Utf8(name)] = number;
    return out;
  }
};

// ---- PCRE2 ----------------------------------------------------------------------------------

std::string Pcre2Message(int code) {
  PCRE2_UCHAR buffer[256];
  if (pcre2_get_error_message(code, buffer, sizeof buffer) < 0)
    return "error " + std::to_string(code);
  return reinterpret_cast<const char*>(buffer);
}

// The match context every match shares (read-only after set-up, so safe across threads).
pcre2_match_context* SharedMatchContext() {
  static pcre2_match_context* const context = [] {
    pcre2_match_context* c = pcre2_match_context_create(nullptr);
    pcre2_set_match_limit(c, JavaRegex::kMatchLimit);
    pcre2_set_heap_limit(c, JavaRegex::kHeapLimitKiB);
    return c;
  }();
  return context;
}

// Java reads malformed UTF-8 as U+FFFD; PCRE2 (told the subject is valid) must see the same.
std::string_view ValidSubject(std::string_view text, std::string& storage) {
  if (IsValidUtf8(text)) return text;
  for (char32_t c : DecodeUtf8(text)) AppendUtf8(c, storage);
  return storage;
}

struct MatchData {
  explicit MatchData(const pcre2_code* code)
      : data(pcre2_match_data_create_from_pattern(code, nullptr)) {}
  ~MatchData() { pcre2_match_data_free(data); }
  MatchData(const MatchData&) = delete;
  MatchData& operator=(const MatchData&) = delete;
  pcre2_match_data* data;
};

}  // namespace

struct JavaRegex::Compiled {
  ~Compiled() { pcre2_code_free(code); }
  pcre2_code* code = nullptr;
  int groups = 0;
  std::map<std::string, int> group_numbers;  // Java's group names

  // pcre2_match with the limits, falling back from JIT to the interpreter when JIT's own stack
  // runs out (the interpreter's heap limit is the larger bound).
  int Match(std::string_view subject, uint32_t options, pcre2_match_data* data) const {
    const auto* bytes = reinterpret_cast<PCRE2_SPTR>(subject.data());
    options |= PCRE2_NO_UTF_CHECK;
    int rc = pcre2_match(code, bytes, subject.size(), 0, options, data, SharedMatchContext());
    if (rc == PCRE2_ERROR_JIT_STACKLIMIT) {
      rc = pcre2_match(code, bytes, subject.size(), 0, options | PCRE2_NO_JIT, data,
                       SharedMatchContext());
    }
    return rc;
  }
};

std::optional<std::string> TranslateJavaRegex(std::u32string_view java_pattern, std::string* error,
                                              std::map<std::string, int>* group_numbers) {
  const std::u32string unquoted = RemoveQuoting(java_pattern);
  Translator first(unquoted, -1);
  if (!first.Run(error)) return std::nullopt;
  Translator second(unquoted, first.groups());
  std::optional<std::string> out = second.Run(error);
  if (out && group_numbers != nullptr) *group_numbers = second.GroupNumbers();
  return out;
}

std::optional<JavaRegex> JavaRegex::Compile(std::string_view pattern, std::string* error) {
  auto compiled = std::make_shared<Compiled>();
  std::optional<std::string> translated =
      TranslateJavaRegex(DecodeUtf8(pattern), error, &compiled->group_numbers);
  if (!translated) return std::nullopt;
  int code = 0;
  PCRE2_SIZE offset = 0;
  compiled->code =
      pcre2_compile(reinterpret_cast<PCRE2_SPTR>(translated->data()), translated->size(),
                    PCRE2_UTF | PCRE2_NEVER_BACKSLASH_C, &code, &offset, nullptr);
  if (compiled->code == nullptr) {
    // The translation only emits what PCRE2 takes, except lookbehind it cannot bound.
    if (error != nullptr) {
      *error = "PCRE2: " + Pcre2Message(code) + " (valid in Java, not supported by connectd)";
    }
    return std::nullopt;
  }
  pcre2_jit_compile(compiled->code, PCRE2_JIT_COMPLETE);  // the interpreter if JIT is missing
  uint32_t groups = 0;
  pcre2_pattern_info(compiled->code, PCRE2_INFO_CAPTURECOUNT, &groups);
  compiled->groups = static_cast<int>(groups);
  return JavaRegex(std::move(compiled));
}

int JavaRegex::group_count() const { return compiled_->groups; }

JavaRegex::Result JavaRegex::Matches(std::string_view text) const {
  std::string storage;
  const std::string_view subject = ValidSubject(text, storage);
  MatchData data(compiled_->code);
  const int rc = compiled_->Match(subject, PCRE2_ANCHORED | PCRE2_ENDANCHORED, data.data);
  if (rc >= 0) return Result::kMatch;
  if (rc == PCRE2_ERROR_NOMATCH) return Result::kNoMatch;
  return Result::kLimitExceeded;
}

std::optional<std::string> JavaRegex::ReplaceFirst(std::string_view text,
                                                   std::string_view replacement,
                                                   std::string* error) const {
  auto fail = [error](std::string message) -> std::optional<std::string> {
    if (error != nullptr) *error = std::move(message);
    return std::nullopt;
  };
  std::string storage;
  const std::string_view subject = ValidSubject(text, storage);
  MatchData data(compiled_->code);
  const int rc = compiled_->Match(subject, 0, data.data);
  if (rc == PCRE2_ERROR_NOMATCH) return std::string(subject);
  if (rc < 0) return fail("regex match limit exceeded: " + Pcre2Message(rc));
  const PCRE2_SIZE* ovector = pcre2_get_ovector_pointer(data.data);
  auto append_group = [&](int group, std::string& out) {
    const PCRE2_SIZE start = ovector[2 * group];
    if (start != PCRE2_UNSET) out.append(subject.substr(start, ovector[2 * group + 1] - start));
  };
  std::string out(subject.substr(0, ovector[0]));
  for (size_t i = 0; i < replacement.size(); ++i) {
    const char c = replacement[i];
    if (c == '\\') {
      if (++i == replacement.size()) return fail("character to be escaped is missing");
      out.push_back(replacement[i]);
    } else if (c == '$') {
      if (++i == replacement.size()) {
        return fail("Illegal group reference: group index is missing");
      }
      if (replacement[i] == '{') {
        const size_t close = replacement.find('}', i);
        std::string name(replacement.substr(
            i + 1, close == std::string_view::npos ? std::string_view::npos : close - i - 1));
        const bool valid = !name.empty() && IsAsciiLetter(static_cast<unsigned char>(name[0])) &&
                           std::all_of(name.begin(), name.end(), [](char n) {
                             return IsAsciiLetter(static_cast<unsigned char>(n)) ||
                                    IsAsciiDigit(static_cast<unsigned char>(n));
                           });
        if (name.empty() && close == i + 1) {
          return fail("named capturing group has 0 length name");
        }
        if (!valid || close == std::string_view::npos) {
          return fail("named capturing group is missing trailing '}'");
        }
        auto group = compiled_->group_numbers.find(name);
        if (group == compiled_->group_numbers.end()) {
          return fail("No group with name {" + name + "}");
        }
        append_group(group->second, out);
        i = close;
        continue;
      }
      if (!IsAsciiDigit(static_cast<unsigned char>(replacement[i]))) {
        return fail("Illegal group reference");
      }
      // Java reads digits while the group number stays within the pattern's groups.
      int group = replacement[i] - '0';
      while (i + 1 < replacement.size() &&
             IsAsciiDigit(static_cast<unsigned char>(replacement[i + 1]))) {
        const int longer = group * 10 + (replacement[i + 1] - '0');
        if (longer > compiled_->groups) break;
        group = longer;
        ++i;
      }
      if (group > compiled_->groups) return fail("No group " + std::to_string(group));
      append_group(group, out);
    } else {
      out.push_back(c);
    }
  }
  out.append(subject.substr(ovector[1]));
  return out;
}

}  // namespace connectd::jvm
