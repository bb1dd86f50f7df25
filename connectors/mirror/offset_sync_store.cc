#include "connectors/mirror/offset_sync_store.h"

#include <algorithm>
#include <vector>

#include "connectd/sdk/host.h"

namespace connectd::mirror {
namespace {

constexpr char kLogger[] = "org.apache.kafka.connect.mirror.OffsetSyncStore";
constexpr int kLast = OffsetSyncStore::kSyncsPerPartition - 1;

using Sync = OffsetSyncStore::Sync;

// Java long arithmetic (two's complement, wrapping): the bounds below must overflow exactly as
// Kafka's do, or the stored slots would differ from Java's for huge offsets.
int64_t Plus(int64_t a, uint64_t b) { return static_cast<int64_t>(static_cast<uint64_t>(a) + b); }
uint64_t Pow2(int exponent) { return uint64_t{1} << exponent; }

// Invariant B for slots i < j: s[i].up <= s[j].up + 2^j - 2^i (a negative bound has
// overflowed and counts as satisfied).
bool InvariantB(const Sync& i_sync, const Sync& j_sync, int i, int j) {
  int64_t bound = Plus(j_sync.upstream, Pow2(j) - Pow2(i));
  return i_sync.id == j_sync.id || bound < 0 || i_sync.upstream <= bound;
}

// Invariant C for slots i < j: s[i].up >= s[j].up + 2^max(i-2,0) (a negative bound has
// overflowed and counts as violated).
bool InvariantC(const Sync& i_sync, const Sync& j_sync, int i) {
  int64_t bound = Plus(j_sync.upstream, Pow2(std::max(i - 2, 0)));
  return i_sync.id == j_sync.id || (bound >= 0 && i_sync.upstream >= bound);
}

}  // namespace

// ---- OffsetSyncStore ---------------------------------------------------------------------------

void OffsetSyncStore::Update(const OffsetSync& sync) {
  Update(sync.topic, sync.partition, sync.upstream_offset, sync.downstream_offset);
}

void OffsetSyncStore::Update(const std::string& topic, int32_t partition, int64_t upstream,
                             int64_t downstream) {
  const Sync sync{upstream, downstream, next_id_++};
  auto it = syncs_.find({topic, partition});
  if (it == syncs_.end()) {
    Syncs initial;
    initial.fill(sync);
    syncs_.emplace(std::make_pair(topic, partition), initial);
    return;
  }
  const Syncs original = it->second;
  UpdateSyncArray(it->second, original, sync);
}

void OffsetSyncStore::UpdateSyncArray(Syncs& syncs, const Syncs& original, const Sync& sync) const {
  // During the initial load of a store that must not trust older syncs, and after an upstream
  // rewind (older syncs are all invalid), the new sync replaces everything. An array holding one
  // sync satisfies B and C trivially.
  const bool only_load_last_offset = !read_to_end_ && initialization_must_read_to_end_;
  const bool upstream_rewind = sync.upstream < syncs[0].upstream;
  if (only_load_last_offset || upstream_rewind) {
    syncs.fill(sync);
    return;
  }
  // A: the new sync always becomes slot 0.
  syncs[0] = sync;
  // `replacement` always satisfies B and C for the slot being repaired; it starts as the new
  // sync and is moved to older syncs of `original` when they fit, so fewer syncs expire.
  Sync replacement = sync;
  int candidate = 0;  // index into `original` of the next old sync to consider
  for (int current = 1; current <= kLast; ++current) {
    const int previous = current - 1;
    bool skip;
    do {
      const Sync& old_sync = original[candidate];
      const bool recent = InvariantB(syncs[previous], old_sync, previous, current);
      const bool separated_from_previous = InvariantC(syncs[previous], old_sync, previous);
      const bool separated_from_next =
          current == kLast || InvariantC(old_sync, syncs[current + 1], current);
      const bool duplicate = candidate < kLast && old_sync.id == original[candidate + 1].id;
      const bool promote = recent && separated_from_previous && separated_from_next;
      if (promote) replacement = old_sync;
      // Skip a candidate that can never be used at a later index either.
      skip = duplicate || !separated_from_previous;
      if (promote || skip) ++candidate;
    } while (candidate < current && skip);

    // Once B holds here it holds for every later slot: the rest of the array stays.
    if (InvariantB(syncs[previous], syncs[current], previous, current)) break;
    syncs[current] = replacement;
  }
}

std::optional<int64_t> OffsetSyncStore::TranslateDownstream(const std::string& topic,
                                                            int32_t partition,
                                                            int64_t upstream_offset) const {
  if (!read_to_end_) return std::nullopt;  // no translation during the initial load
  const Syncs* syncs = syncsFor(topic, partition);
  if (syncs == nullptr) return std::nullopt;  // no sync for this partition (KAFKA-12635)
  // The newest sync at or before the group's offset (slots run newest to oldest), else the
  // oldest one.
  const Sync* chosen = &(*syncs)[kLast];
  for (const Sync& s : *syncs) {
    if (s.upstream <= upstream_offset) {
      chosen = &s;
      break;
    }
  }
  if (chosen->upstream > upstream_offset) return -1;  // older than anything retained
  return chosen->downstream + (upstream_offset == chosen->upstream ? 0 : 1);
}

const OffsetSyncStore::Syncs* OffsetSyncStore::syncsFor(const std::string& topic,
                                                        int32_t partition) const {
  auto it = syncs_.find({topic, partition});
  return it == syncs_.end() ? nullptr : &it->second;
}

// ---- OffsetSyncReader --------------------------------------------------------------------------

namespace {

void ConfigureReader(rd_kafka_conf_t* conf, void*) {
  char err[256];
  // End-of-partition events complete the first read-to-end when the last offsets before the
  // high watermark hold no record (transaction markers).
  rd_kafka_conf_set(conf, "enable.partition.eof", "true", err, sizeof(err));
}

}  // namespace

std::unique_ptr<OffsetSyncReader> OffsetSyncReader::Make(const Props& consumer_props,
                                                         std::string topic, std::string* error) {
  Props props = consumer_props;
  props["enable.auto.commit"] = "false";
  props["auto.offset.reset"] = "earliest";
  // assign() needs no group, but librdkafka's consumer wants a group.id; it is never joined.
  props.emplace("group.id", "connectd-mirror-offset-syncs-reader");
  KafkaHandle consumer = MakeClient(RD_KAFKA_CONSUMER, props, error, &ConfigureReader);
  if (!consumer) return nullptr;
  rd_kafka_poll_set_consumer(consumer.get());
  return std::unique_ptr<OffsetSyncReader>(
      new OffsetSyncReader(std::move(consumer), std::move(topic)));
}

OffsetSyncReader::OffsetSyncReader(KafkaHandle consumer, std::string topic)
    : consumer_(std::move(consumer)), topic_(std::move(topic)) {}

OffsetSyncReader::~OffsetSyncReader() { Stop(); }

void OffsetSyncReader::Start(bool initialization_must_read_to_end) {
  {
    std::lock_guard lock(mu_);
    if (thread_.joinable() || stopping_) return;
    store_ = OffsetSyncStore(initialization_must_read_to_end);
  }
  thread_ = std::thread([this] { Run(); });
}

void OffsetSyncReader::Stop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
  if (consumer_) {
    rd_kafka_consumer_close(consumer_.get());
    consumer_.reset();
  }
}

