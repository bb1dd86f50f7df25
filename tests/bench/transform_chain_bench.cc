// transform_chain_bench: the per-record cost of a task's data plane, measured, never asserted.
// Runs the same records through RecordPipeline configurations in one process and prints ns per
// record for each and its ratio to the first (a pipeline the task skips entirely):
//   pass-through        ByteArrayConverter, no transforms (the task's zero-copy path)
//   json                JsonConverter (schemas.enable=false) on sink records, no transforms
//   json+3-transforms   the same plus ReplaceField (exclude), InsertField (offset) and
//                       RegexRouter
//   bytes+3-transforms  source records (bytes) through RegexRouter, InsertHeader and
//                       Filter-with-predicate (never matching)
// Usage: transform_chain_bench [RECORDS]   (default 200000)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "runtime/worker/record_pipeline.h"

namespace {

using connectd::worker::KafkaRecord;
using connectd::worker::PipelineOutcome;
using connectd::worker::RecordPipeline;
using Config = std::map<std::string, std::string>;

double NanosPerRecord(RecordPipeline* pipeline, const std::vector<KafkaRecord>& records,
                      bool sink) {
  const auto start = std::chrono::steady_clock::now();
  size_t kept = 0;
  for (size_t i = 0; i < records.size(); ++i) {
    if (pipeline == nullptr) {
      KafkaRecord copy = records[i];  // what the task does without a pipeline: nothing but this
      kept += copy.value.has_value();
      continue;
    }
    PipelineOutcome out = sink ? pipeline->ToSink(records[i], static_cast<int64_t>(i))
                               : pipeline->FromSource(records[i]);
    if (out.error) {
      std::fprintf(stderr, "record %zu failed: %s\n", i, out.error->message.c_str());
      std::exit(1);
    }
    kept += out.record.has_value();
  }
  const auto elapsed = std::chrono::steady_clock::now() - start;
  if (kept != records.size())
    std::fprintf(stderr, "warning: %zu records dropped\n", records.size() - kept);
  return std::chrono::duration<double, std::nano>(elapsed).count() /
         static_cast<double>(records.size());
}

std::unique_ptr<RecordPipeline> Make(const Config& config) {
  auto p = RecordPipeline::Make(config, {});
  if (!p.ok()) {
    std::fprintf(stderr, "%s\n", std::string(p.status().message()).c_str());
    std::exit(1);
  }
  return *std::move(p);
}

}  // namespace

int main(int argc, char** argv) {
  const size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 200000;
  std::vector<KafkaRecord> records(n);
  for (size_t i = 0; i < n; ++i) {
    records[i].topic = "orders-raw";
    records[i].partition = static_cast<int32_t>(i % 12);
    records[i].value = "{\"id\":" + std::to_string(i) + ",\"customer\":\"c-" +
                       std::to_string(i % 977) +
                       "\",\"amount\":12.5,\"secret\":\"x\",\"items\":[1,2,3]}";
    records[i].timestamp_ms = 1700000000000 + static_cast<int64_t>(i);
    records[i].headers.emplace_back("trace", std::string("abc"));
  }
  const Config json = {{"value.converter", "JsonConverter"},
                       {"value.converter.schemas.enable", "false"}};
  Config json3 = json;
  json3.insert({{"transforms", "drop,at,route"},
                {"transforms.drop.type", "ReplaceField$Value"},
                {"transforms.drop.exclude", "secret"},
                {"transforms.at.type", "InsertField$Value"},
                {"transforms.at.offset.field", "offset"},
                {"transforms.route.type", "RegexRouter"},
                {"transforms.route.regex", "(.*)-raw"},
                {"transforms.route.replacement", "$1"}});
  const Config bytes3 = {{"transforms", "route,tag,skip"},
                         {"transforms.route.type", "RegexRouter"},
                         {"transforms.route.regex", "(.*)-raw"},
                         {"transforms.route.replacement", "$1"},
                         {"transforms.tag.type", "InsertHeader"},
                         {"transforms.tag.header", "origin"},
                         {"transforms.tag.value.literal", "connectd"},
                         {"transforms.skip.type", "Filter"},
                         {"transforms.skip.predicate", "never"},
                         {"predicates", "never"},
                         {"predicates.never.type", "TopicNameMatches"},
                         {"predicates.never.pattern", "nothing-matches-this"}};
  auto json_pipeline = Make(json);
  auto json3_pipeline = Make(json3);
  auto bytes3_pipeline = Make(bytes3);
  const double base = NanosPerRecord(nullptr, records, false);
  const double j = NanosPerRecord(json_pipeline.get(), records, true);
  const double j3 = NanosPerRecord(json3_pipeline.get(), records, true);
  const double b3 = NanosPerRecord(bytes3_pipeline.get(), records, false);
  std::printf("records=%zu (value %zu bytes)\n", n, records[0].value->size());
  std::printf("%-20s %10s %8s\n", "pipeline", "ns/record", "ratio");
  std::printf("%-20s %10.0f %8.2f\n", "pass-through", base, 1.0);
  std::printf("%-20s %10.0f %8.2f\n", "json", j, j / base);
  std::printf("%-20s %10.0f %8.2f\n", "json+3-transforms", j3, j3 / base);
  std::printf("%-20s %10.0f %8.2f\n", "bytes+3-transforms", b3, b3 / base);
  std::printf("summary: chain_vs_json=%.2f chain_ns_per_record=%.0f\n", j3 / j, j3 - j);
  return 0;
}
