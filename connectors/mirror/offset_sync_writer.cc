#include "connectors/mirror/offset_sync_writer.h"

#include <algorithm>
#include <chrono>

#include "connectd/sdk/host.h"

namespace connectd::mirror {
namespace {
constexpr char kLogger[] = "org.apache.kafka.connect.mirror.OffsetSyncWriter";
}  // namespace

OffsetSyncWriter::OffsetSyncWriter(KafkaHandle producer, std::string topic, int64_t offset_lag_max,
                                   std::string index_topic)
    : producer_(std::move(producer)),
      topic_(std::move(topic)),
      offset_lag_max_(offset_lag_max),
      index_topic_(producer_ ? std::move(index_topic) : std::string()) {}

OffsetSyncWriter::~OffsetSyncWriter() {
  if (!producer_) return;
  // Send what the in-flight limit still holds back, then wait for it all (5 s at most).
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  PromoteDelayedSyncs();
  while (!queue_.empty() && std::chrono::steady_clock::now() < deadline) {
    rd_kafka_poll(producer_.get(), 10);
    FirePending();
  }
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      deadline - std::chrono::steady_clock::now());
  rd_kafka_flush(producer_.get(), static_cast<int>(std::max<int64_t>(0, left.count())));
}

void OffsetSyncWriter::Update(const std::string& topic, int32_t partition, int64_t upstream,
                              int64_t downstream) {
  // Acks come in runs per partition: reuse the last lookup (no key copy per record).
  if (last_state_ == nullptr || last_key_->second != partition || last_key_->first != topic) {
    auto it = states_.try_emplace(Key{topic, partition}).first;
    last_key_ = &it->first;
    last_state_ = &it->second;
  }
  const Key& key = *last_key_;
  PartitionState& state = *last_state_;
  bool due = state.last_sync_downstream == -1 ||
             downstream - (state.last_sync_downstream + 1) >= offset_lag_max_ ||
             upstream - state.previous_upstream != 1 || downstream < state.previous_downstream;
  state.previous_upstream = upstream;
  state.previous_downstream = downstream;
  if (!index_topic_.empty()) {
    if (std::optional<OffsetRun> closed = state.run.Add(upstream, downstream)) {
      QueueRun(key, state, *closed);
    }
  }
  const bool queued = due && Queue(OffsetSync{topic, partition, upstream, downstream});
  if (queued) {
    state.last_sync_downstream = downstream;
    if (state.delayed != nullptr) {
      delayed_.erase(key);
      state.delayed = nullptr;
    }
  } else if (state.delayed != nullptr) {
    state.delayed->upstream_offset = upstream;  // most records: no lookup, no allocation
    state.delayed->downstream_offset = downstream;
  } else {
    state.delayed =
        &delayed_.emplace(key, OffsetSync{topic, partition, upstream, downstream}).first->second;
  }
  // Serving delivery reports only matters while syncs wait for a slot, and serving them on
  // every ack of a burst cost 2-6% of a 100 B copy's CPU (perf): a new sync goes out at once,
  // waiting ones every kUpdatesPerFire acks (and on every Poll()).
  if (queue_.empty()) return;
  if (queued || ++updates_since_fire_ >= kUpdatesPerFire) FirePending();
}

void OffsetSyncWriter::UpdateBatch(const std::string& topic, int32_t partition, int64_t upstream,
                                   int64_t downstream, int32_t count) {
  if (count <= 0) return;
  Update(topic, partition, upstream, downstream);  // may be due for any of Java's reasons
  if (count == 1) return;
  const Key& key = *last_key_;
  PartitionState& state = *last_state_;
  const int64_t last = count - 1;
  if (!index_topic_.empty()) {
    if (std::optional<OffsetRun> closed = state.run.Add(upstream + 1, downstream + 1, last)) {
      QueueRun(key, state, *closed);
    }
  }
  // Records 1..last: due where the downstream offset ran offset.lag.max past the last sync.
  bool last_queued = false;
  bool queued_any = false;
  for (int64_t i = 1; i <= last;) {
    const int64_t due = std::max(i, state.last_sync_downstream + 1 + offset_lag_max_ - downstream);
    if (due > last) break;
    if (!Queue(OffsetSync{topic, partition, upstream + due, downstream + due})) break;
    queued_any = true;
    state.last_sync_downstream = downstream + due;
    if (state.delayed != nullptr) {
      delayed_.erase(key);
      state.delayed = nullptr;
    }
    last_queued = due == last;
    i = due + 1;
  }
  state.previous_upstream = upstream + last;
  state.previous_downstream = downstream + last;
  if (!last_queued) {  // the newest record not synced waits as the delayed sync
    if (state.delayed != nullptr) {
      state.delayed->upstream_offset = upstream + last;
      state.delayed->downstream_offset = downstream + last;
    } else {
      state.delayed =
          &delayed_.emplace(key, OffsetSync{topic, partition, upstream + last, downstream + last})
               .first->second;
    }
  }
  if (queued_any && !queue_.empty()) FirePending();
}

