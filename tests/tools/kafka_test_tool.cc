// kafka_test_tool: what end-to-end tests (Python, standard library only) need from Kafka.
//   create BOOTSTRAP TOPIC PARTITIONS            create a topic
//   produce BOOTSTRAP TOPIC COUNT PARTITIONS [TS] numbered records: key k<i>, value v<i>,
//                                                headers h=<i> and empty=, timestamp TS+i (TS
//                                                defaults to now: older records fall to the
//                                                brokers' time retention), partition i % PARTITIONS
//   produce-sized BOOTSTRAP TOPIC COUNT PARTITIONS BYTES
//                                                like produce, each value v<i> padded with 'x'
//                                                to BYTES (Java's max.request.size, 1048576,
//                                                bounds a record with its framing)
//   consume BOOTSTRAP TOPIC COUNT [SECONDS]      COUNT records from the start, one JSON line
//                                                each: partition, offset, key, value (also as
//                                                key_hex/value_hex), headers, timestamp
//   partitions BOOTSTRAP TOPIC                   the partition count (0: no such topic)
//   count BOOTSTRAP TOPIC                        records in the topic (sum of end offsets)
//   describe-configs BOOTSTRAP TOPIC             the topic's configs, one JSON line each: name,
//                                                value (null if sensitive), source, sensitive
//   alter-configs BOOTSTRAP TOPIC OP...          OP is NAME=VALUE (set) or -NAME (delete); the
//                                                other dynamic topic overrides are kept. Done as
//                                                describe + legacy AlterConfigs (librdkafka
//                                                2.0.2 has no IncrementalAlterConfigs), which is
//                                                fine for tests: nobody else alters test topics
//   create-acl BOOTSTRAP TOPIC PRINCIPAL OPERATION PERMISSION [PATTERN]
//                                                an ACL on a topic (Kafka's names: READ, ALLOW,
//                                                LITERAL (default) or PREFIXED), host *; TOPIC
//                                                @cluster is the cluster (kafka-cluster) in the
//                                                three ACL commands
//   describe-acls BOOTSTRAP TOPIC                the ACLs on exactly this topic name, any
//                                                pattern, one JSON line each: pattern, principal,
//                                                host, operation, permission
//   delete-acls BOOTSTRAP TOPIC                  deletes every ACL on exactly this topic name
//   produce-tx BOOTSTRAP TOPIC COUNT PARTITIONS  like produce (timestamp now), in committed
//                                                transactions of one record per partition, so
//                                                every partition's offsets have gaps (markers)
//   produce-keyed BOOTSTRAP TOPIC KEYS COUNT FIRST
//                                                COUNT updates of KEYS keys to partition 0: key
//                                                k<i % KEYS>, value v<FIRST + i> (a compacted
//                                                topic's changelog)
//   produce-from BOOTSTRAP TOPIC FIRST COUNT PARTITIONS
//                                                like produce, for i in [FIRST, FIRST+COUNT)
//                                                (distinct keys across batches), timestamp now
//   commit BOOTSTRAP TOPIC GROUP PARTITION:OFFSET[:METADATA]...
//                                                commit these offsets (and commit metadata) for
//                                                GROUP without joining it, as a simple consumer
//   consume-all BOOTSTRAP TOPIC [SECONDS]        every record up to each partition's end (as
//                                                of the start), for compacted or shared topics:
//                                                partition, offset, key_hex, value_hex, timestamp
//   create BOOTSTRAP TOPIC PARTITIONS K=V...     create a topic with these topic configs
//   topics BOOTSTRAP SUBSTRING                   the topics whose name contains SUBSTRING
//   delete BOOTSTRAP TOPIC...                    delete these topics (absent ones are fine)
//   delete-records BOOTSTRAP TOPIC PARTITION:OFFSET...
//                                                delete the records before OFFSET (the log
//                                                start moves there, as retention would)
//   config BOOTSTRAP TOPIC NAME                  a topic config's value (DescribeConfigs)
//   end-offsets BOOTSTRAP TOPIC                  {"<partition>": end offset, ...}
//   dump BOOTSTRAP TOPIC [SECONDS]               every record from the start to the end offsets
//                                                of the moment, printed as consume does (+topic)
//   read-from BOOTSTRAP SECONDS GROUP|- TOPIC:PARTITION=OFFSET...
//                                                assign at these offsets, read each partition to
//                                                its end and print the records; with a GROUP,
//                                                then commit the positions reached in it
//   group-consume BOOTSTRAP GROUP TOPICS COUNT SECONDS
//                                                a group member subscribed to the comma-separated
//                                                TOPICS (earliest) prints COUNT records, then
//                                                commits its position on every assigned
//                                                partition, as Java's commitSync() does
//   committed BOOTSTRAP GROUP                    a group's committed offsets, one JSON line each:
//                                                topic, partition, offset
//   heartbeat BOOTSTRAP TOPIC SOURCE TARGET SKEW_MS COUNT INTERVAL_MS
//                                                COUNT MirrorMaker Heartbeat(SOURCE, TARGET)
//                                                records (Kafka's bytes) to partition 0, one every
//                                                INTERVAL_MS, stamped now+SKEW_MS: a heartbeat
//                                                emitter whose clock runs SKEW_MS ahead
//   produce-for BOOTSTRAP TOPIC BYTES_PER_SECOND SECONDS
//                                                1 KiB records at about that rate for SECONDS
//                                                (load for throttling tests)
//   produce-paced BOOTSTRAP TOPIC COUNT PARTITIONS SECONDS
//                                                the numbered records of produce (k<i>, v<i>,
//                                                h=<i>, partition i % PARTITIONS, timestamp now)
//                                                at an even rate over SECONDS, idempotent with
//                                                acks=all and no delivery timeout, so a broker
//                                                outage delays them and never reorders or loses
//                                                one; a progress line `produced N` every second
//                                                on stderr; once every record is acknowledged or
//                                                failed, stdout: {"sent":ACKED,"failed":F,
//                                                "error":FIRST_ERROR}; exit 1 if F > 0
//   verify BOOTSTRAP TOPIC COUNT PARTITIONS [SECONDS] [read_committed]
//                                                reads the whole topic (each partition to its
//                                                end offset of the moment) and checks it against
//                                                produce's numbering: one JSON line with records,
//                                                unique, duplicates, lost, out_of_order,
//                                                mismatched (key, value or h header not k<i>,
//                                                v<i>, <i>), wrong_partition, max_rewind (the
//                                                longest replay, in records of one partition),
//                                                complete (every partition read to its end), a
//                                                few lost indices, a few duplicates with the
//                                                offsets of both copies and a per-partition
//                                                breakdown.
//                                                Order: per partition the first occurrences must
//                                                come in produce's order; a record seen again is
//                                                a duplicate (an at-least-once replay)
// Exit 0 on success; errors go to stderr with exit 1.
#include <librdkafka/rdkafka.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "connectors/mirror_client/records.h"
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

// An admin client; Fail()s are reported through the returned error text.
struct Admin {
  rd_kafka_t* rk = nullptr;
  rd_kafka_queue_t* queue = nullptr;
  ~Admin() {
    if (queue) rd_kafka_queue_destroy(queue);
    if (rk) rd_kafka_destroy(rk);
  }
  bool Open(const std::string& bootstrap, std::string* error) {
    char err[256];
    rd_kafka_conf_t* conf = rd_kafka_conf_new();
    rd_kafka_conf_set(conf, "bootstrap.servers", bootstrap.c_str(), err, sizeof(err));
    rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, sizeof(err));
    if (!rk) {
      *error = err;
      return false;
    }
    queue = rd_kafka_queue_new(rk);
    return true;
  }
  // The next admin result, or null after 30 s.
  rd_kafka_event_t* Wait(std::string* error) {
    rd_kafka_event_t* ev = rd_kafka_queue_poll(queue, 30000);
    if (!ev) {
      *error = "timed out";
    } else if (rd_kafka_event_error(ev)) {
      *error = rd_kafka_event_error_string(ev);
      rd_kafka_event_destroy(ev);
      ev = nullptr;
    }
    return ev;
  }
};

// A topic's configs: name -> (value or null, source).
struct Config {
  std::optional<std::string> value;
  rd_kafka_ConfigSource_t source;
  bool sensitive;
};

