// File: offset_sync_writer.h
//
// OffsetSyncWriter: decides when a replicated record's (upstream, downstream) offset pair is
// written to the offset-syncs topic, with Kafka's rules (OffsetSyncWriter): a sync is due for the
// first record of a partition in this task's life, when the downstream offset ran
// offset.lag.max past the last sync, when upstream offsets are not contiguous, or when the
// downstream offset went backwards. Records that are not due leave a delayed sync, promoted on
// each offset commit. At most 10 in flight (Java's limit). Syncs held back by that limit are
// sent oldest first by the next Update that queues a sync (or every kUpdatesPerFire-th Update),
// PromoteDelayedSyncs or Poll, each of which first serves the producer's delivery reports (the
// only thing that frees in-flight slots).
//
// Unlike Java, which keeps one queued sync per partition and lets a newer due sync replace it,
// every due sync is queued (up to kMaxQueued): connectd's worker delivers acknowledgements in
// bursts, and replacing would leave a partition without syncs for thousands of records, so
// that consumers lagging behind could not be translated. Nothing ever blocks the copy.
//
// The exact offset index (offset_index.h). With an index topic, every acknowledged copy also
// extends its partition's open run; a run that closes (a gap on either side, a rewind) is
// queued, at most kMaxRunsPerSend per partition between two sends (beyond, runs are dropped
// and counted: the reader's translation of their records falls back to a lower bound), and each
// offset commit, and Poll() at most every kRunsInterval, sends the queued runs and every open run
// that grew, as OffsetRunRecord records to partition 0 of the index topic: a group that keeps up
// with the copy finds its offset in the index within about a second, not only after the next
// offset commit (60 s by default). A run that failed to send is counted and logged at the next
// send: like a dropped one it only makes translations replay, never skip.
//
// Threads: the task thread only (delivery reports arrive inside Poll()).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "connectors/mirror/kafka_clients.h"
#include "connectors/mirror/offset_index.h"
#include "connectors/mirror_client/records.h"

namespace connectd::mirror {

class OffsetSyncWriter {
 public:
  // `producer` writes to `topic` (partition 0); may be null when offset syncs are disabled.
  // `index_topic` empty: no offset index.
  OffsetSyncWriter(KafkaHandle producer, std::string topic, int64_t offset_lag_max,
                   std::string index_topic = "");
  ~OffsetSyncWriter();

  // A record of `topic`/`partition` at upstream offset `upstream` was written at `downstream`.
  void Update(const std::string& topic, int32_t partition, int64_t upstream, int64_t downstream);
  // `count` records with consecutive offsets on both sides (a batch copied as it is), the first
  // at `upstream` -> `downstream`: what as many Updates would do, in O(syncs due): after the
  // first record only offset.lag.max makes one due, and the last one left is the delayed sync.
  void UpdateBatch(const std::string& topic, int32_t partition, int64_t upstream,
                   int64_t downstream, int32_t count);
  // On offset commit: every delayed sync becomes pending and is sent, and so are the index's
  // queued and grown runs.
  void PromoteDelayedSyncs();
  // Serves delivery reports, then sends the pending syncs the freed slots allow. Call it
  // regularly (MirrorSourceTask does on every poll), also when no records flow.
  void Poll();

  int64_t syncs_sent() const { return syncs_sent_; }
  int64_t runs_sent() const { return runs_sent_; }
  int64_t runs_dropped() const { return runs_dropped_; }
  // True while syncs wait for an in-flight slot: the task should call Poll() again soon.
  bool has_queued() const { return !queue_.empty(); }

  // The producer's delivery-report callback (install with rd_kafka_conf_set_dr_msg_cb).
  static void DeliveryCallback(rd_kafka_t*, const rd_kafka_message_t* message, void* opaque);

 private:
  using Key = std::pair<std::string, int32_t>;
  struct PartitionState {
    int64_t previous_upstream = -1;
    int64_t previous_downstream = -1;
    int64_t last_sync_downstream = -1;
    OffsetSync* delayed = nullptr;  // this partition's entry of delayed_, if any
    OpenRun run;                    // the offset index's open run
    int runs_queued = 0;            // closed runs queued since the last commit
  };
  // What a produced record's opaque points to: which kind of record was delivered.
  struct DeliveryTag {
    OffsetSyncWriter* writer;
    bool is_sync;
  };
  static constexpr int kMaxInFlight = 10;
  // Due syncs waiting for a slot; beyond this a due sync is kept as the partition's delayed
  // sync (sent at the next offset commit) instead.
  static constexpr size_t kMaxQueued = 10000;
  // While syncs wait for a slot, an Update that queues none serves delivery reports only every
  // this many calls (each costs an rd_kafka_poll).
  static constexpr int kUpdatesPerFire = 32;
  // Closed runs queued per partition between two sends (a transactional source closes
  // one per transaction).
  static constexpr int kMaxRunsPerSend = 1000;
  // How often Poll() sends the runs that changed (one record per active partition at most).
  static constexpr std::chrono::milliseconds kRunsInterval{1000};

  // Appends `sync` to the send queue; false when the queue is full.
  bool Queue(const OffsetSync& sync);
  void FirePending();
  void QueueRun(const Key& key, PartitionState& state, const OffsetRun& run);
  void SendRuns();

  KafkaHandle producer_;
  std::string topic_;
  int64_t offset_lag_max_;
  std::map<Key, PartitionState> states_;
  const Key* last_key_ = nullptr;  // the last Update's entry of states_ (stable: a map)
  PartitionState* last_state_ = nullptr;
  std::deque<OffsetSync> queue_;  // due and promoted syncs, sent oldest first
  std::map<Key, OffsetSync> delayed_;
  std::atomic<int> in_flight_{0};
  int64_t syncs_sent_ = 0;
  int updates_since_fire_ = 0;  // Updates since the last FirePending

  std::string index_topic_;  // empty: no offset index
  DeliveryTag sync_tag_{this, true};
  DeliveryTag run_tag_{this, false};
  std::vector<OffsetRunRecord> queued_runs_;
  int64_t runs_sent_ = 0;
  int64_t runs_dropped_ = 0;
  int64_t runs_dropped_logged_ = 0;
  std::atomic<int64_t> runs_failed_{0};  // delivery failures not logged yet
  std::chrono::steady_clock::time_point runs_sent_at_ = std::chrono::steady_clock::now();
};

}  // namespace connectd::mirror
