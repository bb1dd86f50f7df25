// Connect's transforms and predicates against Kafka's own: every case of
// tests/golden/transforms/cases.tsv (a chain config and a record) must give the record, the
// drop, or the error that Kafka 4.4's classes gave in expected.tsv
// (GenerateTransformsGolden.java). Records cross as JsonConverter envelopes, so the output's
// bytes include the schemas the transforms built.
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "runtime/converters/json_converter.h"
#include "runtime/data/connect_json.h"
#include "jvm/java_text.h"
#include "runtime/transforms/transformation_chain.h"

namespace connectd::transforms {
namespace {

using data::JsonValue;

std::string GoldenDir() {
  const char* env = std::getenv("CONNECTD_SOURCE_DIR");
  return std::string(env != nullptr ? env : CONNECTD_SOURCE_DIR) + "/tests/golden/transforms/";
}

// Lines end at '\n' only: a case may hold a raw U+2028.
std::vector<std::string> Lines(const std::string& file) {
  std::ifstream in(GoldenDir() + file, std::ios::binary);
  EXPECT_TRUE(in) << "cannot read " << file;
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line[0] != '#') lines.push_back(line);
  }
  return lines;
}

std::vector<std::string> Split(const std::string& s, size_t max_fields) {
  std::vector<std::string> out;
  size_t start = 0;
  while (out.size() + 1 < max_fields) {
    const size_t end = s.find('\t', start);
    if (end == std::string::npos) break;
    out.push_back(s.substr(start, end - start));
    start = end + 1;
  }
  out.push_back(s.substr(start));
  return out;
}

// Compact JSON text of a parsed value, numbers as written.
void Write(const JsonValue& v, std::string& out) {
  switch (v.kind) {
    case JsonValue::Kind::kNull:
      out += "null";
      break;
    case JsonValue::Kind::kBool:
      out += v.boolean ? "true" : "false";
      break;
    case JsonValue::Kind::kLong:
    case JsonValue::Kind::kDouble:
      out += v.number;
      break;
    case JsonValue::Kind::kString:
      jvm::AppendJacksonString(v.text, out);
      break;
    case JsonValue::Kind::kArray: {
      out += '[';
      for (size_t i = 0; i < v.elements.size(); ++i) {
        if (i) out += ',';
        Write(v.elements[i], out);
      }
      out += ']';
      break;
    }
    case JsonValue::Kind::kObject: {
      out += '{';
      for (size_t i = 0; i < v.members.size(); ++i) {
        if (i) out += ',';
        jvm::AppendJacksonString(v.members[i].first, out);
        out += ':';
        Write(v.members[i].second, out);
      }
      out += '}';
      break;
    }
  }
}

converters::SchemaAndValue Envelope(const JsonValue* v) {
  converters::JsonConverter converter{converters::JsonConverterConfig{}};
  std::string text;
  Write(*v, text);
  absl::StatusOr<converters::SchemaAndValue> data = converter.ToConnectData("topic", text);
  EXPECT_TRUE(data.ok()) << text << ": " << data.status();
  return data.ok() ? *data : converters::SchemaAndValue{};
}

ConnectRecord ReadRecord(const std::string& json) {
  absl::StatusOr<JsonValue> v = data::ReadConnectJson(json);
  EXPECT_TRUE(v.ok()) << json;
  ConnectRecord r;
  r.topic = v->Find("topic")->text;
  if (const JsonValue* p = v->Find("partition"); p && !p->is_null()) {
    r.kafka_partition = static_cast<int32_t>(p->integer);
  }
  converters::SchemaAndValue key = Envelope(v->Find("key"));
  r.key_schema = key.schema;
  r.key = key.value;
  converters::SchemaAndValue value = Envelope(v->Find("value"));
  r.value_schema = value.schema;
  r.value = value.value;
  if (const JsonValue* t = v->Find("timestamp"); t && !t->is_null()) r.timestamp = t->integer;
  if (const JsonValue* headers = v->Find("headers")) {
    for (const JsonValue& h : headers->elements) {
      converters::SchemaAndValue hv = Envelope(h.Find("value"));
      r.headers.push_back(Header{h.Find("key")->text, hv.schema, hv.value});
    }
  }
  if (const JsonValue* o = v->Find("offset"); o && !o->is_null()) r.kafka_offset = o->integer;
  return r;
}

absl::StatusOr<std::string> EnvelopeText(const data::SchemaPtr& schema, const data::Value& value) {
  converters::JsonConverter converter{converters::JsonConverterConfig{}};
  absl::StatusOr<std::optional<std::string>> bytes =
      converter.FromConnectData("topic", schema, value);
  if (!bytes.ok()) return bytes.status();
  return bytes->value_or(R"({"schema":null,"payload":null})");
}

