#include "connectors/mirror/offset_sync_writer.h"

#include <algorithm>
#include <chrono>

#include "connectd/sdk/host.h"

namespace connectd::mirror {
namespace {
constexpr char kLogger[] = "org.apache.kafka.connect.mirror.OffsetSyncWriter";
}  // namespace

OffsetSyncWriter::OffsetSyncWriter(KafkaHandle producer, std::string topic, int64_t offset_lag_max)
    : producer_(std::move(producer)), topic_(std::move(topic)), offset_lag_max_(offset_lag_max) {}

OffsetSyncWriter::~OffsetSyncWriter() {
  if (!producer_) return;
  // Send what the in-flight limit still holds back, then wait for it all (5 s at most).
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  PromoteDelayedSyncs();
  while (!pending_order_.empty() && std::chrono::steady_clock::now() < deadline) {
    rd_kafka_poll(producer_.get(), 10);
    FirePending();
  }
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      deadline - std::chrono::steady_clock::now());
  rd_kafka_flush(producer_.get(), static_cast<int>(std::max<int64_t>(0, left.count())));
}

void OffsetSyncWriter::Update(const std::string& topic, int32_t partition, int64_t upstream,
                              int64_t downstream) {
  Key key{topic, partition};
  PartitionState& state = states_[key];
  bool due = state.last_sync_downstream == -1 ||
             downstream - (state.last_sync_downstream + 1) >= offset_lag_max_ ||
             upstream - state.previous_upstream != 1 || downstream < state.previous_downstream;
  state.previous_upstream = upstream;
  state.previous_downstream = downstream;
  OffsetSync sync{topic, partition, upstream, downstream};
  if (due) {
    state.last_sync_downstream = downstream;
    Queue(key, sync, /*due=*/true);
    delayed_.erase(key);
  } else {
    delayed_[key] = sync;
  }
  FirePending();
}

void OffsetSyncWriter::PromoteDelayedSyncs() {
  for (auto& [key, sync] : delayed_) Queue(key, sync, /*due=*/false);
  delayed_.clear();
  FirePending();
}

void OffsetSyncWriter::Poll() {
  // The delivery reports served here are what frees in-flight slots, so syncs held back by the
  // limit go out now rather than waiting for the next record or offset commit (a task whose
  // source went quiet might not see either for a long time).
  FirePending();
}

void OffsetSyncWriter::Queue(const Key& key, const OffsetSync& sync, bool due) {
  // A due sync would replace one that never went out (all slots busy): that would leave a gap
  // of 2 x offset.lag.max between syncs. Give the in-flight syncs a moment (bounded) to be
  // acknowledged first, so that a fast copy cannot outrun the syncs.
  if (due && producer_ && pending_.count(key) != 0) {
    auto deadline = std::chrono::steady_clock::now() + kMaxWaitForSlot;
    while (pending_.count(key) != 0 && std::chrono::steady_clock::now() < deadline) {
      rd_kafka_poll(producer_.get(), 1);
      FirePending();
    }
  }
  auto [it, inserted] = pending_.insert_or_assign(key, sync);
  if (inserted) pending_order_.push_back(key);  // a replaced sync keeps its place in line
}

void OffsetSyncWriter::FirePending() {
  if (!producer_) {
    pending_.clear();
    pending_order_.clear();
    return;
  }
  rd_kafka_poll(producer_.get(), 0);  // delivery reports: keeps in_flight_ current
  // Oldest first (Java's insertion-ordered map): with more partitions than free slots, every
  // partition gets its turn instead of the lowest-sorting ones winning every time.
  while (!pending_order_.empty() && in_flight_.load() < kMaxInFlight) {
    auto it = pending_.find(pending_order_.front());
    std::string key = EncodeOffsetSyncKey(it->second);
    std::string value = EncodeOffsetSyncValue(it->second);
    rd_kafka_resp_err_t err = rd_kafka_producev(
        producer_.get(), RD_KAFKA_V_TOPIC(topic_.c_str()), RD_KAFKA_V_PARTITION(0),
        RD_KAFKA_V_KEY(key.data(), key.size()), RD_KAFKA_V_VALUE(value.data(), value.size()),
        RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_OPAQUE(this), RD_KAFKA_V_END);
    if (err) {
      sdk::Log(CONNECTD_LOG_WARN, kLogger,
               std::string("Failure sending offset sync: ") + rd_kafka_err2str(err));
      return;  // kept pending; retried on the next update or commit
    }
    ++in_flight_;
    ++syncs_sent_;
    pending_.erase(it);
    pending_order_.pop_front();
  }
}

void OffsetSyncWriter::DeliveryCallback(rd_kafka_t*, const rd_kafka_message_t* message, void*) {
  auto* writer = static_cast<OffsetSyncWriter*>(message->_private);
  --writer->in_flight_;
  if (message->err) {
    sdk::Log(CONNECTD_LOG_WARN, kLogger,
             std::string("Failure sending offset sync: ") + rd_kafka_err2str(message->err));
  }
}

}  // namespace connectd::mirror