bool OffsetSyncReader::WaitForReadToEnd(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mu_);
  cv_.wait_for(lock, timeout, [this] { return stopping_ || read_to_end_.load(); });
  return read_to_end_.load();
}

std::optional<int64_t> OffsetSyncReader::TranslateDownstream(const std::string& topic,
                                                             int32_t partition,
                                                             int64_t upstream_offset) const {
  std::lock_guard lock(mu_);
  return store_.TranslateDownstream(topic, partition, upstream_offset);
}

bool OffsetSyncReader::SleepOrStop(std::chrono::milliseconds d) {
  std::unique_lock lock(mu_);
  return cv_.wait_for(lock, d, [this] { return stopping_; });
}

void OffsetSyncReader::CompleteReadToEnd(int64_t position) {
  {
    std::lock_guard lock(mu_);
    store_.MarkReadToEnd();
    read_to_end_ = true;
  }
  cv_.notify_all();
  sdk::Log(CONNECTD_LOG_INFO, kLogger,
           "Read offset syncs topic " + topic_ + " to its end (offset " + std::to_string(position) +
               "); offset translation enabled");
}

void OffsetSyncReader::Run() {
  rd_kafka_t* rk = consumer_.get();
  // The end of the initial read: the high watermark when reading begins.
  int64_t low = 0, high = 0;
  for (int attempt = 0;; ++attempt) {
    rd_kafka_resp_err_t err =
        rd_kafka_query_watermark_offsets(rk, topic_.c_str(), 0, &low, &high, 500);
    if (!err) break;
    if (attempt % 60 == 0) {
      sdk::Log(CONNECTD_LOG_WARN, kLogger,
               "Cannot read the end offset of offset syncs topic " + topic_ + " (" +
                   rd_kafka_err2str(err) + "); offsets are not translated until it can be read");
    }
    if (SleepOrStop(std::chrono::milliseconds(1000))) return;
  }
  rd_kafka_topic_partition_list_t* assignment = rd_kafka_topic_partition_list_new(1);
  rd_kafka_topic_partition_list_add(assignment, topic_.c_str(), 0)->offset =
      RD_KAFKA_OFFSET_BEGINNING;
  rd_kafka_resp_err_t err = rd_kafka_assign(rk, assignment);
  rd_kafka_topic_partition_list_destroy(assignment);
  if (err) {
    sdk::Log(CONNECTD_LOG_ERROR, kLogger,
             "Cannot assign offset syncs topic " + topic_ + ": " + rd_kafka_err2str(err));
    return;
  }
  if (high <= low) CompleteReadToEnd(high);

  rd_kafka_queue_t* queue = rd_kafka_queue_get_consumer(rk);
  std::vector<rd_kafka_message_t*> messages(1000);
  int64_t position = 0;
  int64_t skipped = 0;
  auto last_error_log = std::chrono::steady_clock::time_point();
  while (true) {
    {
      std::lock_guard lock(mu_);
      if (stopping_) break;
    }
    ssize_t n = rd_kafka_consume_batch_queue(queue, 200, messages.data(), messages.size());
    if (n <= 0) continue;
    bool reached_end = false;
    {
      std::lock_guard lock(mu_);
      for (ssize_t i = 0; i < n; ++i) {
        const rd_kafka_message_t* m = messages[i];
        if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
          reached_end = true;
          position = std::max(position, m->offset);
        } else if (m->err) {
          auto now = std::chrono::steady_clock::now();
          if (now - last_error_log > std::chrono::seconds(30)) {
            last_error_log = now;
            sdk::Log(
                CONNECTD_LOG_WARN, kLogger,
                "Error reading offset syncs topic " + topic_ + ": " + rd_kafka_message_errstr(m));
          }
        } else {
          position = m->offset + 1;
          std::string_view key(static_cast<const char*>(m->key), m->key_len);
          std::string_view value(static_cast<const char*>(m->payload), m->len);
          if (std::optional<OffsetSync> sync = DecodeOffsetSync(key, value)) {
            store_.Update(*sync);
          } else {
            ++skipped;
          }
        }
      }
    }
    for (ssize_t i = 0; i < n; ++i) rd_kafka_message_destroy(messages[i]);
    if (skipped > 0) {
      sdk::Log(CONNECTD_LOG_WARN, kLogger,
               "Skipped " + std::to_string(skipped) + " undecodable records in " + topic_);
      skipped = 0;
    }
    if (!read_to_end_.load() && (reached_end || position >= high)) CompleteReadToEnd(position);
  }
  rd_kafka_queue_destroy(queue);
}

}  // namespace connectd::mirror