std::optional<std::map<std::string, Config>> DescribeConfigs(Admin& admin, const std::string& topic,
                                                             std::string* error) {
  rd_kafka_ConfigResource_t* r =
      rd_kafka_ConfigResource_new(RD_KAFKA_RESOURCE_TOPIC, topic.c_str());
  rd_kafka_DescribeConfigs(admin.rk, &r, 1, nullptr, admin.queue);
  rd_kafka_ConfigResource_destroy(r);
  rd_kafka_event_t* ev = admin.Wait(error);
  if (!ev) return std::nullopt;
  size_t n = 0;
  const rd_kafka_ConfigResource_t** res =
      rd_kafka_DescribeConfigs_result_resources(rd_kafka_event_DescribeConfigs_result(ev), &n);
  std::map<std::string, Config> out;
  for (size_t i = 0; i < n; ++i) {
    if (rd_kafka_ConfigResource_error(res[i])) {
      *error = rd_kafka_ConfigResource_error_string(res[i]);
      rd_kafka_event_destroy(ev);
      return std::nullopt;
    }
    size_t count = 0;
    const rd_kafka_ConfigEntry_t** entries = rd_kafka_ConfigResource_configs(res[i], &count);
    for (size_t e = 0; e < count; ++e) {
      const char* value = rd_kafka_ConfigEntry_value(entries[e]);
      out[rd_kafka_ConfigEntry_name(entries[e])] = {
          value ? std::optional<std::string>(value) : std::nullopt,
          rd_kafka_ConfigEntry_source(entries[e]),
          rd_kafka_ConfigEntry_is_sensitive(entries[e]) != 0};
    }
  }
  rd_kafka_event_destroy(ev);
  return out;
}

// Kafka's enum names (READ, ALLOW, LITERAL) to librdkafka's values, via its name functions.
template <typename Enum>
std::optional<Enum> ParseEnum(const std::string& name, int count, const char* (*to_name)(Enum)) {
  for (int i = 0; i < count; ++i) {
    if (name == to_name(static_cast<Enum>(i))) return static_cast<Enum>(i);
  }
  return std::nullopt;
}

// TOPIC as an ACL resource: @cluster is the cluster resource, anything else a topic.
std::pair<rd_kafka_ResourceType_t, std::string> AclResource(const std::string& topic) {
  if (topic == "@cluster") return {RD_KAFKA_RESOURCE_BROKER, "kafka-cluster"};
  return {RD_KAFKA_RESOURCE_TOPIC, topic};
}

int DescribeAcls(const std::string& bootstrap, const std::string& topic, bool remove) {
  Admin admin;
  std::string error;
  if (!admin.Open(bootstrap, &error)) return Fail(error);
  char err[256];
  const auto [resource_type, resource] = AclResource(topic);
  rd_kafka_AclBindingFilter_t* filter = rd_kafka_AclBindingFilter_new(
      resource_type, resource.c_str(), RD_KAFKA_RESOURCE_PATTERN_ANY, nullptr, nullptr,
      RD_KAFKA_ACL_OPERATION_ANY, RD_KAFKA_ACL_PERMISSION_TYPE_ANY, err, sizeof(err));
  if (!filter) return Fail(err);
  if (remove) {
    rd_kafka_DeleteAcls(admin.rk, &filter, 1, nullptr, admin.queue);
    rd_kafka_AclBinding_destroy(filter);
    rd_kafka_event_t* ev = admin.Wait(&error);
    if (!ev) return Fail(error);
    size_t n = 0;
    const rd_kafka_DeleteAcls_result_response_t** responses =
        rd_kafka_DeleteAcls_result_responses(rd_kafka_event_DeleteAcls_result(ev), &n);
    for (size_t i = 0; i < n; ++i) {
      if (const rd_kafka_error_t* e = rd_kafka_DeleteAcls_result_response_error(responses[i])) {
        error = rd_kafka_error_string(e);
      }
    }
    rd_kafka_event_destroy(ev);
    return error.empty() ? 0 : Fail(error);
  }
  rd_kafka_DescribeAcls(admin.rk, filter, nullptr, admin.queue);
  rd_kafka_AclBinding_destroy(filter);
  rd_kafka_event_t* ev = admin.Wait(&error);
  if (!ev) return Fail(error);
  size_t n = 0;
  const rd_kafka_AclBinding_t** acls =
      rd_kafka_DescribeAcls_result_acls(rd_kafka_event_DescribeAcls_result(ev), &n);
  for (size_t i = 0; i < n; ++i) {
    std::cout << "{\"pattern\":"
              << Json(rd_kafka_ResourcePatternType_name(
                     rd_kafka_AclBinding_resource_pattern_type(acls[i])))
              << ",\"principal\":" << Json(rd_kafka_AclBinding_principal(acls[i]))
              << ",\"host\":" << Json(rd_kafka_AclBinding_host(acls[i])) << ",\"operation\":"
              << Json(rd_kafka_AclOperation_name(rd_kafka_AclBinding_operation(acls[i])))
              << ",\"permission\":"
              << Json(rd_kafka_AclPermissionType_name(rd_kafka_AclBinding_permission_type(acls[i])))
              << "}\n";
  }
  rd_kafka_event_destroy(ev);
  return 0;
}

}  // namespace

// ---- Subcommands for tests/e2e/mirror_scenarios_test.py ------------------------------------
namespace {

struct Closer {
  void operator()(rd_kafka_t* rk) const { rd_kafka_destroy(rk); }
};
using Client = std::unique_ptr<rd_kafka_t, Closer>;

Client NewClient(rd_kafka_type_t type, const std::string& bootstrap,
                 const std::vector<std::pair<std::string, std::string>>& extra,
                 std::string* error) {
  char err[512];
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  std::vector<std::pair<std::string, std::string>> props = {{"bootstrap.servers", bootstrap}};
  props.insert(props.end(), extra.begin(), extra.end());
  for (const auto& [key, value] : props) {
    if (rd_kafka_conf_set(conf, key.c_str(), value.c_str(), err, sizeof(err))) {
      rd_kafka_conf_destroy(conf);
      *error = err;
      return nullptr;
    }
  }
  rd_kafka_t* rk = rd_kafka_new(type, conf, err, sizeof(err));
  if (!rk) *error = err;
  return Client(rk);
}

// The partition ids of `topic`, or nullopt if the topic does not exist (never auto-creates it).
std::optional<std::vector<int32_t>> TopicPartitions(rd_kafka_t* rk, const std::string& topic) {
  const rd_kafka_metadata_t* md = nullptr;
  if (rd_kafka_metadata(rk, 1, nullptr, &md, 10000)) return std::nullopt;
  std::optional<std::vector<int32_t>> out;
  for (int i = 0; i < md->topic_cnt; ++i) {
    if (topic != md->topics[i].topic || md->topics[i].err) continue;
    out.emplace();
    for (int p = 0; p < md->topics[i].partition_cnt; ++p) {
      out->push_back(md->topics[i].partitions[p].id);
    }
  }
  rd_kafka_metadata_destroy(md);
  return out;
}

// TopicPartitions, waiting up to 15 s for a topic created a moment ago to show up in the
// metadata of the broker this client asks (creation and metadata propagation are not atomic).
std::optional<std::vector<int32_t>> ExistingTopicPartitions(rd_kafka_t* rk,
                                                            const std::string& topic) {
  for (int attempt = 0; attempt < 75; ++attempt) {
    if (auto partitions = TopicPartitions(rk, topic)) return partitions;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  return std::nullopt;
}

void PrintMessage(const rd_kafka_message_t* m) {
  std::string key = m->key ? std::string(static_cast<const char*>(m->key), m->key_len) : "";
  std::string value = m->payload ? std::string(static_cast<const char*>(m->payload), m->len) : "";
  std::cout << "{\"topic\":" << Json(rd_kafka_topic_name(m->rkt))
            << ",\"partition\":" << m->partition << ",\"offset\":" << m->offset << ",\"key_hex\":\""
            << Hex(key) << "\",\"value_hex\":\"" << Hex(value) << "\""
            << ",\"key\":" << Json(key) << ",\"value\":" << Json(value)
            << ",\"timestamp\":" << rd_kafka_message_timestamp(m, nullptr) << ",\"headers\":[";
  rd_kafka_headers_t* headers = nullptr;
  if (rd_kafka_message_headers(m, &headers) == RD_KAFKA_RESP_ERR_NO_ERROR) {
    const char* name;
    const void* data;
    size_t size;
    for (size_t i = 0; !rd_kafka_header_get_all(headers, i, &name, &data, &size); ++i) {
      std::cout << (i ? "," : "") << "[" << Json(name) << ","
                << Json(std::string(static_cast<const char*>(data), size)) << "]";
    }
  }
  std::cout << "]}\n";
}

// Parses TOPIC:PARTITION=OFFSET (the topic may contain ':'; the last one separates).
bool ParseOffsetSpec(const std::string& spec, rd_kafka_topic_partition_list_t* list) {
  size_t colon = spec.rfind(':'), eq = spec.rfind('=');
  if (colon == std::string::npos || eq == std::string::npos || eq < colon) return false;
  rd_kafka_topic_partition_list_add(list, spec.substr(0, colon).c_str(),
                                    std::atoi(spec.substr(colon + 1, eq - colon - 1).c_str()))
      ->offset = std::atoll(spec.substr(eq + 1).c_str());
  return true;
}

// Polls until every assigned partition has reported EOF (the end offset of the moment) or the
// deadline passes; prints each record. Returns false on timeout.
bool ReadToEnd(rd_kafka_t* rk, size_t partitions, std::chrono::seconds timeout) {
  std::set<std::pair<std::string, int32_t>> at_end;
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (at_end.size() < partitions) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    rd_kafka_message_t* m = rd_kafka_consumer_poll(rk, 200);
    if (!m) continue;
    if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
      at_end.insert({rd_kafka_topic_name(m->rkt), m->partition});
    } else if (!m->err) {
      PrintMessage(m);
    }
    rd_kafka_message_destroy(m);
  }
  return true;
}

