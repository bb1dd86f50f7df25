#include "jvm/java_regex.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <optional>
#include <regex>
#include <string>

#include "jvm/utf8.h"

namespace connectd::jvm {
namespace {

using ::testing::HasSubstr;

// Java's verdict for Pattern.compile(pattern).matcher(input).matches(), as printed by
// java.util.regex on OpenJDK 17 (a one-off probe; filters.tsv covers the list handling).
struct JavaCase {
  const char* pattern;
  const char* input;
  bool matches;
};

constexpr JavaCase kJavaCases[] = {
    {"[]a]", "]", true},
    {"[]a]", "a", true},
    {"[^]a]", "b", true},
    {"[^]a]", "]", false},
    {"\\Qa.b", "a.b", true},
    {"\\Qa.b", "axb", false},
    {"\\Qa.b\\E.", "a.bx", true},
    {"[a-c-e]", "-", true},
    {"[a-c-e]", "d", false},
    {"[-a]", "-", true},
    {"[a-]", "-", true},
    {"x}", "x}", true},
    {"]", "]", true},
    {"a{1,2}", "aa", true},
    {"(?i)abc", "ABC", true},
    {"a(?i)b|c", "C", true},
    {"(a(?i)b)c", "aBC", false},
    {"(a(?i)b)c", "aBc", true},
    {"(?i)[a-c]", "B", true},
    {"(?i)[^a]", "A", false},
    {"(?i)\\p{Lower}", "A", true},
    {"(?i)\\p{Upper}", "a", true},
    {"\\p{Alpha}+", "abc", true},
    {"\\w", "\xC3\xA9", false},
    {"a\\b", "a", true},
    {"\\_", "_", true},
    {"\\-", "-", true},
    {".", "\xC2\x85", false},
    {".", "\r", false},
    {".", "\xE2\x80\xA8", false},
    {"a$", "a\n", false},
    {"a\\Z", "a\n", false},
    {"\\0101", "A", true},
    {"\\x41", "A", true},
    {"\\x{1F600}", "\xF0\x9F\x98\x80", true},
    {".", "\xF0\x9F\x98\x80", true},
    {"\\uD83D\\uDE00", "\xF0\x9F\x98\x80", true},
    {"[\\uD83D\\uDE00]", "\xF0\x9F\x98\x80", true},
    {"\\cA", "\x01", true},
    {"(?<n1>a)", "a", true},
    {"(?=a)*a", "a", true},
    {"^*a", "a", true},
    {"(?s).", "\n", true},
    {"(?is)A.", "a\n", true},
    {"(?-i)a", "a", true},
    {"(?i-i)a", "A", false},
    {"(?i:a)A", "AA", true},
    {"(?i:a)A", "aa", false},
    {"\\e", "\x1b", true},
    {"[\\s]", "\x0b", true},
    {"\\s", "\x0b", true},
    {"\\v", "\x0b", true},
    {"[\\Q]\\E]", "]", true},
    {"\\Q\\E", "", true},
    {"\\Qab", "ab", true},
    {"()", "", true},
    {"(|a)", "", true},
    {"a|", "", true},
    {"|", "", true},
    {"[\\d-z]", "-", true},
    {"[\\x41-\\x43]", "B", true},
    {"\\P{Alpha}", "1", true},
    {"[\\P{Alpha}]", "1", true},
    {"[^\\P{Alpha}]", "a", true},
    {"[^\\D]", "1", true},
    {"a??", "", true},
    {"(?:a)", "a", true},
    {"[\\]]", "]", true},
    {"[\\[]", "[", true},
    {"[a\\-z]", "-", true},
    {"a{0}", "", true},
    {"[\\^]", "^", true},
    {"[a^]", "^", true},
    {"[$]", "$", true},
    {"[.]", "x", false},
    {"[|]", "|", true},
    {"\\Qa\\Eb\\Qc", "abc", true},
    {"(?i)\xC3\xA9", "\xC3\x89", false},
    {"(?i)\\Qab\\E", "AB", true},
    {"[(?i)a]", "A", false},
    {"\\Q(a)*\\E", "(a)*", true},
    {"\\Q(a)*\\E", "a", false},
};

// Compiles one pattern the way RegexFilter does (a list value would split at commas).
std::optional<std::wregex> Compile(const std::string& pattern, std::string* error) {
  std::optional<std::wstring> translated = jvm::TranslateJavaRegex(jvm::DecodeUtf8(pattern), error);
  if (!translated) return std::nullopt;
  std::regex_constants::syntax_option_type flags = std::regex_constants::ECMAScript;
#if defined(__GLIBCXX__)
  flags |= std::regex_constants::__polynomial;
#endif
  try {
    return std::wregex(*translated, flags);
  } catch (const std::regex_error& e) {
    *error = std::string("std::regex rejected the translation: ") + e.what();
    return std::nullopt;
  }
}

bool Matches(const std::wregex& regex, const std::string& input) {
  const std::u32string cps = jvm::DecodeUtf8(input);
  return std::regex_match(std::wstring(cps.begin(), cps.end()), regex);
}

bool JavaMatches(const std::string& pattern, const std::string& input, std::string* error) {
  std::optional<std::wregex> regex = Compile(pattern, error);
  return regex && Matches(*regex, input);
}

TEST(JavaRegexTest, AgreesWithJavaUtilRegex) {
  for (const JavaCase& c : kJavaCases) {
    std::string error;
    EXPECT_EQ(JavaMatches(c.pattern, c.input, &error), c.matches)
        << "pattern " << c.pattern << " input " << c.input << " " << error;
    EXPECT_EQ(error, "") << c.pattern;
  }
}

// Patterns java.util.regex rejects (PatternSyntaxException on OpenJDK 17).
TEST(JavaRegexTest, RejectsWhatJavaRejects) {
  for (const char* pattern : {"[]",
                              "a\\E",
                              "x{",
                              "{",
                              "a{,2}",
                              "a{2,1}",
                              "\\y",
                              "a**",
                              "a*?*",
                              "*a",
                              "a|*",
                              "(?<1n>a)",
                              "(?<n>a)(?<n>b)",
                              "[a-\\d]",
                              "[z-a]",
                              "a{ 1}",
                              "a{1 }",
                              "\\",
                              "(",
                              ")",
                              "[",
                              "[^]",
                              "(?",
                              "(?q)",
                              "\\x4",
                              "\\xg1",
                              "\\u12",
                              "\\0",
                              "\\08",
                              "\\x{110000}",
                              "\\c",
                              "\\p{Alpha",
                              "(?<n",
                              "\\k<n>",
                              "[\\b]",
                              "[\\1]",
                              "[\\Ab]"}) {
    std::string error;
    EXPECT_FALSE(Compile(pattern, &error)) << pattern;
    EXPECT_NE(error, "") << pattern;
    EXPECT_THAT(error, ::testing::Not(HasSubstr("not supported by connectd"))) << pattern;
  }
}

// Patterns java.util.regex accepts that connectd refuses rather than match differently.
TEST(JavaRegexTest, RejectsUnsupportedJavaConstructs) {
  for (const char* pattern : {"a*+",
                              "a++",
                              "a?+",
                              "a{1,2}+",
                              "(?>a)",
                              "(a)\\1",
                              "(?<n>a)\\k<n>",
                              "(?<=a)b",
                              "(?<!a)b",
                              "[a&&b]",
                              "[a[b]]",
                              "\\p{L}",
                              "\\pL",
                              "\\p{IsAlphabetic}",
                              "\\p{javaLowerCase}",
                              "\\G",
                              "\\R",
                              "\\X",
                              "\\N{LATIN SMALL LETTER A}",
                              "(?x)a",
                              "(?m)a",
                              "(?d)a",
                              "(?u)a",
                              "(?U)a",
                              "a{1}{2}",
                              "a{1001}",
                              "a{1,1001}",
                              "\\b{g}"}) {
    std::string error;
    EXPECT_FALSE(Compile(pattern, &error)) << pattern;
    EXPECT_THAT(error, HasSubstr("not supported by connectd")) << pattern;
  }
}

TEST(JavaRegexTest, TranslationUsesOnlyPolynomialConstructs) {
  std::string error;
  std::optional<std::wstring> t =
      jvm::TranslateJavaRegex(jvm::DecodeUtf8("(?<g>a)b*?(?i:c)[^d]\\.x"), &error);
  ASSERT_TRUE(t) << error;
  EXPECT_EQ(t->find(L"(?<"), std::wstring::npos);
  EXPECT_EQ(t->find(L"\\1"), std::wstring::npos);
  EXPECT_NE(t->find(L"(?:[Cc])"), std::wstring::npos);
  EXPECT_NE(t->find(L"\\.x"), std::wstring::npos);
}

TEST(JavaRegexTest, RepetitionBounds) {
  std::string error;
  std::optional<std::wregex> r = Compile("a{2,3}b{1000}c{0,}", &error);
  ASSERT_TRUE(r) << error;
  EXPECT_TRUE(Matches(*r, "aa" + std::string(1000, 'b')));
  EXPECT_TRUE(Matches(*r, "aaa" + std::string(1000, 'b') + "ccc"));
  EXPECT_FALSE(Matches(*r, "a" + std::string(1000, 'b')));
  EXPECT_FALSE(Matches(*r, "aa" + std::string(999, 'b')));
  EXPECT_FALSE(Matches(*r, "aaaa" + std::string(1000, 'b')));
}

}  // namespace
}  // namespace connectd::jvm
