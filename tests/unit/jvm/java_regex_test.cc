#include "jvm/java_regex.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <string>

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
    // What PCRE2 brings (Java 17 verdicts, the same probe).
    {"(a)\\1", "aa", true},
    {"(a)\\1", "ab", false},
    {"(?<n>a)\\k<n>", "aa", true},
    {"(?<n>a)\\k<n>", "ab", false},
    {"(a)\\2", "a", false},
    {"\\1(a)", "aa", false},
    {"(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)\\10", "abcdefghijj", true},
    {"(a)\\10", "aa0", true},
    {"(?i)(a)\\1", "aA", true},
    {"(a)(?i)\\1", "aA", true},
    {"(?i)(?<x>a)\\k<x>", "aA", true},
    {"(a)?b\\1", "b", false},
    {"(a)|\\1b", "b", false},
    {"(a)\\1\\1", "aaa", true},
    {"(?<=a)b", "b", false},
    {"a(?<=a)b", "ab", true},
    {"a(?<!a)b", "ab", false},
    {"x(?<!a)b", "xb", true},
    {"a*+a", "aaa", false},
    {"a++b", "aab", true},
    {"a?+a", "a", false},
    {"a{1,2}+a", "aa", false},
    {"a{1,2}+a", "aaa", true},
    {"(?>a|ab)c", "abc", false},
    {"(?>ab|a)c", "abc", true},
    {"[a[b]]", "b", true},
    {"[a[b]]", "a", true},
    {"[^a[b]]", "b", false},
    {"[^a[b]]", "c", true},
    {"[a-z&&[^aeiou]]", "b", true},
    {"[a-z&&[^aeiou]]", "a", false},
    {"[a-z&&def]", "d", true},
    {"[a-z&&def]", "a", false},
    {"[^a-z&&def]", "d", false},
    {"[^a-z&&def]", "x", true},
    {"[^a-z&&def]", "1", true},
    {"[a&&b]", "a", false},
    {"[[a-c]&&[b-d]]", "b", true},
    {"[[a-c]&&[b-d]]", "a", false},
    {"[a-c&&b-d[x]]", "x", false},
    {"[a-c&&b-d[x]]", "b", true},
    {"[a&&]", "a", true},
    {"[&&a]", "a", true},
    {"[a&&&&b]", "a", false},
    {"[a&&&&a]", "a", true},
    {"[^a&&b]", "a", true},
    {"[^a&&b]", "c", true},
    {"[[a]b&&b]", "b", true},
    {"[[a]b&&b]", "a", false},
    {"[^[a]]", "a", false},
    {"[^[^a]]", "a", true},
    {"[^[^a]]", "b", false},
    {"[a-[b]]", "-", true},
    {"[]]", "]", true},
    {"[[a]-c]", "b", false},
    {"[[a]-c]", "-", true},
    {"[\\d&&[^5]]", "5", false},
    {"[\\d&&[^5]]", "6", true},
    {"[a-z&&[^c]&&[^d]]", "d", false},
    {"(?i)[a&&A]", "a", true},
    {"(?i)[[^a]]", "A", false},
    {"(?i)[^[a]]", "A", false},
    {"a{65535}", "a", false},
    {"\\G a", " a", true},
    {"a|ab", "ab", true},
    {"(?:a|ab)(?:c|bcd)", "abcd", true},
};

// Matcher.replaceFirst, Java 17's answers (the same probe): pattern, input, replacement, output
// or "ERROR <message>".
struct ReplaceCase {
  const char* pattern;
  const char* input;
  const char* replacement;
  const char* output;
};

constexpr ReplaceCase kReplaceCases[] = {
    {"a$", "a\n", "X", "X\n"},
    {"a\\Z", "a\r\n", "X", "X\r\n"},
    {"a\\z", "a\n", "X", "a\n"},
    {"a$", "a\xE2\x80\xA8", "X", "X\xE2\x80\xA8"},
    {"a$", "a\x0b", "X", "a\x0b"},
    {"(a)(b)?", "ab", "$2$1", "ba"},
    {"(a)(b)?", "a", "[$2]", "[]"},
    {"(?<x>a)", "a", "${x}!", "a!"},
    {"(a)", "a", "$11", "a1"},
    {"(a)", "a", "$2", "ERROR No group 2"},
    {"(a)", "a", "\\$1", "$1"},
    {"(a)", "a", "$", "ERROR Illegal group reference: group index is missing"},
    {"(a)", "a", "${y}", "ERROR No group with name {y}"},
    {"(a)", "a", "\\", "ERROR character to be escaped is missing"},
    // Java's group names have no length limit (PCRE2's do: connectd numbers them itself).
    {"(?<averyveryveryveryveryveryverylongname1>a)\\k<averyveryveryveryveryveryverylongname1>",
     "aa", "${averyveryveryveryveryveryverylongname1}!", "a!"},
    {"b", "abc", "x", "axc"},
    {"", "abc", "x", "xabc"},
    {"(?<=a)b", "abab", "X", "aXab"},
    {"\xC3\xA9", "x\xC3\xA9y", "E", "xEy"},
};