// Commits the consumer's position on every assigned partition, as Java's commitSync() does:
// a partition it read nothing from keeps its committed offset, or gets its reset offset
// (earliest) if it has none.
int CommitPositions(rd_kafka_t* rk) {
  rd_kafka_topic_partition_list_t* assigned = nullptr;
  if (rd_kafka_assignment(rk, &assigned)) return Fail("assignment");
  rd_kafka_position(rk, assigned);
  rd_kafka_topic_partition_list_t* committed = rd_kafka_topic_partition_list_copy(assigned);
  rd_kafka_committed(rk, committed, 10000);
  rd_kafka_topic_partition_list_t* commit = rd_kafka_topic_partition_list_new(assigned->cnt);
  for (int i = 0; i < assigned->cnt; ++i) {
    const rd_kafka_topic_partition_t& tp = assigned->elems[i];
    int64_t offset = tp.offset;
    if (offset < 0) {
      if (committed->elems[i].offset >= 0) continue;
      int64_t low = 0, high = 0;
      rd_kafka_query_watermark_offsets(rk, tp.topic, tp.partition, &low, &high, 10000);
      offset = low;
    }
    rd_kafka_topic_partition_list_add(commit, tp.topic, tp.partition)->offset = offset;
  }
  rd_kafka_resp_err_t err =
      commit->cnt ? rd_kafka_commit(rk, commit, 0) : RD_KAFKA_RESP_ERR_NO_ERROR;
  rd_kafka_topic_partition_list_destroy(commit);
  rd_kafka_topic_partition_list_destroy(committed);
  rd_kafka_topic_partition_list_destroy(assigned);
  return err ? Fail(std::string("commit: ") + rd_kafka_err2str(err)) : 0;
}

// Waits for one admin result event of `type`; nullptr on timeout.
rd_kafka_event_t* AwaitAdmin(rd_kafka_queue_t* queue) { return rd_kafka_queue_poll(queue, 30000); }