void OffsetSyncWriter::PromoteDelayedSyncs() {
  for (auto it = delayed_.begin(); it != delayed_.end() && Queue(it->second);) {
    if (auto state = states_.find(it->first); state != states_.end()) {
      state->second.delayed = nullptr;
    }
    it = delayed_.erase(it);
  }
  FirePending();
  if (!index_topic_.empty()) SendRuns();
}

void OffsetSyncWriter::QueueRun(const Key& key, PartitionState& state, const OffsetRun& run) {
  if (state.runs_queued >= kMaxRunsPerSend) {
    ++runs_dropped_;
    return;
  }
  ++state.runs_queued;
  queued_runs_.push_back({key.first, key.second, run.upstream, run.downstream, run.count});
}

void OffsetSyncWriter::SendRuns() {
  runs_sent_at_ = std::chrono::steady_clock::now();
  for (auto& [key, state] : states_) {
    if (std::optional<OffsetRun> grown = state.run.TakeChanged()) {
      queued_runs_.push_back(
          {key.first, key.second, grown->upstream, grown->downstream, grown->count});
    }
    state.runs_queued = 0;
  }
  int64_t refused = 0;
  for (const OffsetRunRecord& run : queued_runs_) {
    std::string key = EncodeOffsetRunKey(run);
    std::string value = EncodeOffsetRunValue(run);
    rd_kafka_resp_err_t err = rd_kafka_producev(
        producer_.get(), RD_KAFKA_V_TOPIC(index_topic_.c_str()), RD_KAFKA_V_PARTITION(0),
        RD_KAFKA_V_KEY(key.data(), key.size()), RD_KAFKA_V_VALUE(value.data(), value.size()),
        RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_OPAQUE(&run_tag_), RD_KAFKA_V_END);
    if (err) {
      ++refused;
    } else {
      ++runs_sent_;
    }
  }
  queued_runs_.clear();
  const int64_t failed = refused + runs_failed_.exchange(0);
  const int64_t dropped = runs_dropped_ - runs_dropped_logged_;
  if (failed > 0 || dropped > 0) {
    sdk::Log(CONNECTD_LOG_WARN, kLogger,
             "Offset index " + index_topic_ + ": " + std::to_string(failed) +
                 " runs not written, " + std::to_string(dropped) +
                 " dropped over the budget of a partition per send; translations of their records "
                 "replay");
    runs_dropped_logged_ = runs_dropped_;
  }
}

void OffsetSyncWriter::Poll() {
  // The delivery reports served here are what frees in-flight slots, so syncs held back by the
  // limit go out now rather than waiting for the next record or offset commit (a task whose
  // source went quiet might not see either for a long time).
  FirePending();
  if (!index_topic_.empty() && std::chrono::steady_clock::now() - runs_sent_at_ >= kRunsInterval) {
    SendRuns();
  }
}

bool OffsetSyncWriter::Queue(const OffsetSync& sync) {
  if (queue_.size() >= kMaxQueued) return false;
  queue_.push_back(sync);
  return true;
}

void OffsetSyncWriter::FirePending() {
  if (!producer_) {
    queue_.clear();
    return;
  }
  updates_since_fire_ = 0;
  rd_kafka_poll(producer_.get(), 0);  // delivery reports: keeps in_flight_ current
  while (!queue_.empty() && in_flight_.load() < kMaxInFlight) {
    const OffsetSync& sync = queue_.front();
    std::string key = EncodeOffsetSyncKey(sync);
    std::string value = EncodeOffsetSyncValue(sync);
    rd_kafka_resp_err_t err = rd_kafka_producev(
        producer_.get(), RD_KAFKA_V_TOPIC(topic_.c_str()), RD_KAFKA_V_PARTITION(0),
        RD_KAFKA_V_KEY(key.data(), key.size()), RD_KAFKA_V_VALUE(value.data(), value.size()),
        RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_OPAQUE(&sync_tag_), RD_KAFKA_V_END);
    if (err) {
      sdk::Log(CONNECTD_LOG_WARN, kLogger,
               std::string("Failure sending offset sync: ") + rd_kafka_err2str(err));
      return;  // kept queued; retried on the next update, commit or poll
    }
    ++in_flight_;
    ++syncs_sent_;
    queue_.pop_front();
  }
}

void OffsetSyncWriter::DeliveryCallback(rd_kafka_t*, const rd_kafka_message_t* message, void*) {
  const auto* tag = static_cast<const DeliveryTag*>(message->_private);
  OffsetSyncWriter* writer = tag->writer;
  if (!tag->is_sync) {
    if (message->err) ++writer->runs_failed_;
    return;
  }
  --writer->in_flight_;
  if (message->err) {
    sdk::Log(CONNECTD_LOG_WARN, kLogger,
             std::string("Failure sending offset sync: ") + rd_kafka_err2str(message->err));
  }
}

}  // namespace connectd::mirror
