// kafka_test_tool: what end-to-end tests (Python, standard library only) need from Kafka.
//   create BOOTSTRAP TOPIC PARTITIONS            create a topic
//   produce BOOTSTRAP TOPIC COUNT PARTITIONS [TS] numbered records: key k<i>, value v<i>,
//                                                headers h=<i> and empty=, timestamp TS+i (TS
//                                                defaults to now: older records fall to the
//                                                brokers' time retention), partition i % PARTITIONS
//   consume BOOTSTRAP TOPIC COUNT [SECONDS]      COUNT records from the start, one JSON line
//                                                each: partition, offset, key, value (also as
//                                                key_hex/value_hex), headers, timestamp
//   partitions BOOTSTRAP TOPIC                   the partition count (0: no such topic)
//   count BOOTSTRAP TOPIC                        records in the topic (sum of end offsets)
// Exit 0 on success; errors go to stderr with exit 1.
#include <librdkafka/rdkafka.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

#include "tests/common/kafka_test_clients.h"

namespace {

using connectd::testing::TestRecord;

std::string Hex(const std::string& s) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : s) {
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out;
}

std::string Json(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c >= 0x80) {  // bytes, not text: see key_hex/value_hex
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\u%04x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

int Fail(const std::string& message) {
  std::cerr << "kafka_test_tool: " << message << "\n";
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) return Fail("usage: create|produce|consume|partitions BOOTSTRAP TOPIC ...");
  std::string command = argv[1], bootstrap = argv[2], topic = argv[3];
  if (command == "create" && argc >= 5) {
    absl::Status s = connectd::testing::CreateTopic(bootstrap, topic, std::atoi(argv[4]));
    return s.ok() ? 0 : Fail(s.ToString());
  }
  if (command == "produce" && argc >= 6) {
    int count = std::atoi(argv[4]), partitions = std::atoi(argv[5]);
    int64_t base = argc >= 7 ? std::atoll(argv[6])
                             : std::chrono::duration_cast<std::chrono::milliseconds>(
                                   std::chrono::system_clock::now().time_since_epoch())
                                   .count();
    std::vector<TestRecord> records;
    for (int i = 0; i < count; ++i) {
      TestRecord r;
      r.key = "k" + std::to_string(i);
      r.value = "v" + std::to_string(i);
      r.headers = {{"h", std::to_string(i)}, {"empty", ""}};
      r.partition = i % partitions;
      r.timestamp_ms = base + i;
      records.push_back(std::move(r));
    }
    absl::Status s = connectd::testing::ProduceRecords(bootstrap, topic, records);
    return s.ok() ? 0 : Fail(s.ToString());
  }
  if (command == "consume" && argc >= 5) {
    int seconds = argc >= 6 ? std::atoi(argv[5]) : 30;
    auto records = connectd::testing::ReadTopic(
        bootstrap, topic, static_cast<size_t>(std::atoi(argv[4])), std::chrono::seconds(seconds));
    if (!records.ok()) return Fail(records.status().ToString());
    for (const TestRecord& r : *records) {
      std::cout << "{\"partition\":" << r.partition << ",\"offset\":" << r.offset
                << ",\"key_hex\":\"" << Hex(r.key) << "\",\"value_hex\":\"" << Hex(r.value) << "\""
                << ",\"key\":" << Json(r.key) << ",\"value\":" << Json(r.value)
                << ",\"timestamp\":" << r.timestamp_ms << ",\"headers\":[";
      for (size_t i = 0; i < r.headers.size(); ++i) {
        std::cout << (i ? "," : "") << "[" << Json(r.headers[i].first) << ","
                  << Json(r.headers[i].second) << "]";
      }
      std::cout << "]}\n";
    }
    return 0;
  }
  if (command == "partitions" || command == "count") {
    char err[256];
    rd_kafka_conf_t* conf = rd_kafka_conf_new();
    rd_kafka_conf_set(conf, "bootstrap.servers", bootstrap.c_str(), err, sizeof(err));
    rd_kafka_t* rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, sizeof(err));
    if (!rk) return Fail(err);
    const rd_kafka_metadata_t* md = nullptr;
    int count = 0;
    if (rd_kafka_metadata(rk, 1, nullptr, &md, 10000) == RD_KAFKA_RESP_ERR_NO_ERROR) {
      for (int i = 0; i < md->topic_cnt; ++i) {
        if (topic != md->topics[i].topic || md->topics[i].err) continue;
        count = md->topics[i].partition_cnt;
        if (command == "count") {
          int64_t total = 0;
          for (int p = 0; p < md->topics[i].partition_cnt; ++p) {
            int64_t low = 0, high = 0;
            rd_kafka_query_watermark_offsets(rk, topic.c_str(), md->topics[i].partitions[p].id,
                                             &low, &high, 10000);
            total += high;
          }
          count = static_cast<int>(total);
        }
      }
      rd_kafka_metadata_destroy(md);
    }
    rd_kafka_destroy(rk);
    std::cout << count << "\n";
    return 0;
  }
  return Fail("unknown command " + command);
}