// Returns -1 if `command` is not one of these subcommands, else the exit code.
int ScenarioCommand(int argc, char** argv) {
  const std::string command = argv[1], bootstrap = argv[2];
  std::string error;
  if (command == "topics" && argc >= 4) {  // topics BOOTSTRAP SUBSTRING
    Client rk = NewClient(RD_KAFKA_PRODUCER, bootstrap, {}, &error);
    if (!rk) return Fail(error);
    const rd_kafka_metadata_t* md = nullptr;
    if (rd_kafka_metadata(rk.get(), 1, nullptr, &md, 10000)) return Fail("metadata");
    for (int i = 0; i < md->topic_cnt; ++i) {
      std::string name = md->topics[i].topic;
      if (!md->topics[i].err && name.find(argv[3]) != std::string::npos) {
        std::cout << name << "\n";
      }
    }
    rd_kafka_metadata_destroy(md);
    return 0;
  }
  if (command == "delete" && argc >= 4) {  // delete BOOTSTRAP TOPIC...
    Client rk = NewClient(RD_KAFKA_PRODUCER, bootstrap, {}, &error);
    if (!rk) return Fail(error);
    std::vector<rd_kafka_DeleteTopic_t*> topics;
    for (int i = 3; i < argc; ++i) topics.push_back(rd_kafka_DeleteTopic_new(argv[i]));
    rd_kafka_queue_t* queue = rd_kafka_queue_new(rk.get());
    rd_kafka_DeleteTopics(rk.get(), topics.data(), topics.size(), nullptr, queue);
    rd_kafka_event_t* event = AwaitAdmin(queue);
    rd_kafka_DeleteTopic_destroy_array(topics.data(), topics.size());
    int rc = 0;
    if (!event || rd_kafka_event_error(event)) {
      rc = Fail(event ? rd_kafka_event_error_string(event) : "DeleteTopics timed out");
    } else {
      size_t n = 0;
      const rd_kafka_topic_result_t** results =
          rd_kafka_DeleteTopics_result_topics(rd_kafka_event_DeleteTopics_result(event), &n);
      for (size_t i = 0; i < n; ++i) {
        rd_kafka_resp_err_t err = rd_kafka_topic_result_error(results[i]);
        if (err && err != RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART) {
          rc = Fail(std::string(rd_kafka_topic_result_name(results[i])) + ": " +
                    rd_kafka_err2str(err));
        }
      }
    }
    if (event) rd_kafka_event_destroy(event);
    rd_kafka_queue_destroy(queue);
    return rc;
  }
  if (command == "delete-records" && argc >= 5) {  // delete-records BOOTSTRAP TOPIC P:OFFSET...
    Client rk = NewClient(RD_KAFKA_PRODUCER, bootstrap, {}, &error);
    if (!rk) return Fail(error);
    rd_kafka_topic_partition_list_t* offsets = rd_kafka_topic_partition_list_new(argc - 4);
    for (int i = 4; i < argc; ++i) {
      const std::string item = argv[i];
      const size_t colon = item.find(':');
      if (colon == std::string::npos) return Fail("expected PARTITION:OFFSET, got " + item);
      rd_kafka_topic_partition_list_add(offsets, argv[3], std::stoi(item.substr(0, colon)))
          ->offset = std::stoll(item.substr(colon + 1));
    }
    rd_kafka_DeleteRecords_t* request = rd_kafka_DeleteRecords_new(offsets);
    rd_kafka_topic_partition_list_destroy(offsets);
    rd_kafka_queue_t* queue = rd_kafka_queue_new(rk.get());
    rd_kafka_DeleteRecords(rk.get(), &request, 1, nullptr, queue);
    rd_kafka_event_t* event = AwaitAdmin(queue);
    rd_kafka_DeleteRecords_destroy(request);
    int rc = 0;
    if (!event || rd_kafka_event_error(event)) {
      rc = Fail(event ? rd_kafka_event_error_string(event) : "DeleteRecords timed out");
    } else {
      const rd_kafka_topic_partition_list_t* result =
          rd_kafka_DeleteRecords_result_offsets(rd_kafka_event_DeleteRecords_result(event));
      for (int i = 0; result != nullptr && i < result->cnt; ++i) {
        if (result->elems[i].err) {
          rc = Fail(std::string(argv[3]) + "-" + std::to_string(result->elems[i].partition) + ": " +
                    rd_kafka_err2str(result->elems[i].err));
        }
      }
    }
    if (event) rd_kafka_event_destroy(event);
    rd_kafka_queue_destroy(queue);
    return rc;
  }
  if (command == "config" && argc >= 5) {  // config BOOTSTRAP TOPIC NAME
    Client rk = NewClient(RD_KAFKA_PRODUCER, bootstrap, {}, &error);
    if (!rk) return Fail(error);
    rd_kafka_ConfigResource_t* resource =
        rd_kafka_ConfigResource_new(RD_KAFKA_RESOURCE_TOPIC, argv[3]);
    rd_kafka_queue_t* queue = rd_kafka_queue_new(rk.get());
    rd_kafka_DescribeConfigs(rk.get(), &resource, 1, nullptr, queue);
    rd_kafka_event_t* event = AwaitAdmin(queue);
    rd_kafka_ConfigResource_destroy(resource);
    int rc = -1;
    if (!event || rd_kafka_event_error(event)) {
      rc = Fail(event ? rd_kafka_event_error_string(event) : "DescribeConfigs timed out");
    } else {
      size_t n = 0;
      const rd_kafka_ConfigResource_t** resources = rd_kafka_DescribeConfigs_result_resources(
          rd_kafka_event_DescribeConfigs_result(event), &n);
      for (size_t i = 0; i < n; ++i) {
        size_t count = 0;
        const rd_kafka_ConfigEntry_t** entries =
            rd_kafka_ConfigResource_configs(resources[i], &count);
        for (size_t e = 0; e < count; ++e) {
          if (std::string(rd_kafka_ConfigEntry_name(entries[e])) != argv[4]) continue;
          const char* value = rd_kafka_ConfigEntry_value(entries[e]);
          std::cout << (value ? value : "") << "\n";
          rc = 0;
        }
      }
    }
    if (event) rd_kafka_event_destroy(event);
    rd_kafka_queue_destroy(queue);
    return rc < 0 ? Fail(std::string("no config ") + argv[4]) : rc;
  }
  if (command == "end-offsets" && argc >= 4) {  // end-offsets BOOTSTRAP TOPIC
    Client rk = NewClient(RD_KAFKA_PRODUCER, bootstrap, {}, &error);
    if (!rk) return Fail(error);
    auto partitions = ExistingTopicPartitions(rk.get(), argv[3]);
    if (!partitions) return Fail(std::string("no topic ") + argv[3]);
    std::cout << "{";
    for (size_t i = 0; i < partitions->size(); ++i) {
      int64_t low = 0, high = 0;
      // A topic created a moment ago may not have a leader yet: retry for a while.
      rd_kafka_resp_err_t err = RD_KAFKA_RESP_ERR_NO_ERROR;
      for (int attempt = 0; attempt < 50; ++attempt) {
        err = rd_kafka_query_watermark_offsets(rk.get(), argv[3], (*partitions)[i], &low, &high,
                                               10000);
        if (!err) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
      }
      if (err) return Fail(std::string("watermarks: ") + rd_kafka_err2str(err));
      std::cout << (i ? "," : "") << "\"" << (*partitions)[i] << "\":" << high;
    }
    std::cout << "}\n";
    return 0;
  }
  if (command == "dump" && argc >= 4) {  // dump BOOTSTRAP TOPIC [SECONDS]
    Client rk = NewClient(RD_KAFKA_CONSUMER, bootstrap,
                          {{"group.id", "kafka-test-tool-dump"},
                           {"enable.auto.commit", "false"},
                           {"enable.partition.eof", "true"}},
                          &error);
    if (!rk) return Fail(error);
    rd_kafka_poll_set_consumer(rk.get());
    auto partitions = ExistingTopicPartitions(rk.get(), argv[3]);
    if (!partitions) return Fail(std::string("no topic ") + argv[3]);
    rd_kafka_topic_partition_list_t* list = rd_kafka_topic_partition_list_new(1);
    for (int32_t p : *partitions) {
      rd_kafka_topic_partition_list_add(list, argv[3], p)->offset = RD_KAFKA_OFFSET_BEGINNING;
    }
    rd_kafka_resp_err_t err = rd_kafka_assign(rk.get(), list);
    rd_kafka_topic_partition_list_destroy(list);
    if (err) return Fail("assign");
    bool done = ReadToEnd(rk.get(), partitions->size(),
                          std::chrono::seconds(argc >= 5 ? std::atoi(argv[4]) : 30));
    rd_kafka_consumer_close(rk.get());
    return done ? 0 : Fail(std::string("timed out reading ") + argv[3]);
  }
  if (command == "read-from" && argc >= 5) {  // read-from BOOTSTRAP SECONDS GROUP|- SPEC...
    const std::string group = argv[4];
    Client rk = NewClient(RD_KAFKA_CONSUMER, bootstrap,
                          {{"group.id", group == "-" ? "kafka-test-tool-read" : group},
                           {"enable.auto.commit", "false"},
                           {"enable.partition.eof", "true"}},
                          &error);
    if (!rk) return Fail(error);
    rd_kafka_poll_set_consumer(rk.get());
    rd_kafka_topic_partition_list_t* list = rd_kafka_topic_partition_list_new(argc - 5);
    for (int i = 5; i < argc; ++i) {
      if (!ParseOffsetSpec(argv[i], list)) {
        rd_kafka_topic_partition_list_destroy(list);
        return Fail(std::string("expected TOPIC:PARTITION=OFFSET, got ") + argv[i]);
      }
    }
    rd_kafka_resp_err_t err = rd_kafka_assign(rk.get(), list);
    if (err || !ReadToEnd(rk.get(), static_cast<size_t>(list->cnt),
                          std::chrono::seconds(std::atoi(argv[3])))) {
      rd_kafka_topic_partition_list_destroy(list);
      return Fail(err ? "assign" : "timed out reading to the end");
    }
    if (group != "-") {
      // The position: past the last record read, else where reading started.
      rd_kafka_topic_partition_list_t* positions = rd_kafka_topic_partition_list_copy(list);
      rd_kafka_position(rk.get(), positions);
      for (int i = 0; i < list->cnt; ++i) {
        if (positions->elems[i].offset >= 0) list->elems[i].offset = positions->elems[i].offset;
      }
      rd_kafka_topic_partition_list_destroy(positions);
      err = rd_kafka_commit(rk.get(), list, 0);
    }
    rd_kafka_topic_partition_list_destroy(list);
    rd_kafka_consumer_close(rk.get());
    return err ? Fail(std::string("commit: ") + rd_kafka_err2str(err)) : 0;
  }
  if (command == "group-consume" && argc >= 7) {  // BOOTSTRAP GROUP TOPICS COUNT SECONDS
    Client rk = NewClient(
        RD_KAFKA_CONSUMER, bootstrap,
        {{"group.id", argv[3]}, {"enable.auto.commit", "false"}, {"auto.offset.reset", "earliest"}},
        &error);
    if (!rk) return Fail(error);
    rd_kafka_poll_set_consumer(rk.get());
    rd_kafka_topic_partition_list_t* topics = rd_kafka_topic_partition_list_new(1);
    std::string names = argv[4];
    for (size_t start = 0; start <= names.size();) {
      size_t comma = std::min(names.find(',', start), names.size());
      rd_kafka_topic_partition_list_add(topics, names.substr(start, comma - start).c_str(),
                                        RD_KAFKA_PARTITION_UA);
      start = comma + 1;
    }
    rd_kafka_resp_err_t err = rd_kafka_subscribe(rk.get(), topics);
    rd_kafka_topic_partition_list_destroy(topics);
    if (err) return Fail("subscribe");
    const size_t count = static_cast<size_t>(std::atoi(argv[5]));
    size_t consumed = 0;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(std::atoi(argv[6]));
    while (consumed < count && std::chrono::steady_clock::now() < deadline) {
      rd_kafka_message_t* m = rd_kafka_consumer_poll(rk.get(), 200);
      if (!m) continue;
      if (!m->err) {
        PrintMessage(m);
        std::fflush(stdout);  // a reader of the pipe learns at once that the member has joined
        ++consumed;
      }
      rd_kafka_message_destroy(m);
    }
    int rc = consumed < count ? Fail("consumed " + std::to_string(consumed) + " of " +
                                     std::to_string(count) + " records")
                              : CommitPositions(rk.get());
    rd_kafka_consumer_close(rk.get());
    return rc;
  }
  if (command == "committed" && argc >= 4) {  // committed BOOTSTRAP GROUP
    Client rk = NewClient(RD_KAFKA_PRODUCER, bootstrap, {}, &error);
    if (!rk) return Fail(error);
    rd_kafka_ListConsumerGroupOffsets_t* request =
        rd_kafka_ListConsumerGroupOffsets_new(argv[3], nullptr);
    rd_kafka_queue_t* queue = rd_kafka_queue_new(rk.get());
    rd_kafka_ListConsumerGroupOffsets(rk.get(), &request, 1, nullptr, queue);
    rd_kafka_event_t* event = AwaitAdmin(queue);
    rd_kafka_ListConsumerGroupOffsets_destroy(request);
    int rc = 0;
    if (!event || rd_kafka_event_error(event)) {
      rc = Fail(event ? rd_kafka_event_error_string(event) : "ListConsumerGroupOffsets timed out");
    } else {
      size_t n = 0;
      const rd_kafka_group_result_t** groups = rd_kafka_ListConsumerGroupOffsets_result_groups(
          rd_kafka_event_ListConsumerGroupOffsets_result(event), &n);
      for (size_t g = 0; g < n; ++g) {
        if (const rd_kafka_error_t* e = rd_kafka_group_result_error(groups[g])) {
          rc = Fail(rd_kafka_error_string(e));
          continue;
        }
        const rd_kafka_topic_partition_list_t* offsets =
            rd_kafka_group_result_partitions(groups[g]);
        for (int i = 0; offsets && i < offsets->cnt; ++i) {
          const rd_kafka_topic_partition_t& tp = offsets->elems[i];
          if (tp.err || tp.offset < 0) continue;
          std::cout << "{\"topic\":" << Json(tp.topic) << ",\"partition\":" << tp.partition
                    << ",\"offset\":" << tp.offset << "}\n";
        }
      }
    }
    if (event) rd_kafka_event_destroy(event);
    rd_kafka_queue_destroy(queue);
    return rc;
  }
  return -1;
}

}  // namespace

