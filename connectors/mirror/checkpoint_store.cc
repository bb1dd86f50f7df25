#include "connectors/mirror/checkpoint_store.h"

#include <chrono>
#include <memory>
#include <thread>

#include "connectd/sdk/host.h"

namespace connectd::mirror {
namespace {

constexpr char kLogger[] = "org.apache.kafka.connect.mirror.CheckpointStore";

void ConfigureLoader(rd_kafka_conf_t* conf, void*) {
  char err[256];
  rd_kafka_conf_set(conf, "enable.partition.eof", "true", err, sizeof(err));
}

// Errors librdkafka reports while it retries by itself; they do not fail the load.
bool IsTransient(rd_kafka_resp_err_t err) {
  return err == RD_KAFKA_RESP_ERR__TRANSPORT || err == RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN ||
         err == RD_KAFKA_RESP_ERR__RESOLVE || err == RD_KAFKA_RESP_ERR__TIMED_OUT;
}

bool Stopping(const std::atomic<bool>* stop) { return stop != nullptr && stop->load(); }

}  // namespace

void CheckpointStore::Update(const std::string& group, const GroupCheckpoints& newer) {
  GroupCheckpoints& checkpoints = checkpoints_[group];
  for (const auto& [tp, checkpoint] : newer) checkpoints.insert_or_assign(tp, checkpoint);
}

bool CheckpointStore::Apply(std::string_view key, std::string_view value,
                            const std::set<std::string>& groups) {
  std::optional<Checkpoint> checkpoint = DecodeCheckpoint(key, value);
  if (!checkpoint) return false;
  if (groups.count(checkpoint->group) == 0) return true;
  checkpoints_[checkpoint->group].insert_or_assign(
      sdk::TopicPartition{checkpoint->topic, checkpoint->partition}, *checkpoint);
  return true;
}

const CheckpointStore::GroupCheckpoints* CheckpointStore::Get(const std::string& group) const {
  auto it = checkpoints_.find(group);
  return it == checkpoints_.end() ? nullptr : &it->second;
}

std::map<std::string, GroupOffsets> CheckpointStore::ComputeConvertedUpstreamOffset() const {
  std::map<std::string, GroupOffsets> out;
  for (const auto& [group, checkpoints] : checkpoints_) {
    GroupOffsets& offsets = out[group];
    for (const auto& [tp, checkpoint] : checkpoints) {
      offsets[tp] = CommittedOffset{checkpoint.downstream_offset, checkpoint.metadata};
    }
  }
  return out;
}

bool LoadCheckpoints(const Props& consumer_props, const std::string& topic,
                     const std::set<std::string>& groups, int topic_wait_ms,
                     const std::atomic<bool>* stop, CheckpointStore* store, std::string* error) {
  store->Clear();
  Props props = consumer_props;
  props["enable.auto.commit"] = "false";
  props["auto.offset.reset"] = "earliest";
  props.emplace("group.id", "connectd-mirror-checkpoints-reader");  // never joined
  KafkaHandle consumer = MakeClient(RD_KAFKA_CONSUMER, props, error, &ConfigureLoader);
  if (!consumer) return false;
  rd_kafka_t* rk = consumer.get();
  rd_kafka_poll_set_consumer(rk);
  auto fail = [&](std::string why) {
    store->Clear();
    *error = std::move(why);
    rd_kafka_consumer_close(rk);
    return false;
  };

  int64_t low = 0, high = 0;
  const auto topic_deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(topic_wait_ms);
  while (true) {
    rd_kafka_resp_err_t err =
        rd_kafka_query_watermark_offsets(rk, topic.c_str(), 0, &low, &high, 500);
    if (!err) break;
    if (Stopping(stop)) return fail("stopping");
    if (std::chrono::steady_clock::now() >= topic_deadline) {
      return fail("cannot read the end offset of " + topic + ": " + rd_kafka_err2str(err));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  if (high <= low) {
    rd_kafka_consumer_close(rk);
    return true;
  }

  rd_kafka_topic_partition_list_t* assignment = rd_kafka_topic_partition_list_new(1);
  rd_kafka_topic_partition_list_add(assignment, topic.c_str(), 0)->offset =
      RD_KAFKA_OFFSET_BEGINNING;
  rd_kafka_resp_err_t assign_err = rd_kafka_assign(rk, assignment);
  rd_kafka_topic_partition_list_destroy(assignment);
  if (assign_err) return fail(std::string("assign failed: ") + rd_kafka_err2str(assign_err));

  int64_t position = 0;
  int64_t skipped = 0;
  while (position < high) {
    if (Stopping(stop)) return fail("stopping");
    rd_kafka_message_t* m = rd_kafka_consumer_poll(rk, 200);
    if (m == nullptr) continue;
    std::unique_ptr<rd_kafka_message_t, void (*)(rd_kafka_message_t*)> held(
        m, &rd_kafka_message_destroy);
    if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) break;
    if (m->err) {
      if (IsTransient(m->err)) continue;
      return fail("reading " + topic + ": " + rd_kafka_message_errstr(m));
    }
    position = m->offset + 1;
    std::string_view key(static_cast<const char*>(m->key), m->key_len);
    std::string_view value(static_cast<const char*>(m->payload), m->len);
    if (!store->Apply(key, value, groups)) ++skipped;
  }
  if (skipped > 0) {
    sdk::Log(CONNECTD_LOG_WARN, kLogger,
             "Ignored " + std::to_string(skipped) + " invalid checkpoint records in " + topic);
  }
  rd_kafka_consumer_close(rk);
  return true;
}

}  // namespace connectd::mirror