std::optional<JavaRegex> Compile(const std::string& pattern, std::string* error) {
  return JavaRegex::Compile(pattern, error);
}

bool JavaMatches(const std::string& pattern, const std::string& input, std::string* error) {
  std::optional<JavaRegex> regex = Compile(pattern, error);
  return regex && regex->Matches(input) == JavaRegex::Result::kMatch;
}

TEST(JavaRegexTest, AgreesWithJavaUtilRegex) {
  for (const JavaCase& c : kJavaCases) {
    std::string error;
    EXPECT_EQ(JavaMatches(c.pattern, c.input, &error), c.matches)
        << "pattern " << c.pattern << " input " << c.input << " " << error;
    EXPECT_EQ(error, "") << c.pattern;
  }
}

TEST(JavaRegexTest, ReplaceFirstAgreesWithJava) {
  for (const ReplaceCase& c : kReplaceCases) {
    std::string error;
    std::optional<JavaRegex> regex = Compile(c.pattern, &error);
    ASSERT_TRUE(regex) << c.pattern << ": " << error;
    std::optional<std::string> out = regex->ReplaceFirst(c.input, c.replacement, &error);
    EXPECT_EQ(out ? *out : "ERROR " + error, c.output)
        << "pattern " << c.pattern << " replacement " << c.replacement;
  }
}

// Catastrophic backtracking stops at the match limit instead of stalling the thread.
TEST(JavaRegexTest, HostilePatternHitsTheMatchLimit) {
  std::string error;
  const std::string hostile = std::string(64, 'a') + "!b";  // holds the 'b' PCRE2 looks for
  for (const char* pattern : {"(a+)+b", "(a|a)*b", "(?:a|aa)+$b"}) {
    std::optional<JavaRegex> regex = Compile(pattern, &error);
    ASSERT_TRUE(regex) << pattern << ": " << error;
    const auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(regex->Matches(hostile), JavaRegex::Result::kLimitExceeded) << pattern;
    EXPECT_FALSE(regex->ReplaceFirst(hostile, "x", &error)) << pattern;
    EXPECT_THAT(error, HasSubstr("match limit")) << pattern;
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5)) << pattern;
  }
  std::optional<JavaRegex> fine = Compile("(a+)+b", &error);
  EXPECT_EQ(fine->Matches(std::string(64, 'a') + "b"), JavaRegex::Result::kMatch);
}

TEST(JavaRegexTest, MalformedUtf8ReadsAsReplacementCharacter) {
  std::string error;
  std::optional<JavaRegex> regex = Compile("a.b", &error);
  ASSERT_TRUE(regex) << error;
  EXPECT_EQ(regex->Matches("a\xff"
                           "b"),
            JavaRegex::Result::kMatch);
  EXPECT_EQ(*regex->ReplaceFirst("xa\xff"
                                 "b",
                                 "[$0]", &error),
            "x[a\xEF\xBF\xBD"
            "b]");
}

TEST(JavaRegexTest, GroupCount) {
  std::string error;
  EXPECT_EQ(Compile("(a)(?:b)(?<n>c)(?=(d))", &error)->group_count(), 3);
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
  for (const char* pattern :
       {"a(?<=ab?)", "a(?<=a+)", "\\p{L}", "\\pL", "\\p{IsAlphabetic}", "\\p{javaLowerCase}", "\\R",
        "\\X", "\\N{LATIN SMALL LETTER A}", "(?x)a", "(?m)a", "(?d)a", "(?u)a", "(?U)a", "a{1}{2}",
        "a{65536}", "a{1,70000}", "\\b{g}"}) {
    std::string error;
    EXPECT_FALSE(Compile(pattern, &error)) << pattern;
    EXPECT_THAT(error, HasSubstr("not supported by connectd")) << pattern;
  }
}

TEST(JavaRegexTest, RepetitionBounds) {
  std::string error;
  std::optional<JavaRegex> r = Compile("a{2,3}b{1000}c{0,}", &error);
  ASSERT_TRUE(r) << error;
  auto matches = [&](const std::string& s) { return r->Matches(s) == JavaRegex::Result::kMatch; };
  EXPECT_TRUE(matches("aa" + std::string(1000, 'b')));
  EXPECT_TRUE(matches("aaa" + std::string(1000, 'b') + "ccc"));
  EXPECT_FALSE(matches("a" + std::string(1000, 'b')));
  EXPECT_FALSE(matches("aa" + std::string(999, 'b')));
  EXPECT_FALSE(matches("aaaa" + std::string(1000, 'b')));
}

}  // namespace
}  // namespace connectd::jvm