namespace {

// A plain producer for the paced modes (heartbeat, produce-for); nullptr on failure.
rd_kafka_t* PacedProducer(const std::string& bootstrap) {
  char err[512];
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  rd_kafka_conf_set(conf, "bootstrap.servers", bootstrap.c_str(), err, sizeof(err));
  rd_kafka_conf_set(conf, "linger.ms", "5", err, sizeof(err));
  rd_kafka_t* rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, sizeof(err));
  if (rk == nullptr) std::cerr << "kafka_test_tool: " << err << "\n";
  return rk;
}

int64_t WallMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// heartbeat and produce-for; -1 when `command` is neither.
int Paced(int argc, char** argv) {
  const std::string command = argv[1], bootstrap = argv[2], topic = argv[3];
  if (command == "heartbeat" && argc >= 9) {
    const std::string source = argv[4], target = argv[5];
    const int64_t skew = std::atoll(argv[6]);
    const int count = std::atoi(argv[7]), interval = std::atoi(argv[8]);
    rd_kafka_t* rk = PacedProducer(bootstrap);
    if (rk == nullptr) return 1;
    for (int i = 0; i < count; ++i) {
      connectd::mirror::Heartbeat heartbeat{source, target, WallMs() + skew};
      std::string key = connectd::mirror::EncodeHeartbeatKey(heartbeat);
      std::string value = connectd::mirror::EncodeHeartbeatValue(heartbeat);
      rd_kafka_resp_err_t err = rd_kafka_producev(
          rk, RD_KAFKA_V_TOPIC(topic.c_str()), RD_KAFKA_V_PARTITION(0),
          RD_KAFKA_V_KEY(key.data(), key.size()), RD_KAFKA_V_VALUE(value.data(), value.size()),
          RD_KAFKA_V_TIMESTAMP(heartbeat.timestamp_ms), RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
          RD_KAFKA_V_END);
      if (err) std::cerr << "kafka_test_tool: " << rd_kafka_err2str(err) << "\n";
      rd_kafka_flush(rk, 10000);
      if (i + 1 < count) std::this_thread::sleep_for(std::chrono::milliseconds(interval));
    }
    int left = rd_kafka_outq_len(rk);
    rd_kafka_destroy(rk);
    return left == 0 ? 0 : Fail("heartbeats not delivered");
  }
  if (command == "produce-for" && argc >= 6) {
    const double rate = std::atof(argv[4]);
    const int seconds = std::atoi(argv[5]);
    rd_kafka_t* rk = PacedProducer(bootstrap);
    if (rk == nullptr) return 1;
    const std::string value(1024, 'x');
    const auto start = std::chrono::steady_clock::now();
    int64_t sent = 0;
    while (std::chrono::steady_clock::now() - start < std::chrono::seconds(seconds)) {
      double elapsed =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      while (static_cast<double>(sent) * 1024 < rate * elapsed) {
        std::string key = "k" + std::to_string(sent);
        rd_kafka_resp_err_t err = rd_kafka_producev(
            rk, RD_KAFKA_V_TOPIC(topic.c_str()), RD_KAFKA_V_KEY(key.data(), key.size()),
            RD_KAFKA_V_VALUE(const_cast<char*>(value.data()), value.size()),
            RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_END);
        if (err == RD_KAFKA_RESP_ERR__QUEUE_FULL) break;
        ++sent;
      }
      rd_kafka_poll(rk, 20);
    }
    rd_kafka_flush(rk, 30000);
    rd_kafka_destroy(rk);
    std::cout << sent << "\n";
    return 0;
  }
  return -1;
}

}  // namespace

// ---- Subcommands for the fault suite (tests/fault/suite) ---------------------------------------
namespace {

// The record number i of a key "k<i>", or -1.
int64_t RecordIndex(const char* data, size_t size) {
  if (size < 2 || size > 20 || data[0] != 'k') return -1;
  int64_t i = 0;
  for (size_t c = 1; c < size; ++c) {
    if (data[c] < '0' || data[c] > '9') return -1;
    i = i * 10 + (data[c] - '0');
  }
  return i;
}

// produce-paced BOOTSTRAP TOPIC COUNT PARTITIONS SECONDS
int ProducePaced(int argc, char** argv) {
  const std::string bootstrap = argv[2], topic = argv[3];
  const int64_t count = std::atoll(argv[4]);
  const int partitions = std::atoi(argv[5]);
  const double seconds = argc >= 7 ? std::atof(argv[6]) : 0;
  if (count < 0 || partitions <= 0 || seconds < 0) return Fail("bad COUNT, PARTITIONS or SECONDS");
  // No delivery timeout (0: infinite) and a queue that holds every record: an outage of the
  // broker only delays delivery; idempotence keeps each partition's order across retries.
  char err[512];
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  for (const auto& [key, value] : std::vector<std::pair<std::string, std::string>>{
           {"bootstrap.servers", bootstrap},
           {"enable.idempotence", "true"},
           {"acks", "all"},
           {"message.timeout.ms", "0"},
           {"linger.ms", "20"},
           {"queue.buffering.max.messages", "10000000"},
           {"queue.buffering.max.kbytes", "2097151"}}) {
    if (rd_kafka_conf_set(conf, key.c_str(), value.c_str(), err, sizeof(err))) {
      rd_kafka_conf_destroy(conf);
      return Fail(err);
    }
  }
  // Delivery reports: records acknowledged, records failed (the first error kept).
  struct Tally {
    int64_t delivered = 0;
    int64_t failed = 0;
    std::string first_error;
  } tally;
  rd_kafka_conf_set_opaque(conf, &tally);
  rd_kafka_conf_set_dr_msg_cb(conf, [](rd_kafka_t*, const rd_kafka_message_t* m, void* opaque) {
    Tally& t = *static_cast<Tally*>(opaque);
    if (m->err) {
      if (t.failed++ == 0) t.first_error = rd_kafka_err2str(m->err);
    } else {
      ++t.delivered;
    }
  });
  Client rk(rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, sizeof(err)));
  if (!rk) return Fail(err);
  auto drain = [&rk](int timeout_ms) { rd_kafka_poll(rk.get(), timeout_ms); };
  const auto start = std::chrono::steady_clock::now();
  auto last_report = start;
  int64_t next = 0;
  while (next < count) {
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const int64_t due =
        seconds <= 0
            ? count
            : std::min<int64_t>(count, static_cast<int64_t>(count * elapsed / seconds) + 1);
    while (next < due) {
      std::string key = "k" + std::to_string(next), value = "v" + std::to_string(next),
                  h = std::to_string(next);
      rd_kafka_resp_err_t err = rd_kafka_producev(
          rk.get(), RD_KAFKA_V_TOPIC(topic.c_str()),
          RD_KAFKA_V_PARTITION(static_cast<int32_t>(next % partitions)),
          RD_KAFKA_V_KEY(key.data(), key.size()), RD_KAFKA_V_VALUE(value.data(), value.size()),
          RD_KAFKA_V_HEADER("h", h.data(), static_cast<ssize_t>(h.size())),
          RD_KAFKA_V_HEADER("empty", "", 0), RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
          RD_KAFKA_V_END);
      if (err == RD_KAFKA_RESP_ERR__QUEUE_FULL) {
        drain(50);
        continue;
      }
      if (err) return Fail(std::string("produce: ") + rd_kafka_err2str(err));
      ++next;
    }
    drain(5);
    if (std::chrono::steady_clock::now() - last_report >= std::chrono::seconds(1)) {
      last_report = std::chrono::steady_clock::now();
      std::cerr << "produced " << next << "\n";
    }
  }
  // Every record is acknowledged or failed (idempotent producer: a fatal error fails the rest).
  while (rd_kafka_outq_len(rk.get()) > 0) {
    rd_kafka_flush(rk.get(), 1000);
    if (std::chrono::steady_clock::now() - last_report >= std::chrono::seconds(1)) {
      last_report = std::chrono::steady_clock::now();
      std::cerr << "produced " << next << ", " << rd_kafka_outq_len(rk.get())
                << " awaiting acknowledgement\n";
    }
  }
  std::cout << "{\"sent\":" << tally.delivered << ",\"failed\":" << tally.failed
            << ",\"error\":" << Json(tally.first_error) << "}\n";
  return tally.failed ? Fail("undelivered records: " + tally.first_error) : 0;
}

