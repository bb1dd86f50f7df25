#include "jvm/java_regex.h"

#include <algorithm>
#include <set>
#include <utility>
#include <vector>

namespace connectd::jvm {
namespace {

static_assert(sizeof(wchar_t) == 4, "std::wregex must hold UTF-32 code points");

constexpr char32_t kMaxCodePoint = 0x10FFFF;
// A code point input never contains (DecodeUtf8 never yields surrogates): an empty class.
constexpr char32_t kNeverInInput = 0xD800;
// Counted repetition is expanded into NFA states, so bounds are capped (Java allows any int).
constexpr int kMaxRepetition = 1000;
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
  kAssertion,  // ^ $ \b \B (?=...) (?!...): ECMAScript cannot quantify these directly
  kQuantifiable,
};

class Translator {
 public:
  Translator(std::u32string pattern, bool keep_captures)
      : p_(std::move(pattern)), keep_captures_(keep_captures) {}

  std::optional<std::wstring> Run(std::string* error) {
    Flags flags;
    bool ok = ParseAlternation(flags, 0);
    if (ok && pos_ < p_.size()) ok = Fail("unmatched closing ')'");
    if (!ok) {
      if (error != nullptr) *error = error_;
      return std::nullopt;
    }
    return out_;
  }

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

  void EmitClassChar(char32_t c) {
    if (c == '\\' || c == ']' || c == '[' || c == '^' || c == '-') out_.push_back(L'\\');
    out_.push_back(static_cast<wchar_t>(c));
  }

  // Emits a bracket class of explicit ranges, after Java's case folding and negation.
  void EmitClass(Ranges r, const Flags& flags, bool negate) {
    if (flags.case_insensitive) r = CaseClose(std::move(r));
    Normalize(r);
    if (negate) r = Complement(std::move(r));
    if (r.empty()) r = Single(kNeverInInput);
    out_.push_back(L'[');
    for (const auto& [lo, hi] : r) {
      EmitClassChar(lo);
      if (hi != lo) {
        if (hi > lo + 1) out_.push_back(L'-');
        EmitClassChar(hi);
      }
    }
    out_.push_back(L']');
  }