// A JSON string as Jackson's ObjectMapper.writeValueAsString writes one (a String writer: quote,
// backslash and control characters escaped, everything else as it is).
void AppendJsonText(const std::string& text, std::string& out) {
  out.push_back('"');
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(static_cast<char>(c));
    } else if (c < 0x20) {
      std::string one;
      jvm::AppendJacksonString(std::string(1, static_cast<char>(c)), one);
      out.append(one.substr(1, one.size() - 2));
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
  out.push_back('"');
}

// Cases whose Java message is the text of java.util.regex's PatternSyntaxException, which
// connectd's pattern translation does not reproduce: only the outcome (a config error) is
// compared.
const std::set<std::string>& MessageDiffers() {
  static const auto* kCases =
      new std::set<std::string>{"regexrouter-invalid-regex", "pred-topicnamematches-invalid-regex"};
  return *kCases;
}

std::string OneLine(absl::string_view message) {
  std::string out(message);
  for (char& c : out) {
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  }
  return out;
}

// What connectd makes of one case, in expected.tsv's notation (without the name).
std::string RunCase(const std::string& configs_json, const std::string& record_json) {
  absl::StatusOr<JsonValue> configs = data::ReadConnectJson(configs_json);
  std::map<std::string, std::string> config;
  for (const auto& [k, v] : configs->members) config[k] = v.text;
  absl::StatusOr<TransformationChain> chain = TransformationChain::FromConnectorConfig(config);
  if (!chain.ok()) return "error-config\t" + OneLine(chain.status().message());
  absl::StatusOr<std::optional<ConnectRecord>> out = chain->Apply(ReadRecord(record_json));
  if (!out.ok()) return "error-apply\t" + OneLine(out.status().message());
  if (!*out) return "filtered\t";
  const ConnectRecord& r = **out;
  std::string json = "{\"topic\":";
  AppendJsonText(r.topic, json);
  json += ",\"partition\":";
  json += r.kafka_partition ? std::to_string(*r.kafka_partition) : "null";
  absl::StatusOr<std::string> key = EnvelopeText(r.key_schema, r.key);
  if (!key.ok()) return "error-convert\t" + OneLine(key.status().message());
  absl::StatusOr<std::string> value = EnvelopeText(r.value_schema, r.value);
  if (!value.ok()) return "error-convert\t" + OneLine(value.status().message());
  json += ",\"key\":" + *key + ",\"value\":" + *value + ",\"timestamp\":";
  json += r.timestamp ? std::to_string(*r.timestamp) : "null";
  json += ",\"headers\":[";
  for (size_t i = 0; i < r.headers.size(); ++i) {
    if (i) json += ',';
    json += "{\"key\":";
    AppendJsonText(r.headers[i].key, json);
    absl::StatusOr<std::string> hv = EnvelopeText(r.headers[i].schema, r.headers[i].value);
    if (!hv.ok()) return "error-convert\t" + OneLine(hv.status().message());
    json += ",\"value\":" + *hv + "}";
  }
  json += "]}";
  return "out\t" + json;
}

TEST(TransformsGoldenTest, EveryCaseMatchesJava) {
  std::map<std::string, std::string> expected;
  for (const std::string& line : Lines("expected.tsv")) {
    const std::vector<std::string> f = Split(line, 2);
    expected[f[0]] = f.size() > 1 ? f[1] : "";
    if (expected[f[0]] == "filtered") expected[f[0]] = "filtered\t";
  }
  size_t cases = 0, matched = 0;
  for (const std::string& line : Lines("cases.tsv")) {
    const std::vector<std::string> c = Split(line, 3);
    ASSERT_EQ(c.size(), 3u) << line;
    ASSERT_TRUE(expected.count(c[0])) << "no expected result for " << c[0];
    const std::string got = RunCase(c[1], c[2]);
    ++cases;
    const auto category = [](const std::string& s) { return s.substr(0, s.find('\t')); };
    if (got == expected[c[0]] ||
        (MessageDiffers().count(c[0]) && category(got) == category(expected[c[0]]))) {
      ++matched;
    } else {
      ADD_FAILURE() << "case " << c[0] << "\n  java:     " << expected[c[0]]
                    << "\n  connectd: " << got;
    }
  }
  EXPECT_EQ(cases, expected.size());
  std::cout << matched << " of " << cases << " cases match Java\n";
}

}  // namespace
}  // namespace connectd::transforms