// verify BOOTSTRAP TOPIC COUNT PARTITIONS [SECONDS] [read_committed]
int Verify(int argc, char** argv) {
  const std::string bootstrap = argv[2], topic = argv[3];
  const int64_t count = std::atoll(argv[4]);
  const int partitions = std::atoi(argv[5]);
  const int seconds = argc >= 7 ? std::atoi(argv[6]) : 120;
  const bool read_committed = argc >= 8 && std::string(argv[7]) == "read_committed";
  if (count < 0 || partitions <= 0) return Fail("bad COUNT or PARTITIONS");
  std::string error;
  Client rk =
      NewClient(RD_KAFKA_CONSUMER, bootstrap,
                {{"group.id", "kafka-test-tool-verify"},
                 {"enable.auto.commit", "false"},
                 {"enable.partition.eof", "true"},
                 {"fetch.max.bytes", "52428800"},
                 {"isolation.level", read_committed ? "read_committed" : "read_uncommitted"}},
                &error);
  if (!rk) return Fail(error);
  rd_kafka_poll_set_consumer(rk.get());
  auto ids = ExistingTopicPartitions(rk.get(), topic);
  if (!ids) return Fail("no topic " + topic);
  // Each partition is read up to its end offset of now (the high watermark; with
  // read_committed, the last stable offset, reported as EOF at or past it).
  std::map<int32_t, int64_t> end;
  rd_kafka_topic_partition_list_t* list = rd_kafka_topic_partition_list_new(ids->size());
  for (int32_t p : *ids) {
    int64_t low = 0, high = 0;
    rd_kafka_resp_err_t err = RD_KAFKA_RESP_ERR_NO_ERROR;
    for (int attempt = 0; attempt < 50; ++attempt) {
      err = rd_kafka_query_watermark_offsets(rk.get(), topic.c_str(), p, &low, &high, 10000);
      if (!err) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    if (err) {
      rd_kafka_topic_partition_list_destroy(list);
      return Fail(std::string("watermarks: ") + rd_kafka_err2str(err));
    }
    if (high > low) end[p] = high;
    rd_kafka_topic_partition_list_add(list, topic.c_str(), p)->offset = RD_KAFKA_OFFSET_BEGINNING;
  }
  rd_kafka_resp_err_t err = rd_kafka_assign(rk.get(), list);
  rd_kafka_topic_partition_list_destroy(list);
  if (err) return Fail("assign");

  struct PartitionTally {
    int64_t records = 0, duplicates = 0, out_of_order = 0, highest = -1, max_rewind = 0;
  };
  std::map<int32_t, PartitionTally> by_partition;
  std::vector<uint8_t> seen(static_cast<size_t>(count), 0);
  // Where each record was first read, so that a duplicate can be told by its two offsets.
  std::vector<int64_t> first_offset(static_cast<size_t>(count), -1);
  struct Duplicate {
    int64_t key;
    int32_t partition;
    int64_t first_offset, offset;
  };
  std::vector<Duplicate> duplicate_sample;
  int64_t records = 0, duplicates = 0, out_of_order = 0, mismatched = 0, wrong_partition = 0,
          unexpected = 0, max_rewind = 0;
  std::string first_problem;
  auto problem = [&first_problem](const std::string& what) {
    if (first_problem.empty()) first_problem = what;
  };
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  while (!end.empty() && std::chrono::steady_clock::now() < deadline) {
    rd_kafka_message_t* m = rd_kafka_consumer_poll(rk.get(), 200);
    if (!m) continue;
    auto it = end.find(m->partition);
    if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
      if (it != end.end() && m->offset >= it->second) end.erase(it);
      rd_kafka_message_destroy(m);
      continue;
    }
    if (m->err) {
      rd_kafka_message_destroy(m);
      continue;
    }
    if (it != end.end() && m->offset + 1 >= it->second) end.erase(it);
    ++records;
    PartitionTally& pt = by_partition[m->partition];
    ++pt.records;
    const int64_t i = RecordIndex(static_cast<const char*>(m->key), m->key ? m->key_len : 0);
    const std::string where =
        "partition " + std::to_string(m->partition) + " offset " + std::to_string(m->offset);
    if (i < 0 || i >= count) {
      ++unexpected;
      problem("unexpected key at " + where);
      rd_kafka_message_destroy(m);
      continue;
    }
    const std::string value(m->payload ? static_cast<const char*>(m->payload) : "",
                            m->payload ? m->len : 0);
    const void* h = nullptr;
    size_t h_size = 0;
    rd_kafka_headers_t* headers = nullptr;
    const bool has_h =
        rd_kafka_message_headers(m, &headers) == RD_KAFKA_RESP_ERR_NO_ERROR &&
        rd_kafka_header_get_last(headers, "h", &h, &h_size) == RD_KAFKA_RESP_ERR_NO_ERROR;
    if (value != "v" + std::to_string(i) || !has_h ||
        std::string(static_cast<const char*>(h), h_size) != std::to_string(i)) {
      ++mismatched;
      problem("k" + std::to_string(i) + " has another value or h header at " + where);
    }
    if (i % partitions != m->partition) {
      ++wrong_partition;
      problem("k" + std::to_string(i) + " in the wrong partition at " + where);
    }
    if (seen[i]) {
      ++duplicates;
      ++pt.duplicates;
      if (duplicate_sample.size() < 20) {
        duplicate_sample.push_back({i, m->partition, first_offset[i], m->offset});
      }
      const int64_t rewind = (pt.highest - i) / partitions + 1;
      pt.max_rewind = std::max(pt.max_rewind, rewind);
      max_rewind = std::max(max_rewind, rewind);
    } else {
      seen[i] = 1;
      first_offset[i] = m->offset;
      // A first occurrence below the partition's highest number arrived late: reordered.
      if (i < pt.highest) {
        ++out_of_order;
        ++pt.out_of_order;
        problem("k" + std::to_string(i) + " after k" + std::to_string(pt.highest) + " at " + where);
      }
      pt.highest = std::max(pt.highest, i);
    }
    rd_kafka_message_destroy(m);
  }
  const bool complete = end.empty();
  rd_kafka_consumer_close(rk.get());
  int64_t unique = 0, lost = 0;
  std::vector<int64_t> lost_sample;
  std::map<int32_t, int64_t> lost_by_partition;
  for (int64_t i = 0; i < count; ++i) {
    if (seen[i]) {
      ++unique;
    } else {
      ++lost;
      ++lost_by_partition[static_cast<int32_t>(i % partitions)];
      if (lost_sample.size() < 20) lost_sample.push_back(i);
    }
  }
  std::cout << "{\"topic\":" << Json(topic) << ",\"records\":" << records
            << ",\"unique\":" << unique << ",\"duplicates\":" << duplicates << ",\"lost\":" << lost
            << ",\"out_of_order\":" << out_of_order << ",\"mismatched\":" << mismatched
            << ",\"wrong_partition\":" << wrong_partition << ",\"unexpected\":" << unexpected
            << ",\"max_rewind\":" << max_rewind << ",\"complete\":" << (complete ? "true" : "false")
            << ",\"first_problem\":" << Json(first_problem) << ",\"lost_sample\":[";
  for (size_t k = 0; k < lost_sample.size(); ++k) std::cout << (k ? "," : "") << lost_sample[k];
  std::cout << "],\"duplicate_sample\":[";
  for (size_t k = 0; k < duplicate_sample.size(); ++k) {
    const Duplicate& d = duplicate_sample[k];
    std::cout << (k ? "," : "") << "{\"key\":" << d.key << ",\"partition\":" << d.partition
              << ",\"first_offset\":" << d.first_offset << ",\"offset\":" << d.offset << "}";
  }
  std::cout << "],\"partitions\":{";
  bool first = true;
  for (int32_t p = 0; p < partitions; ++p) {
    const PartitionTally& pt = by_partition[p];
    std::cout << (first ? "" : ",") << "\"" << p << "\":{\"records\":" << pt.records
              << ",\"duplicates\":" << pt.duplicates << ",\"lost\":" << lost_by_partition[p]
              << ",\"out_of_order\":" << pt.out_of_order << ",\"max_rewind\":" << pt.max_rewind
              << "}";
    first = false;
  }
  std::cout << "}}\n";
  return 0;
}