  void EmitLiteral(char32_t c, const Flags& flags) {
    if (flags.case_insensitive && IsAsciiLetter(c)) {
      EmitClass(Single(c), flags, false);
      return;
    }
    static constexpr std::u32string_view kSyntax = U"^$\\.*+?()[]{}|/";
    if (kSyntax.find(c) != std::u32string_view::npos) out_.push_back(L'\\');
    out_.push_back(static_cast<wchar_t>(c));
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
      out_.push_back(L'|');
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
        bool negate = false;
        if (!ParseClass(&r, &negate)) return false;
        EmitClass(std::move(r), flags, negate);
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
      case '$':
        ++pos_;
        out_.push_back(static_cast<wchar_t>(c));
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
      if (c == ':') {
        ++pos_;
        out_ += L"(?:";
      } else if (c == '=' || c == '!') {
        ++pos_;
        out_ += c == '=' ? L"(?=" : L"(?!";
        *kind = AtomKind::kAssertion;
      } else if (c == '>') {
        return Unsupported("atomic group (?>...)");
      } else if (c == '<') {
        ++pos_;
        if (Peek() == '=' || Peek() == '!') return Unsupported("lookbehind (?<=...)/(?<!...)");
        if (!ParseGroupName()) return false;
        out_ += keep_captures_ ? L"(" : L"(?:";
      } else {
        // Inline flags: (?idmsuxU-idmsuxU) or (?idmsuxU-idmsuxU:X).
        bool on = true;
        Flags* target = &inner;
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
          flags = *target;  // for the rest of the enclosing group
          *kind = AtomKind::kNothing;
          return true;
        }
        if (Peek() != ':') return Fail("unknown inline modifier");
        ++pos_;
        out_ += L"(?:";
      }
    } else {
      out_ += keep_captures_ ? L"(" : L"(?:";  // a capturing group
    }
    if (!ParseAlternation(inner, depth + 1)) return false;
    if (Peek() != ')') return Fail("unclosed group");
    ++pos_;
    out_.push_back(L')');
    return true;
  }

  bool ParseGroupName() {
    std::u32string name;
    while (!AtEnd() && Peek() != '>') name.push_back(p_[pos_++]);
    if (AtEnd()) return Fail("named capturing group is missing trailing '>'");
    ++pos_;
    if (name.empty() || !IsAsciiLetter(name[0])) {
      return Fail("capturing group name does not start with a Latin letter");
    }
    for (char32_t c : name) {
      if (!IsAsciiLetter(c) && !IsAsciiDigit(c)) {
        return Fail("named capturing group is missing trailing '>'");
      }
    }
    if (!group_names_.insert(name).second) return Fail("named capturing group is already defined");
    return true;
  }

  // Quantifier := ('*' | '+' | '?' | '{' n (',' m?)? '}') ('?' lazy)?, after the atom that
  // starts at out_[atom_start].
  bool ParseQuantifier(AtomKind kind, size_t atom_start) {
    const char32_t c = Peek();
    std::wstring quantifier;
    if (c == '*' || c == '+' || c == '?') {
      ++pos_;
      quantifier.push_back(static_cast<wchar_t>(c));
    } else if (c == '{') {
      ++pos_;
      int min = 0;
      int max = -1;
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
      quantifier = L"{" + std::to_wstring(min) + (max == min ? L"" : L",") +
                   (max > min ? std::to_wstring(max) : L"") + L"}";
    } else {
      return true;
    }
    if (Peek() == '?') {
      ++pos_;
      quantifier.push_back(L'?');
    } else if (Peek() == '+') {
      return Unsupported("possessive quantifier");
    }
    const char32_t next = Peek();
    if (next == '*' || next == '+' || next == '?') {
      return Fail(std::string("dangling meta character '") + static_cast<char>(next) + "'");
    }
    if (next == '{') return Unsupported("a quantifier applied to a quantified expression");
    if (kind == AtomKind::kAssertion) {
      out_.insert(atom_start, L"(?:");
      out_.push_back(L')');
    }
    out_ += quantifier;
    return true;
  }

  bool ParseCount(int* value) {
    if (!IsAsciiDigit(Peek())) return false;
    long long v = 0;
    while (IsAsciiDigit(Peek())) {
      v = std::min<long long>(v * 10 + (p_[pos_++] - '0'), 1LL << 40);
    }
    *value = static_cast<int>(std::min<long long>(v, kMaxRepetition + 1));
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
    switch (c) {
      case 'b':
        ++pos_;
        if (Peek() == '{') return Unsupported("\\b{g}");
        out_ += L"\\b";
        *kind = AtomKind::kAssertion;
        return true;
      case 'B':
        ++pos_;
        out_ += L"\\B";
        *kind = AtomKind::kAssertion;
        return true;
      case 'A':
        ++pos_;
        out_.push_back(L'^');
        *kind = AtomKind::kAssertion;
        return true;
      case 'z':
      case 'Z':
        ++pos_;
        out_.push_back(L'$');
        *kind = AtomKind::kAssertion;
        return true;
      default:
        break;
    }
    std::optional<char32_t> literal;
    if (!ParseCharEscape(&literal)) return false;
    EmitLiteral(*literal, flags);
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
    if (c >= '1' && c <= '9') return Unsupported("back reference");
    if (c == 'k') {
      if (Peek() != '<') return Fail("\\k is not followed by '<' for named capturing group");
      std::u32string name;
      for (++pos_; !AtEnd() && Peek() != '>'; ++pos_) name.push_back(p_[pos_]);
      if (AtEnd()) return Fail("named capturing group is missing trailing '>'");
      ++pos_;
      if (group_names_.count(name) == 0) return Fail("named capturing group does not exist");
      return Unsupported("back reference");
    }
    if (c == 'G' || c == 'R' || c == 'X' || c == 'N') {
      return Unsupported(std::string("\\") + static_cast<char>(c));
    }
    if (IsAsciiLetter(c)) return Fail("illegal/unsupported escape sequence");
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

  // Class := '[' '^'? Item+ ']' where a ']' right after '[' or '[^' is a literal.
  bool ParseClass(Ranges* ranges, bool* negate) {
    ++pos_;  // '['
    if (Peek() == '^') {
      *negate = true;
      ++pos_;
    }
    bool first = true;
    for (;;) {
      if (AtEnd()) return Fail("unclosed character class");
      const char32_t c = Peek();
      if (c == ']' && !first) {
        ++pos_;
        return true;
      }
      if (c == '[') return Unsupported("nested character class (union)");
      if (c == '&' && Peek(1) == '&') return Unsupported("character class intersection (&&)");
      first = false;
      Ranges set;
      bool is_set = false;
      char32_t lo = 0;
      if (!ParseClassAtom(&set, &is_set, &lo)) return false;
      if (is_set) {
        ranges->insert(ranges->end(), set.begin(), set.end());
        continue;
      }
      if (Peek() == '-' && pos_ + 1 < p_.size() && Peek(1) != ']' && Peek(1) != '[') {
        ++pos_;  // '-'
        char32_t hi = 0;
        if (!ParseClassAtom(&set, &is_set, &hi)) return false;
        if (is_set || hi < lo) return Fail("illegal character range");
        ranges->emplace_back(lo, hi);
      } else {
        ranges->emplace_back(lo, lo);
      }
    }
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
  const bool keep_captures_;
  size_t pos_ = 0;
  std::wstring out_;
  std::string error_;
  std::set<std::u32string> group_names_;
};

}  // namespace

std::optional<std::wstring> TranslateJavaRegex(std::u32string_view java_pattern, std::string* error,
                                               bool keep_captures) {
  return Translator(RemoveQuoting(java_pattern), keep_captures).Run(error);
}

}  // namespace connectd::jvm
