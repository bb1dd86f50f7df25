#include "runtime/config/properties.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace connectd::config {
namespace {

using ::testing::Pair;
using ::testing::UnorderedElementsAre;

Properties ParseOk(std::string_view text) {
  absl::StatusOr<Properties> parsed = ParseProperties(text);
  EXPECT_TRUE(parsed.ok()) << parsed.status();
  return parsed.ok() ? *parsed : Properties{};
}

TEST(PropertiesTest, SeparatorsEqualsColonAndWhitespace) {
  EXPECT_THAT(ParseOk("a=1\nb:2\nc 3\nd = 4\ne\t:\t5\nf   =  = 6\n"),
              UnorderedElementsAre(Pair("a", "1"), Pair("b", "2"), Pair("c", "3"), Pair("d", "4"),
                                   Pair("e", "5"), Pair("f", "= 6")));
}

TEST(PropertiesTest, CommentsAndBlankLinesAreSkipped) {
  EXPECT_THAT(ParseOk("# comment\n  ! also a comment\n\n   \nkey=value # not a comment\n"),
              UnorderedElementsAre(Pair("key", "value # not a comment")));
}

TEST(PropertiesTest, CommentLinesAreNotContinued) {
  EXPECT_THAT(ParseOk("# comment \\\nkey=value\n"), UnorderedElementsAre(Pair("key", "value")));
}

TEST(PropertiesTest, ContinuationLinesDropLeadingWhitespace) {
  EXPECT_THAT(ParseOk("topics=a,\\\n    b,\\\n\tc\nnext=1"),
              UnorderedElementsAre(Pair("topics", "a,b,c"), Pair("next", "1")));
}

TEST(PropertiesTest, EvenBackslashesDoNotContinue) {
  EXPECT_THAT(ParseOk("path=C:\\\\\nother=x\n"),
              UnorderedElementsAre(Pair("path", "C:\\"), Pair("other", "x")));
}

TEST(PropertiesTest, EscapesInKeysAndValues) {
  EXPECT_THAT(ParseOk("my\\ key\\=x=tab\\there\\nnl \\u00e9\\u20AC \\q\n"),
              UnorderedElementsAre(Pair("my key=x", "tab\there\nnl \xC3\xA9\xE2\x82\xAC q")));
}

TEST(PropertiesTest, CrLfAndCrLineEndings) {
  EXPECT_THAT(ParseOk("a=1\r\nb=2\rc=3"),
              UnorderedElementsAre(Pair("a", "1"), Pair("b", "2"), Pair("c", "3")));
}

TEST(PropertiesTest, KeyWithoutValueAndLastDuplicateWins) {
  EXPECT_THAT(ParseOk("lonely\nx=1\nx=2\n"),
              UnorderedElementsAre(Pair("lonely", ""), Pair("x", "2")));
}

TEST(PropertiesTest, MalformedUnicodeEscapeNamesTheLine) {
  absl::StatusOr<Properties> parsed = ParseProperties("ok=1\n\nbad=\\u12G4\n");
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(parsed.status().message()), ::testing::HasSubstr("line 3"));
  EXPECT_FALSE(ParseProperties("short=\\u12").ok());
}

TEST(PropertiesTest, MissingFileIsNotFound) {
  absl::StatusOr<Properties> parsed = LoadPropertiesFile("/nonexistent/worker.properties");
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.status().code(), absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace connectd::config
