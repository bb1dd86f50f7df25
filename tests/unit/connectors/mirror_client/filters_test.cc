#include "connectors/mirror_client/filters.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "tests/unit/connectors/mirror_client/golden.h"

namespace connectd::mirror {
namespace {

using testing::FieldOrDie;
using testing::FromHex;
using testing::GoldenLines;
using ::testing::HasSubstr;
using testing::Split;

std::map<std::string, std::string> Props(const std::string& encoded) {
  std::map<std::string, std::string> props;
  if (encoded == "~") return props;
  for (const std::string& kv : Split(encoded, ',')) {
    const size_t eq = kv.find('=');
    props[kv.substr(0, eq)] = FromHex(kv.substr(eq + 1));
  }
  return props;
}

// Patterns Java accepts and connectd deliberately rejects (jvm/java_regex.h lists them). The
// golden file's possessive, atomic, back-reference, lookbehind and intersection cases now match
// as Java does (PCRE2).
const std::set<std::string>& UnsupportedPatterns() {
  static const std::set<std::string> patterns = {"\\p{L}+"};
  return patterns;
}

// A filter built from one golden props cell, or its error.
struct Built {
  std::optional<TopicFilter> topic;
  std::optional<GroupFilter> group;
  std::optional<ConfigPropertyFilter> config;
  std::string error;
  bool ok() const { return topic || group || config; }
};

Built Build(const std::string& kind, const std::map<std::string, std::string>& props) {
  Built b;
  if (kind == "topic") b.topic = TopicFilter::Make(props, &b.error);
  if (kind == "group") b.group = GroupFilter::Make(props, &b.error);
  if (kind == "config") b.config = ConfigPropertyFilter::Make(props, &b.error);
  return b;
}

TEST(FiltersGoldenTest, DefaultsAreKafkas) {
  std::map<std::string, std::string> defaults;
  for (const std::string& line : GoldenLines("filters.tsv")) {
    const std::vector<std::string> f = Split(line, '\t');
    if (f[0] == "default") defaults[f[1]] = FieldOrDie(f[2]);
  }
  ASSERT_EQ(defaults.size(), 5u);
  EXPECT_EQ(defaults["topics"], kTopicsDefault);
  EXPECT_EQ(defaults["topics.exclude"], kTopicsExcludeDefault);
  EXPECT_EQ(defaults["groups"], kGroupsDefault);
  EXPECT_EQ(defaults["groups.exclude"], kGroupsExcludeDefault);
  EXPECT_EQ(defaults["config.properties.exclude"], kConfigPropertiesExcludeDefault);
}

// Every answer of DefaultTopicFilter/DefaultGroupFilter/DefaultConfigPropertyFilter in
// filters.tsv, including which configurations Java rejects.
TEST(FiltersGoldenTest, MatchesJava) {
  std::string current_key;
  Built built;
  bool skip = false;
  int answers = 0;
  int configs = 0;
  int unsupported = 0;
  for (const std::string& line : GoldenLines("filters.tsv")) {
    const std::vector<std::string> f = Split(line, '\t');
    if (f[0] == "default") continue;
    ASSERT_GE(f.size(), 4u) << line;
    const std::map<std::string, std::string> props = Props(f[1]);
    std::string described;
    for (const auto& [k, v] : props) described += k + "=" + v + " ";
    SCOPED_TRACE(f[0] + " filter, " + described);
    if (f[0] + f[1] != current_key) {
      current_key = f[0] + f[1];
      built = Build(f[0], props);
      ++configs;
      skip = false;
      auto topics = props.find("topics");
      if (topics != props.end() && UnsupportedPatterns().count(topics->second) > 0) {
        EXPECT_FALSE(built.ok()) << "connectd now supports " << topics->second;
        EXPECT_THAT(built.error, HasSubstr("not supported by connectd"));
        skip = true;
        ++unsupported;
      }
    }
    if (skip) continue;
    if (f[3] == "error") {
      ASSERT_EQ(f.size(), 5u);
      EXPECT_FALSE(built.ok()) << "Java: " << f[4];
      if (f[4].rfind("Configuration '", 0) == 0) {
        EXPECT_EQ(built.error, f[4]);
      }
      continue;
    }
    ASSERT_TRUE(built.ok()) << built.error;
    const std::string name = FieldOrDie(f[2]);
    std::string actual;
    if (built.topic) actual = built.topic->ShouldReplicateTopic(name) ? "true" : "false";
    if (built.group) actual = built.group->ShouldReplicateGroup(name) ? "true" : "false";
    if (built.config) {
      actual = std::string(built.config->ShouldReplicateConfigProperty(name) ? "true" : "false") +
               "," + (built.config->ShouldReplicateSourceDefault(name) ? "true" : "false");
    }
    EXPECT_EQ(actual, f[3]) << "name " << f[2];
    ++answers;
  }
  EXPECT_EQ(unsupported, 1);  // \p{L}+ (the rest of the golden file agrees with Java)
  EXPECT_GT(configs, 70);
  EXPECT_GT(answers, 1400);
}

TEST(FiltersTest, DefaultTopicFilter) {
  std::string error;
  std::optional<TopicFilter> filter = TopicFilter::Make({}, &error);
  ASSERT_TRUE(filter) << error;
  EXPECT_TRUE(filter->ShouldReplicateTopic("orders"));
  EXPECT_TRUE(filter->ShouldReplicateTopic("orders.internal"));  // Kafka 4.x: replicated
  EXPECT_TRUE(filter->ShouldReplicateTopic("orders-internal"));
  EXPECT_FALSE(filter->ShouldReplicateTopic("mm2-offset-syncs.B.internal"));
  EXPECT_FALSE(filter->ShouldReplicateTopic("x.replica"));
  EXPECT_FALSE(filter->ShouldReplicateTopic("__consumer_offsets"));
}

TEST(FiltersTest, ListParsing) {
  std::string error;
  std::optional<RegexFilter> f = RegexFilter::Make(" orders , pay.*\t,\nx ", &error);
  ASSERT_TRUE(f) << error;
  EXPECT_TRUE(f->Matches("orders"));
  EXPECT_TRUE(f->Matches("payments"));
  EXPECT_TRUE(f->Matches("x"));
  EXPECT_FALSE(f->Matches(" orders"));
  EXPECT_FALSE(f->Matches("orders2"));  // whole-string match

  f = RegexFilter::Make("", &error);
  ASSERT_TRUE(f);
  EXPECT_FALSE(f->Matches(""));
  EXPECT_FALSE(f->Matches("anything"));
  f = RegexFilter::Make(" \t ", &error);
  ASSERT_TRUE(f);
  EXPECT_FALSE(f->Matches(""));

  // Duplicates are dropped; empty items are errors.
  EXPECT_TRUE(RegexFilter::Make("a, a", &error));
  EXPECT_FALSE(RegexFilter::MakeForConfig("topics", "a,,b", &error));
  EXPECT_EQ(error, "Configuration 'topics' values must not be empty.");
  EXPECT_FALSE(RegexFilter::MakeForConfig("groups", "a, ", &error));
  EXPECT_EQ(error, "Configuration 'groups' values must not be empty.");

  // Items join into one pattern.
  f = RegexFilter::Make("(a, b)", &error);
  ASSERT_TRUE(f) << error;
  EXPECT_TRUE(f->Matches("a"));
  EXPECT_TRUE(f->Matches("b"));
  EXPECT_FALSE(RegexFilter::Make("a{1,2}", &error));  // "a{1|2}"
  EXPECT_THAT(error, HasSubstr("unclosed counted closure"));
}

TEST(FiltersTest, ConfigPropertyFilter) {
  std::string error;
  std::optional<ConfigPropertyFilter> filter = ConfigPropertyFilter::Make({}, &error);
  ASSERT_TRUE(filter) << error;
  EXPECT_FALSE(filter->ShouldReplicateConfigProperty("min.insync.replicas"));
  EXPECT_FALSE(filter->ShouldReplicateConfigProperty("log.message.timestamp.after.max.ms"));
  EXPECT_FALSE(filter->ShouldReplicateConfigProperty("messageXtimestampXtype"));  // unescaped .
  EXPECT_TRUE(filter->ShouldReplicateConfigProperty("retention.ms"));
  EXPECT_FALSE(filter->ShouldReplicateSourceDefault("retention.ms"));
  filter = ConfigPropertyFilter::Make({{"use.defaults.from", " source "}}, &error);
  ASSERT_TRUE(filter);
  EXPECT_TRUE(filter->ShouldReplicateSourceDefault("retention.ms"));
  filter = ConfigPropertyFilter::Make({{"use.defaults.from", "Source"}}, &error);
  ASSERT_TRUE(filter);
  EXPECT_FALSE(filter->ShouldReplicateSourceDefault("retention.ms"));
}

TEST(FiltersTest, ErrorsNameTheConfig) {
  std::string error;
  EXPECT_FALSE(TopicFilter::Make({{"topics.exclude", "(a"}}, &error));
  EXPECT_THAT(error, HasSubstr("configuration topics.exclude"));
  EXPECT_THAT(error, HasSubstr("unclosed group"));
  EXPECT_FALSE(GroupFilter::Make({{"groups", "a**"}}, &error));
  EXPECT_THAT(error, HasSubstr("configuration groups"));
  EXPECT_FALSE(ConfigPropertyFilter::Make({{"config.properties.exclude", "[a"}}, &error));
  EXPECT_THAT(error, HasSubstr("configuration config.properties.exclude"));
  EXPECT_FALSE(TopicFilter::Make({{"topics", "\\p{L}"}}, nullptr));
}

TEST(FiltersTest, LongNamesMatchWithoutRecursion) {
  std::string error;
  std::optional<RegexFilter> f = RegexFilter::Make("(?:a|b)*c?, x.*", &error);
  ASSERT_TRUE(f) << error;
  EXPECT_TRUE(f->Matches(std::string(200000, 'a')));
  EXPECT_TRUE(f->Matches("x" + std::string(200000, 'z')));
  EXPECT_FALSE(f->Matches(std::string(200000, 'a') + "d"));
}

TEST(FiltersTest, CopiesShareThePattern) {
  std::string error;
  std::optional<GroupFilter> a = GroupFilter::Make({{"groups", "g.*"}}, &error);
  ASSERT_TRUE(a);
  GroupFilter b = *a;
  a.reset();
  EXPECT_TRUE(b.ShouldReplicateGroup("g1"));
  EXPECT_FALSE(b.ShouldReplicateGroup("connect-g"));
  EXPECT_FALSE(b.ShouldReplicateGroup("h"));
}

TEST(RegexFilterTest, MalformedInputIsReadAsReplacementCharacters) {
  std::string error;
  std::optional<RegexFilter> f = RegexFilter::Make("a\\uFFFDb, .", &error);
  ASSERT_TRUE(f) << error;
  EXPECT_TRUE(
      f->Matches("a\xff"
                 "b"));
  EXPECT_TRUE(f->Matches("\xC3"));  // one U+FFFD: one character
  EXPECT_FALSE(f->Matches("\xC3\x28"));
}

}  // namespace
}  // namespace connectd::mirror