// produce-paced and verify; -1 when `command` is neither.
int FaultSuiteCommand(int argc, char** argv) {
  const std::string command = argv[1];
  if (command == "produce-paced" && argc >= 6) return ProducePaced(argc, argv);
  if (command == "verify" && argc >= 6) return Verify(argc, argv);
  return -1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) return Fail("usage: COMMAND BOOTSTRAP TOPIC ... (see the file comment)");
  if (int paced = Paced(argc, argv); paced >= 0) return paced;
  if (int fault = FaultSuiteCommand(argc, argv); fault >= 0) return fault;
  std::string command = argv[1], bootstrap = argv[2], topic = argv[3];
  if (command == "create" && argc >= 5) {
    std::map<std::string, std::string> configs;
    for (int i = 5; i < argc; ++i) {
      std::string kv = argv[i];
      size_t eq = kv.find('=');
      if (eq == std::string::npos) return Fail("expected KEY=VALUE, got " + kv);
      configs[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
    absl::Status s = connectd::testing::CreateTopic(bootstrap, topic, std::atoi(argv[4]), configs);
    return s.ok() ? 0 : Fail(s.ToString());
  }
  if ((command == "produce" && argc >= 6) || (command == "produce-sized" && argc >= 7)) {
    int count = std::atoi(argv[4]), partitions = std::atoi(argv[5]);
    const size_t value_bytes = command == "produce-sized" ? std::strtoul(argv[6], nullptr, 10) : 0;
    int64_t base = argc >= 7 && value_bytes == 0
                       ? std::atoll(argv[6])
                       : std::chrono::duration_cast<std::chrono::milliseconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count();
    std::vector<TestRecord> records;
    for (int i = 0; i < count; ++i) {
      TestRecord r;
      r.key = "k" + std::to_string(i);
      r.value = "v" + std::to_string(i);
      if (r.value.size() < value_bytes) r.value.resize(value_bytes, 'x');
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
  if (command == "produce-tx" && argc >= 6) {
    int count = std::atoi(argv[4]), partitions = std::atoi(argv[5]);
    if (partitions <= 0) return Fail("PARTITIONS must be positive");
    char err[512];
    rd_kafka_conf_t* conf = rd_kafka_conf_new();
    std::string txid = "kafka-test-tool-" + std::to_string(::getpid());
    if (rd_kafka_conf_set(conf, "bootstrap.servers", bootstrap.c_str(), err, sizeof err) ||
        rd_kafka_conf_set(conf, "transactional.id", txid.c_str(), err, sizeof err)) {
      rd_kafka_conf_destroy(conf);
      return Fail(err);
    }
    rd_kafka_t* rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, sizeof err);
    if (rk == nullptr) return Fail(err);
    auto check = [rk](rd_kafka_error_t* error) {
      if (error == nullptr) return true;
      std::cerr << "transaction failed: " << rd_kafka_error_string(error) << "\n";
      rd_kafka_error_destroy(error);
      rd_kafka_destroy(rk);
      return false;
    };
    if (!check(rd_kafka_init_transactions(rk, 30000))) return 1;
    for (int i = 0; i < count;) {
      if (!check(rd_kafka_begin_transaction(rk))) return 1;
      for (int p = 0; p < partitions && i < count; ++p, ++i) {
        std::string key = "k" + std::to_string(i), value = "v" + std::to_string(i);
        rd_kafka_producev(rk, RD_KAFKA_V_TOPIC(topic.c_str()), RD_KAFKA_V_PARTITION(i % partitions),
                          RD_KAFKA_V_KEY(key.data(), key.size()),
                          RD_KAFKA_V_VALUE(value.data(), value.size()),
                          RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_END);
      }
      if (!check(rd_kafka_commit_transaction(rk, 30000))) return 1;
    }
    rd_kafka_destroy(rk);
    return 0;
  }
  if (command == "produce-keyed" && argc >= 7) {
    const int keys = std::atoi(argv[4]), count = std::atoi(argv[5]), first = std::atoi(argv[6]);
    if (keys <= 0) return Fail("KEYS must be positive");
    std::vector<TestRecord> records;
    for (int i = 0; i < count; ++i) {
      TestRecord r;
      r.key = "k" + std::to_string(i % keys);
      r.value = "v" + std::to_string(first + i);
      r.partition = 0;
      records.push_back(std::move(r));
    }
    absl::Status s = connectd::testing::ProduceRecords(bootstrap, topic, records);
    return s.ok() ? 0 : Fail(s.ToString());
  }
  if (command == "produce-from" && argc >= 7) {
    int first = std::atoi(argv[4]), count = std::atoi(argv[5]), partitions = std::atoi(argv[6]);
    if (partitions <= 0) return Fail("PARTITIONS must be positive");
    std::vector<TestRecord> records;
    for (int i = first; i < first + count; ++i) {
      TestRecord r;
      r.key = "k" + std::to_string(i);
      r.value = "v" + std::to_string(i);
      r.headers = {{"h", std::to_string(i)}, {"empty", ""}};
      r.partition = i % partitions;
      records.push_back(std::move(r));
    }
    absl::Status s = connectd::testing::ProduceRecords(bootstrap, topic, records);
    return s.ok() ? 0 : Fail(s.ToString());
  }
  if (command == "commit" && argc >= 6) {
    std::string group = argv[4];
    char err[256];
    rd_kafka_conf_t* conf = rd_kafka_conf_new();
    if (rd_kafka_conf_set(conf, "bootstrap.servers", bootstrap.c_str(), err, sizeof(err)) ||
        rd_kafka_conf_set(conf, "group.id", group.c_str(), err, sizeof(err)) ||
        rd_kafka_conf_set(conf, "enable.auto.commit", "false", err, sizeof(err))) {
      rd_kafka_conf_destroy(conf);
      return Fail(err);
    }
    rd_kafka_t* rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf, err, sizeof(err));
    if (!rk) return Fail(err);
    rd_kafka_topic_partition_list_t* offsets = rd_kafka_topic_partition_list_new(argc - 5);
    for (int i = 5; i < argc; ++i) {
      std::string spec = argv[i];
      size_t colon = spec.find(':');
      if (colon == std::string::npos) {
        rd_kafka_topic_partition_list_destroy(offsets);
        rd_kafka_destroy(rk);
        return Fail("expected PARTITION:OFFSET[:METADATA], got " + spec);
      }
      size_t second = spec.find(':', colon + 1);
      rd_kafka_topic_partition_t* tp = rd_kafka_topic_partition_list_add(
          offsets, topic.c_str(), std::atoi(spec.substr(0, colon).c_str()));
      tp->offset = std::atoll(spec.substr(colon + 1, second - colon - 1).c_str());
      if (second != std::string::npos) {
        std::string metadata = spec.substr(second + 1);
        tp->metadata = std::malloc(metadata.size() + 1);  // freed by the list (rd_free)
        std::memcpy(tp->metadata, metadata.c_str(), metadata.size() + 1);
        tp->metadata_size = metadata.size();
      }
    }
    rd_kafka_resp_err_t result = rd_kafka_commit(rk, offsets, 0);
    std::string failed;
    for (int i = 0; i < offsets->cnt; ++i) {
      if (offsets->elems[i].err) {
        failed += " " + std::string(rd_kafka_err2str(offsets->elems[i].err));
      }
    }
    rd_kafka_topic_partition_list_destroy(offsets);
    rd_kafka_consumer_close(rk);
    rd_kafka_destroy(rk);
    if (result) return Fail(std::string("commit: ") + rd_kafka_err2str(result));
    return failed.empty() ? 0 : Fail("commit:" + failed);
  }
  if (command == "consume-all") {
    int seconds = argc >= 5 ? std::atoi(argv[4]) : 30;
    char err[256];
    rd_kafka_conf_t* conf = rd_kafka_conf_new();
    if (rd_kafka_conf_set(conf, "bootstrap.servers", bootstrap.c_str(), err, sizeof(err)) ||
        rd_kafka_conf_set(conf, "group.id", "unused-assign-only", err, sizeof(err)) ||
        rd_kafka_conf_set(conf, "enable.auto.commit", "false", err, sizeof(err)) ||
        rd_kafka_conf_set(conf, "enable.partition.eof", "true", err, sizeof(err))) {
      rd_kafka_conf_destroy(conf);
      return Fail(err);
    }
    rd_kafka_t* rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf, err, sizeof(err));
    if (!rk) return Fail(err);
    rd_kafka_poll_set_consumer(rk);
    const rd_kafka_metadata_t* md = nullptr;
    rd_kafka_topic_t* rkt = rd_kafka_topic_new(rk, topic.c_str(), nullptr);
    bool found = false;
    // A topic created a moment ago may not be in every broker's metadata yet: retry for a while.
    for (int attempt = 0; attempt < 50 && !found; ++attempt) {
      if (attempt > 0) std::this_thread::sleep_for(std::chrono::milliseconds(200));
      if (rd_kafka_metadata(rk, 0, rkt, &md, 10000)) continue;
      found = md->topic_cnt == 1 && !md->topics[0].err;
      if (!found) rd_kafka_metadata_destroy(md);
    }
    rd_kafka_topic_destroy(rkt);
    if (!found) {
      rd_kafka_destroy(rk);
      return Fail("no metadata for " + topic);
    }
    // The end of each partition now; reading stops there (records written later may show).
    std::map<int32_t, int64_t> remaining_end;
    rd_kafka_topic_partition_list_t* assignment = rd_kafka_topic_partition_list_new(8);
    for (int p = 0; p < md->topics[0].partition_cnt; ++p) {
      int32_t id = md->topics[0].partitions[p].id;
      int64_t low = 0, high = 0;
      // A partition created a moment ago may not have a leader yet: retry for a while.
      rd_kafka_resp_err_t werr = RD_KAFKA_RESP_ERR_NO_ERROR;
      for (int attempt = 0; attempt < 50; ++attempt) {
        werr = rd_kafka_query_watermark_offsets(rk, topic.c_str(), id, &low, &high, 10000);
        if (!werr) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
      }
      if (werr) {
        rd_kafka_metadata_destroy(md);
        rd_kafka_topic_partition_list_destroy(assignment);
        rd_kafka_destroy(rk);
        return Fail("watermarks of " + topic);
      }
      if (high > low) remaining_end[id] = high;
      rd_kafka_topic_partition_list_add(assignment, topic.c_str(), id)->offset =
          RD_KAFKA_OFFSET_BEGINNING;
    }
    rd_kafka_metadata_destroy(md);
    rd_kafka_assign(rk, assignment);
    rd_kafka_topic_partition_list_destroy(assignment);
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
    while (!remaining_end.empty() && std::chrono::steady_clock::now() < deadline) {
      rd_kafka_message_t* m = rd_kafka_consumer_poll(rk, 200);
      if (!m) continue;
      auto it = remaining_end.find(m->partition);
      if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
        if (it != remaining_end.end() && m->offset >= it->second) remaining_end.erase(it);
      } else if (!m->err) {
        std::string key(m->key ? static_cast<const char*>(m->key) : "", m->key ? m->key_len : 0);
        std::string value(m->payload ? static_cast<const char*>(m->payload) : "",
                          m->payload ? m->len : 0);
        std::cout << "{\"partition\":" << m->partition << ",\"offset\":" << m->offset
                  << ",\"key_hex\":\"" << Hex(key) << "\",\"value_hex\":\"" << Hex(value)
                  << "\",\"timestamp\":" << rd_kafka_message_timestamp(m, nullptr) << "}\n";
        if (it != remaining_end.end() && m->offset + 1 >= it->second) remaining_end.erase(it);
      }
      rd_kafka_message_destroy(m);
    }
    rd_kafka_consumer_close(rk);
    rd_kafka_destroy(rk);
    return remaining_end.empty() ? 0 : Fail("timed out reading " + topic + " to its end");
  }
  if (command == "describe-configs" || command == "alter-configs") {
    Admin admin;
    std::string error;
    if (!admin.Open(bootstrap, &error)) return Fail(error);
    auto configs = DescribeConfigs(admin, topic, &error);
    if (!configs) return Fail(error);
    if (command == "describe-configs") {
      for (const auto& [name, c] : *configs) {
        std::cout << "{\"name\":" << Json(name)
                  << ",\"value\":" << (c.value ? Json(*c.value) : std::string("null"))
                  << ",\"source\":" << Json(rd_kafka_ConfigSource_name(c.source))
                  << ",\"sensitive\":" << (c.sensitive ? "true" : "false") << "}\n";
      }
      return 0;
    }
    std::map<std::string, std::string> overrides;
    for (const auto& [name, c] : *configs) {
      if (c.source != RD_KAFKA_CONFIG_SOURCE_DYNAMIC_TOPIC_CONFIG) continue;
      if (!c.value) return Fail("cannot keep sensitive override " + name);
      overrides[name] = *c.value;
    }
    for (int i = 4; i < argc; ++i) {
      std::string op = argv[i];
      size_t eq = op.find('=');
      if (!op.empty() && op[0] == '-') {
        overrides.erase(op.substr(1));
      } else if (eq != std::string::npos) {
        overrides[op.substr(0, eq)] = op.substr(eq + 1);
      } else {
        return Fail("bad config op " + op + " (NAME=VALUE or -NAME)");
      }
    }
    rd_kafka_ConfigResource_t* r =
        rd_kafka_ConfigResource_new(RD_KAFKA_RESOURCE_TOPIC, topic.c_str());
    for (const auto& [k, v] : overrides)
      rd_kafka_ConfigResource_set_config(r, k.c_str(), v.c_str());
    rd_kafka_AlterConfigs(admin.rk, &r, 1, nullptr, admin.queue);
    rd_kafka_ConfigResource_destroy(r);
    rd_kafka_event_t* ev = admin.Wait(&error);
    if (!ev) return Fail(error);
    size_t n = 0;
    const rd_kafka_ConfigResource_t** res =
        rd_kafka_AlterConfigs_result_resources(rd_kafka_event_AlterConfigs_result(ev), &n);
    for (size_t i = 0; i < n; ++i) {
      if (rd_kafka_ConfigResource_error(res[i]))
        error = rd_kafka_ConfigResource_error_string(res[i]);
    }
    rd_kafka_event_destroy(ev);
    return error.empty() ? 0 : Fail(error);
  }
  if (command == "create-acl" && argc >= 7) {
    auto op = ParseEnum<rd_kafka_AclOperation_t>(argv[5], RD_KAFKA_ACL_OPERATION__CNT,
                                                 rd_kafka_AclOperation_name);
    auto perm = ParseEnum<rd_kafka_AclPermissionType_t>(argv[6], RD_KAFKA_ACL_PERMISSION_TYPE__CNT,
                                                        rd_kafka_AclPermissionType_name);
    auto pattern = ParseEnum<rd_kafka_ResourcePatternType_t>(argc >= 8 ? argv[7] : "LITERAL",
                                                             RD_KAFKA_RESOURCE_PATTERN_TYPE__CNT,
                                                             rd_kafka_ResourcePatternType_name);
    if (!op || !perm || !pattern) return Fail("unknown operation, permission or pattern type");
    Admin admin;
    std::string error;
    if (!admin.Open(bootstrap, &error)) return Fail(error);
    char err[256];
    const auto [resource_type, resource] = AclResource(topic);
    rd_kafka_AclBinding_t* acl = rd_kafka_AclBinding_new(
        resource_type, resource.c_str(), *pattern, argv[4], "*", *op, *perm, err, sizeof(err));
    if (!acl) return Fail(err);
    rd_kafka_CreateAcls(admin.rk, &acl, 1, nullptr, admin.queue);
    rd_kafka_AclBinding_destroy(acl);
    rd_kafka_event_t* ev = admin.Wait(&error);
    if (!ev) return Fail(error);
    size_t n = 0;
    const rd_kafka_acl_result_t** results =
        rd_kafka_CreateAcls_result_acls(rd_kafka_event_CreateAcls_result(ev), &n);
    for (size_t i = 0; i < n; ++i) {
      if (const rd_kafka_error_t* e = rd_kafka_acl_result_error(results[i])) {
        error = rd_kafka_error_string(e);
      }
    }
    rd_kafka_event_destroy(ev);
    return error.empty() ? 0 : Fail(error);
  }
  if (command == "describe-acls") return DescribeAcls(bootstrap, topic, false);
  if (command == "delete-acls") return DescribeAcls(bootstrap, topic, true);
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
  if (int rc = ScenarioCommand(argc, argv); rc >= 0) return rc;
  return Fail("unknown command " + command);
}
