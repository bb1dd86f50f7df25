// JsonConverter against Kafka's own: every case of tests/golden/json_converter/cases.tsv, read
// and written back, must give the bytes (or the error) that Java's JsonConverter gave in
// expected.tsv (GenerateJsonConverterGolden.java).
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "runtime/converters/json_converter.h"

namespace connectd::converters {
namespace {

std::string GoldenDir() {
  const char* env = std::getenv("CONNECTD_SOURCE_DIR");
  return std::string(env != nullptr ? env : CONNECTD_SOURCE_DIR) + "/tests/golden/json_converter/";
}

std::vector<std::string> Split(const std::string& s, char sep, size_t max_fields) {
  std::vector<std::string> out;
  size_t start = 0;
  while (out.size() + 1 < max_fields) {
    const size_t end = s.find(sep, start);
    if (end == std::string::npos) break;
    out.push_back(s.substr(start, end - start));
    start = end + 1;
  }
  out.push_back(s.substr(start));
  return out;
}

std::vector<std::string> Lines(const std::string& file) {
  std::ifstream in(GoldenDir() + file, std::ios::binary);
  EXPECT_TRUE(in) << "cannot read " << file;
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line[0] != '#') lines.push_back(line);
  }
  return lines;
}

std::map<std::string, std::string> Configs(const std::string& column) {
  std::map<std::string, std::string> out;
  if (column == "-") return out;
  for (const std::string& kv : Split(column, ',', 100)) {
    const size_t eq = kv.find('=');
    out[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  return out;
}

std::optional<std::string> Input(const std::string& text) {
  if (text == "~") return std::nullopt;
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 3 < text.size() && text[i + 1] == 'x') {
      out.push_back(static_cast<char>(std::stoi(text.substr(i + 2, 2), nullptr, 16)));
      i += 3;
    } else {
      out.push_back(text[i]);
    }
  }
  return out;
}

std::string Encode(const std::optional<std::string>& bytes) {
  if (!bytes) return "~";
  bool plain = !bytes->empty();
  for (unsigned char c : *bytes) plain &= c > 0x20 && c < 0x7f && c != '\\';
  if (plain) return "s:" + *bytes;
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "x:";
  for (unsigned char c : *bytes) {
    out.push_back(kHex[c >> 4]);
    out.push_back(kHex[c & 0xF]);
  }
  return out;
}

// What connectd's converter does with one case, in expected.tsv's notation.
std::string RunCase(const std::vector<std::string>& c) {
  absl::StatusOr<JsonConverterConfig> in_config = JsonConverterConfig::Parse(Configs(c[1]));
  absl::StatusOr<JsonConverterConfig> out_config = JsonConverterConfig::Parse(Configs(c[2]));
  if (!in_config.ok() || !out_config.ok()) return "bad config";
  JsonConverter in(*in_config);
  JsonConverter out(*out_config);
  const std::optional<std::string> input = Input(c.size() > 3 ? c[3] : "");
  absl::StatusOr<SchemaAndValue> data =
      in.ToConnectData("topic", input ? std::optional<std::string_view>(*input) : std::nullopt);
  if (!data.ok()) return "error-in\t" + std::string(data.status().message());
  absl::StatusOr<std::optional<std::string>> bytes =
      out.FromConnectData("topic", data->schema, data->value);
  if (!bytes.ok()) return "error-out\t" + std::string(bytes.status().message());
  return "out\t" + Encode(*bytes);
}

TEST(JsonConverterGoldenTest, EveryCaseMatchesJava) {
  std::map<std::string, std::string> expected;
  for (const std::string& line : Lines("expected.tsv")) {
    const std::vector<std::string> f = Split(line, '\t', 2);
    expected[f[0]] = f[1];
  }
  size_t cases = 0;
  for (const std::string& line : Lines("cases.tsv")) {
    const std::vector<std::string> c = Split(line, '\t', 4);
    ASSERT_GE(c.size(), 3u) << line;
    ASSERT_TRUE(expected.count(c[0])) << "no expected result for " << c[0];
    EXPECT_EQ(RunCase(c), expected[c[0]]) << "case " << c[0];
    ++cases;
  }
  EXPECT_EQ(cases, expected.size());
  EXPECT_GT(cases, 100u);
}

TEST(JsonConverterConfigTest, RejectsBadValuesAsJavaDoes) {
  EXPECT_EQ(JsonConverterConfig::Parse({{"schemas.enable", "yes"}}).status().message(),
            "Invalid value yes for configuration schemas.enable: Expected value to be either "
            "true or false");
  EXPECT_FALSE(JsonConverterConfig::Parse({{"decimal.format", "HEX"}}).ok());
  absl::StatusOr<JsonConverterConfig> numeric =
      JsonConverterConfig::Parse({{"decimal.format", "numeric"}, {"schemas.enable", "FALSE"}});
  ASSERT_TRUE(numeric.ok());
  EXPECT_TRUE(numeric->decimal_numeric);
  EXPECT_FALSE(numeric->schemas_enable);
}

}  // namespace
}  // namespace connectd::converters
