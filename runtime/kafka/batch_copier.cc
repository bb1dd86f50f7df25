#include "runtime/kafka/batch_copier.h"

#include <algorithm>
#include <deque>
#include <optional>
#include <set>
#include <span>
#include <utility>
#include <variant>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include "absl/strings/numbers.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "runtime/common/logging.h"
#include "runtime/kafka/client/bootstrap.h"
#include "runtime/kafka/client/broker_link.h"
#include "runtime/kafka/protocol/data_messages.h"
#include "runtime/kafka/protocol/record_batch.h"

namespace connectd::kafka {

namespace kp = protocol;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

namespace {

constexpr char kLogger[] = "connectd.kafka.BatchCopier";

// Kafka allows an idempotent producer five batches in flight per partition.
constexpr int kMaxInFlightPerPartition = 5;
constexpr int kMaxRequestsPerBroker = 5;
constexpr size_t kMaxProduceRequestBytes = 8 << 20;
// Free Fetch response buffers kept for the next responses (their pages stay mapped).
constexpr size_t kFetchBufferCacheBytes = 32 << 20;
// What a Fetch response holds besides its batches (headers, per-partition fields), at most.
constexpr size_t kFetchResponseOverhead = 64 << 10;
constexpr milliseconds kProgressInterval{1000};
constexpr milliseconds kRetryBackoff{250};
constexpr milliseconds kProduceRetryBackoff{100};
constexpr milliseconds kConnectTimeout{10000};
constexpr milliseconds kLoopWait{50};

using kp::Error;
// No broker answered: librdkafka's RD_KAFKA_RESP_ERR__TRANSPORT, as the record path reports it.
constexpr int32_t kUnreachable = -195;

// The producer id's sequences are broken (out of order, forgotten, fenced): only a new
// producer id goes on, from the acknowledged offsets.
bool IsSequenceError(int16_t code) {
  return code == Error::kOutOfOrderSequenceNumber || code == Error::kInvalidProducerEpoch ||
         code == Error::kUnknownProducerId || code == Error::kProducerFenced;
}

// "NOT_LEADER_OR_FOLLOWER (6)": what a person reads in a log line or a returned partition's
// reason.
std::string Named(int32_t code) {
  if (code == kUnreachable) return "no broker reachable (-195)";
  return kp::ErrorName(static_cast<int16_t>(code)) + " (" + std::to_string(code) + ")";
}

// The size of the batch that `bytes` (a batch cut off by a fetch size limit) starts, when its
// first 12 bytes (base offset, batch length) came.
std::optional<size_t> CutBatchSize(std::string_view bytes) {
  constexpr size_t kLengthEnd = 12;
  if (bytes.size() < kLengthEnd) return std::nullopt;
  uint32_t length = 0;
  for (size_t i = 8; i < kLengthEnd; ++i) length = (length << 8) | static_cast<uint8_t>(bytes[i]);
  return kLengthEnd + length;
}

using client::BrokerAddress;

std::string Get(const std::map<std::string, std::string>& p, const std::string& key) {
  auto it = p.find(key);
  return it == p.end() ? "" : it->second;
}

// How to reach one cluster, read from its properties by Create().
struct ClusterAccess {
  std::vector<BrokerAddress> bootstrap;
  kp::SecurityConfig security;
};

constexpr const char* kCodecNames[] = {"none", "gzip", "snappy", "lz4", "zstd"};

// The codec (a batch's attribute bits 0-2) the target producer's compression.type (or
// librdkafka's compression.codec) asks for; nullopt when the user set none of them.
std::optional<int> WantedCodec(const std::map<std::string, std::string>& target) {
  std::string name = Get(target, "compression.type");
  if (name.empty()) name = Get(target, "compression.codec");
  for (int codec = 0; codec < 5; ++codec) {
    if (name == kCodecNames[codec]) return codec;
  }
  return std::nullopt;
}

}  // namespace

// The copy's state and loop (the copier thread); connections' callbacks hand their results to
// it through `completions_`.
class BatchCopier::Loop {
 public:
  Loop(const BatchCopierOptions& options, ClusterAccess source, ClusterAccess target,
       std::atomic<int64_t>* acked, std::atomic<int64_t>* resets)
      : options_(options), acked_counter_(acked), resets_counter_(resets) {
    clusters_[kSource].name = "source";
    clusters_[kTarget].name = "target";
    for (int side : {kSource, kTarget}) {
      Cluster& c = clusters_[side];
      ClusterAccess& access = side == kSource ? source : target;
      c.bootstrap = std::move(access.bootstrap);
      c.links = side == kSource ? options.source_links : options.target_links;
      if (c.links) continue;
      std::string client_id = Get(side == kSource ? options.source : options.target, "client.id");
      c.links = client::MakeBrokerConnectionLinks(
          io_, {std::move(access.security), client_id.empty() ? "connectd-batch-copier" : client_id,
                options.request_timeout, side == kSource ? fetch_buffers_ : nullptr});
    }
    read_committed_ = Get(options.source, "isolation.level") == "read_committed";
    wanted_codec_ = WantedCodec(options.target);
  }

  void Add(std::vector<BatchCopyPartition> partitions) {
    absl::MutexLock lock(&mu_);
    for (auto& p : partitions) adds_.push_back(std::move(p));
  }
  std::vector<BatchCopyEvent> TakeEvents() {
    absl::MutexLock lock(&mu_);
    return std::exchange(events_, {});
  }
  void SetPaused(bool paused) {
    absl::MutexLock lock(&mu_);
    paused_ = paused;
  }
  void RequestStop(milliseconds timeout) {
    absl::MutexLock lock(&mu_);
    if (!stop_requested_) stop_deadline_ = Clock::now() + timeout;
    stop_requested_ = true;
  }
  void Run();

 private:
  static constexpr int kSource = 0;
  static constexpr int kTarget = 1;

  struct Node {
    std::shared_ptr<client::BrokerLink> connection;
    uint64_t connection_id = 0;  // distinct for every connection made to the node
    bool ready = false;
    Clock::time_point connecting_since;
    Clock::time_point not_before;  // after a failure or a throttle
    bool fetching = false;
    int produces = 0;
  };
  struct Cluster {
    std::string name;
    std::vector<BrokerAddress> bootstrap;
    size_t next_bootstrap = 0;
    client::BrokerLinkFactory links;
    std::map<int32_t, BrokerAddress> brokers;  // node id -> address (from Metadata)
    std::map<int32_t, Node> nodes;             // node id (negative: a bootstrap server)
    bool metadata_stale = true;
    bool metadata_in_flight = false;
    Clock::time_point metadata_not_before;
  };
  // A fetched batch: a view into the Fetch response it came in, which it keeps alive (the
  // response is freed once every batch of it was acknowledged or dropped). Stamped in place
  // before it is first sent; a retry sends the same bytes.
  struct Queued {
    std::shared_ptr<char[]> frame;
    std::span<char> batch;
    int64_t first = 0;
    int64_t last = 0;
    int32_t records = 0;
    int64_t max_timestamp = -1;
    int64_t bytes = 0;      // as produced (set when first sent)
    int32_t sequence = -1;  // stamped with it when first sent; a retry keeps it
    // The offset after this batch and the batches fetched after it that are not copied
    // (transaction markers, aborted transactions): the position once it is acknowledged.
    int64_t position_after = -1;
  };
  enum class State { kCopying, kReturning, kReturned };
  struct Partition {
    BatchCopyPartition spec;
    State state = State::kCopying;
    int32_t source_leader = -1;
    int32_t target_leader = -1;
    // KIP-320: the source leader's epoch (Metadata), sent with each fetch so that a deposed
    // leader, or one that does not know its epoch yet, refuses it; and the leader epoch of the
    // last batch fetched, by which the leader tells a log that lost what was fetched.
    int32_t source_leader_epoch = -1;
    int32_t last_fetched_epoch = -1;
    int64_t fetch_offset = 0;  // the next offset to fetch
    int64_t acked = 0;         // the next offset after the last acknowledged batch
    int64_t end_offset = -1;
    int32_t source_error = 0;  // the last fetch's (0 once one succeeds)
    int32_t target_error = 0;  // the last produce's (0 once one is acknowledged)
    int32_t sequence = 0;
    int32_t fetch_throttle_ms = 0;  // the longest since the last progress event
    bool fetching = false;
    // A produce of this partition failed: nothing more is sent until every request holding
    // its batches answered, then the unacknowledged ones are sent again, same sequences.
    bool failed = false;
    int in_flight = 0;  // produce requests holding a batch of it
    // The connection (Node::connection_id) the batches in `sent` went to. Only that
    // connection's answers come in the order the batches were sent, so nothing goes to another
    // one (a new leader) until every batch in flight was answered: a new leader that got a
    // later batch before the earlier ones reached it would refuse it out of order.
    uint64_t sent_on = 0;
    // A batch larger than the fetch size came cut off: the next fetch of the partition asks
    // for this many bytes and puts the partition first (where Kafka returns a whole batch
    // whatever the limits), instead of fetching the same cut-off bytes for ever.
    size_t next_batch_bytes = 0;
    bool established = false;  // the target acknowledged a batch of this producer id
    Clock::time_point retry_at;
    std::deque<Queued> queued;
    size_t queued_bytes = 0;
    std::deque<Queued> sent;  // in flight, oldest first (without their bytes)
    std::optional<Clock::time_point> missing_since[2];  // by cluster: the topic unknown there
    int32_t return_code = 0;
    std::string return_reason;
    // The position the kReturned event names when it is before `acked` (a truncated source).
    int64_t return_position = -1;
    int64_t copy_again_at = -1;
  };
  struct Completion {
    enum class Kind { kConnected, kMetadata, kInitProducerId, kFetch, kProduce } kind;
    int cluster = 0;
    int32_t node = 0;
    uint64_t generation = 0;
    std::vector<size_t> partitions;     // fetched or produced (kProduce: one batch each)
    std::vector<int64_t> batch_firsts;  // kProduce: the first offset of each partition's batch
    size_t reserved = 0;                // kFetch: of fetch_buffers_, for its response
    absl::Status status;
    // When status is OK: the response of `kind`.
    std::variant<std::monostate, kp::MetadataResponse, kp::InitProducerIdResponse,
                 client::FetchedData, kp::ProduceResponse>
        response;
    uint64_t connection = 0;  // the Node::connection_id of the connection that answered
  };
  // Whether `c` came from the node's current connection (not one already closed and replaced).
  bool IsCurrent(const Completion& c) const;
  // Fail() for a completion's connection, unless it was replaced already.
  void FailIfCurrent(const Completion& c, const absl::Status& status) {
    if (IsCurrent(c)) Fail(c.cluster, c.node, status);
  }

  void ApplyAdds();
  void Wait(Clock::time_point until);
  void Handle(Completion c);
  // The ready connection to `node`, or null (one is being made, or waits for its backoff).
  Node* Ready(int cluster, int32_t node);
  void Fail(int cluster, int32_t node, const absl::Status& status);
  // The link to `node` (ready), with `c` addressed to it, and a callback that hands the
  // response to the loop as `c`.
  template <typename T>
  std::pair<client::BrokerLink*, client::BrokerLink::Done<T>> Address(int cluster, int32_t node,
                                                                      Completion c);
  // A connected broker of the cluster, if any.
  std::optional<int32_t> AnyReadyNode(int cluster) const;
  void RequestMetadata(int cluster);
  void OnMetadata(int cluster, const kp::MetadataResponse& metadata);
  void RequestProducerId();
  void OnProducerId(const kp::InitProducerIdResponse& id);
  void SendFetches();
  // Drops the queued batches of partitions that cannot be sent now (see batch_copier.h,
  // Memory); they are fetched again.
  void DropStuckQueues();
  void OnFetch(Completion& c);
  void TakeBatches(
      Partition& p, const std::shared_ptr<char[]>& frame, std::string_view records,
      const std::optional<std::vector<kp::FetchResponse::AbortedTransaction>>& aborted);
  void SendProduces();
  void OnProduce(Completion& c);
  void Acked(size_t index, int64_t downstream_base);
  // Offsets before `offset` that are not copied (a transaction marker, an aborted transaction)
  // were passed: the position moves there once the batches fetched before them are
  // acknowledged (a topic that ends in a marker is not one record behind for ever).
  void SkippedUpTo(Partition& p, int64_t offset);
  // Partitions whose produce failed and whose requests all answered: their unacknowledged
  // batches go back to the head of the queue (same bytes, same sequences), or, for a
  // partition being returned, are dropped.
  void RequeueFailed();
  // Stops copying `index` once what is before `offset` is acknowledged.
  void Return(size_t index, int64_t offset, int32_t code, std::string reason,
              int64_t copy_again_at);
  // The source leader's log ends the last fetched epoch before what was fetched (an unclean
  // election lost records): the partition goes back to the record path at the log's end for
  // that epoch, naming the offsets that were copied and are no longer on the source.
  void Truncated(size_t index, const kp::FetchResponse::EpochEndOffset& diverging);
  void ReturnAll(int32_t code, const std::string& reason);
  // Sending stops until the requests in flight are answered, then Reset().
  void StartReset(const std::string& why);
  void Reset();
  void EmitReturns();
  void EmitProgress();
  // An event of partition `index` with its position and the source's end filled in.
  BatchCopyEvent EventOf(BatchCopyEvent::Kind kind, size_t index) const;
  void Emit(BatchCopyEvent event);
  // The partition copied from `topic`-`partition` of the source, or partitions_.size().
  size_t IndexOf(const std::string& topic, int32_t partition) const;

  const BatchCopierOptions options_;
  std::atomic<int64_t>* acked_counter_;
  std::atomic<int64_t>* resets_counter_;
  bool read_committed_ = false;
  std::optional<int> wanted_codec_;  // the target producer's compression.type, when set

  // Between the owner's thread, the links' answers and the loop (clang's -Wthread-safety
  // checks it: scripts/check-thread-safety).
  absl::Mutex mu_;
  std::vector<BatchCopyPartition> adds_ ABSL_GUARDED_BY(mu_);
  std::deque<Completion> completions_ ABSL_GUARDED_BY(mu_);
  std::vector<BatchCopyEvent> events_ ABSL_GUARDED_BY(mu_);
  bool stop_requested_ ABSL_GUARDED_BY(mu_) = false;
  bool paused_ ABSL_GUARDED_BY(mu_) = false;
  bool stop_noticed_ ABSL_GUARDED_BY(mu_) = false;  // the loop saw stop_requested_
  Clock::time_point stop_deadline_ ABSL_GUARDED_BY(mu_);

  // Copier thread only. io_ outlives the connections (declared first, destroyed last).
  boost::asio::io_context io_;
  const std::shared_ptr<kp::FrameBufferPool> fetch_buffers_ =
      options_.fetch_buffers != nullptr
          ? options_.fetch_buffers
          : std::make_shared<kp::FrameBufferPool>(kFetchBufferCacheBytes);
  size_t reserved_ = 0;        // of fetch_buffers_, for the fetches in flight
  bool memory_waits_ = false;  // the last SendFetches found no room for a fetch
  // The source leader whose fetch found no room: it asks first next time, so that the leaders
  // that come before it never take all the room (one copier's leaders take turns).
  std::optional<int32_t> memory_turn_;
  Cluster clusters_[2];
  std::vector<Partition> partitions_;
  std::map<std::pair<std::string, int32_t>, size_t> by_source_;  // the partition being copied
  uint64_t generation_ = 1;
  uint64_t connections_made_ = 0;
  int64_t producer_id_ = -1;
  int16_t producer_epoch_ = -1;
  bool producer_id_in_flight_ = false;
  Clock::time_point producer_id_not_before_;
  bool resetting_ = false;
  int produces_in_flight_ = 0;
  Clock::time_point next_progress_ = Clock::now() + kProgressInterval;
};

// ---- Loop ------------------------------------------------------------------------------------

void BatchCopier::Loop::Run() {
  auto work = boost::asio::make_work_guard(io_);
  std::thread io_thread([this] { io_.run(); });
  bool stopping = false;
  Clock::time_point deadline;
  while (true) {
    ApplyAdds();
    bool paused = false;
    {
      absl::MutexLock lock(&mu_);
      stopping = stop_noticed_ = stop_requested_;
      deadline = stop_deadline_;
      paused = paused_;
    }
    const Clock::time_point now = Clock::now();
    const bool active = std::any_of(partitions_.begin(), partitions_.end(),
                                    [](const Partition& p) { return p.state != State::kReturned; });
    if (stopping) {
      if (produces_in_flight_ == 0 || now >= deadline) break;
    } else if (active) {
      for (int cluster : {kSource, kTarget}) {
        Cluster& c = clusters_[cluster];
        if (c.metadata_stale && !c.metadata_in_flight && now >= c.metadata_not_before) {
          RequestMetadata(cluster);
        }
      }
      RequeueFailed();
      if (resetting_ && produces_in_flight_ == 0) Reset();
      if (producer_id_ < 0 && !producer_id_in_flight_ && now >= producer_id_not_before_) {
        RequestProducerId();
      }
      if (!resetting_) {
        if (!paused) SendFetches();
        if (memory_waits_) DropStuckQueues();
        if (producer_id_ >= 0) SendProduces();
      }
      EmitReturns();
      if (now >= next_progress_) {
        EmitProgress();
        next_progress_ = now + kProgressInterval;
      }
    }
    Wait(stopping ? std::min(deadline, Clock::now() + kLoopWait) : Clock::now() + kLoopWait);
  }
  for (Cluster& c : clusters_) {
    for (auto& [id, node] : c.nodes) {
      if (node.connection) node.connection->Close();
    }
  }
  work.reset();
  io_.stop();
  io_thread.join();
  for (Cluster& c : clusters_) c.nodes.clear();
  fetch_buffers_->Unreserve(std::exchange(reserved_, 0));  // fetches never answered
  fetch_buffers_->Forget(this);
}

void BatchCopier::Loop::ApplyAdds() {
  std::vector<BatchCopyPartition> adds;
  {
    absl::MutexLock lock(&mu_);
    adds.swap(adds_);
  }
  if (adds.empty()) return;
  for (BatchCopyPartition& spec : adds) {
    Partition p;
    p.fetch_offset = p.acked = spec.start_offset;
    p.spec = std::move(spec);
    auto [known, added] =
        by_source_.try_emplace({p.spec.source_topic, p.spec.partition}, partitions_.size());
    if (!added) {
      // Handed over again after a return: the target partition's sequence goes on.
      const Partition& earlier = partitions_[known->second];
      if (earlier.spec.target_topic == p.spec.target_topic) p.sequence = earlier.sequence;
      known->second = partitions_.size();
    }
    partitions_.push_back(std::move(p));
  }
  clusters_[kSource].metadata_stale = clusters_[kTarget].metadata_stale = true;
}

void BatchCopier::Loop::Wait(Clock::time_point until) {
  std::deque<Completion> ready;
  {
    absl::MutexLock lock(&mu_);
    auto has_work = [this]() ABSL_SHARED_LOCKS_REQUIRED(mu_) {
      return !completions_.empty() || !adds_.empty() || stop_requested_ != stop_noticed_;
    };
    mu_.AwaitWithTimeout(absl::Condition(&has_work),
                         absl::FromChrono(std::max(until - Clock::now(), Clock::duration::zero())));
    ready.swap(completions_);
  }
  for (Completion& c : ready) Handle(std::move(c));
}

void BatchCopier::Loop::Handle(Completion c) {
  Cluster& cluster = clusters_[c.cluster];
  switch (c.kind) {
    case Completion::Kind::kConnected: {
      if (!IsCurrent(c)) return;
      if (!c.status.ok()) return Fail(c.cluster, c.node, c.status);
      cluster.nodes[c.node].ready = true;
      return;
    }
    case Completion::Kind::kMetadata:
      cluster.metadata_in_flight = false;
      if (!c.status.ok()) {
        cluster.metadata_not_before = Clock::now() + kRetryBackoff;
        return FailIfCurrent(c, c.status);
      }
      return OnMetadata(c.cluster, std::get<kp::MetadataResponse>(c.response));
    case Completion::Kind::kInitProducerId:
      producer_id_in_flight_ = false;
      if (!c.status.ok()) {
        producer_id_not_before_ = Clock::now() + kRetryBackoff;
        return FailIfCurrent(c, c.status);
      }
      return OnProducerId(std::get<kp::InitProducerIdResponse>(c.response));
    case Completion::Kind::kFetch:
      return OnFetch(c);
    case Completion::Kind::kProduce:
      return OnProduce(c);
  }
}

bool BatchCopier::Loop::IsCurrent(const Completion& c) const {
  const auto& nodes = clusters_[c.cluster].nodes;
  auto it = nodes.find(c.node);
  return it != nodes.end() && it->second.connection != nullptr &&
         it->second.connection_id == c.connection;
}

BatchCopier::Loop::Node* BatchCopier::Loop::Ready(int cluster_index, int32_t node_id) {
  Cluster& cluster = clusters_[cluster_index];
  auto [it, created] = cluster.nodes.try_emplace(node_id);
  Node& node = it->second;
  const Clock::time_point now = Clock::now();
  if (node.ready) return &node;
  if (node.connection) {
    if (now - node.connecting_since > kConnectTimeout) {
      Fail(cluster_index, node_id,
           absl::DeadlineExceededError("no connection within " +
                                       std::to_string(kConnectTimeout.count()) + " ms"));
    }
    return nullptr;
  }
  if (now < node.not_before) return nullptr;
  client::LinkSpec spec{cluster.name, node_id, {}};
  if (node_id >= 0) {
    auto broker = cluster.brokers.find(node_id);
    if (broker == cluster.brokers.end()) return nullptr;
    spec.address = broker->second;
  } else {
    if (cluster.bootstrap.empty()) return nullptr;
    spec.address = cluster.bootstrap[static_cast<size_t>(-node_id - 1) % cluster.bootstrap.size()];
  }
  node.connection = cluster.links(spec);
  node.connecting_since = now;
  node.connection_id = ++connections_made_;
  const uint64_t connection = node.connection_id;
  node.connection->Connect([this, cluster_index, node_id, connection](absl::Status status) {
    Completion c{Completion::Kind::kConnected, cluster_index, node_id};
    c.status = std::move(status);
    c.connection = connection;
    absl::MutexLock lock(&mu_);
    completions_.push_back(std::move(c));
  });
  return nullptr;
}

void BatchCopier::Loop::Fail(int cluster_index, int32_t node_id, const absl::Status& status) {
  Cluster& cluster = clusters_[cluster_index];
  auto it = cluster.nodes.find(node_id);
  if (it != cluster.nodes.end() && it->second.connection) {
    CONNECTD_LOG(kDebug, kLogger) << "Connection to " << cluster.name << " broker " << node_id
                                  << " failed: " << status.message();
    it->second.connection->Close();
    it->second.connection.reset();
    it->second.ready = false;
    it->second.not_before = Clock::now() + kRetryBackoff;
  }
  cluster.metadata_stale = true;
  if (node_id < 0) ++cluster.next_bootstrap;
  if (absl::IsUnauthenticated(status) || absl::IsPermissionDenied(status)) {
    ReturnAll(-1, "the " + cluster.name + " cluster refused the batch copier's connection: " +
                      std::string(status.message()));
    return;
  }
  for (Partition& p : partitions_) {
    if (cluster_index == kSource && p.source_leader == node_id) p.source_error = kUnreachable;
    if (cluster_index == kTarget && p.target_leader == node_id) p.target_error = kUnreachable;
  }
}

template <typename T>
std::pair<client::BrokerLink*, client::BrokerLink::Done<T>> BatchCopier::Loop::Address(
    int cluster_index, int32_t node_id, Completion c) {
  Node& node = clusters_[cluster_index].nodes[node_id];
  c.cluster = cluster_index;
  c.node = node_id;
  c.connection = node.connection_id;
  return {node.connection.get(), [this, c = std::move(c)](absl::StatusOr<T> response) mutable {
            if (response.ok()) {
              c.response = *std::move(response);
            } else {
              c.status = response.status();
            }
            absl::MutexLock lock(&mu_);
            completions_.push_back(std::move(c));
          }};
}

// ---- Metadata and the producer id ------------------------------------------------------------

std::optional<int32_t> BatchCopier::Loop::AnyReadyNode(int cluster_index) const {
  for (const auto& [id, node] : clusters_[cluster_index].nodes) {
    if (node.ready) return id;
  }
  return std::nullopt;
}

void BatchCopier::Loop::RequestMetadata(int cluster_index) {
  Cluster& cluster = clusters_[cluster_index];
  // Any ready broker answers; else a bootstrap server is dialled.
  const std::optional<int32_t> via = AnyReadyNode(cluster_index);
  if (!via) {
    Ready(cluster_index, -1 - static_cast<int32_t>(cluster.next_bootstrap %
                                                   std::max<size_t>(1, cluster.bootstrap.size())));
    return;
  }
  std::set<std::string> topics;
  for (const Partition& p : partitions_) {
    if (p.state == State::kReturned) continue;
    topics.insert(cluster_index == kSource ? p.spec.source_topic : p.spec.target_topic);
  }
  kp::MetadataRequest request{{topics.begin(), topics.end()}};
  cluster.metadata_in_flight = true;
  auto [link, done] =
      Address<kp::MetadataResponse>(cluster_index, *via, Completion{Completion::Kind::kMetadata});
  link->Metadata(request, std::move(done));
}

void BatchCopier::Loop::OnMetadata(int cluster_index, const kp::MetadataResponse& metadata) {
  Cluster& cluster = clusters_[cluster_index];
  cluster.metadata_not_before = Clock::now() + kRetryBackoff;
  for (const auto& broker : metadata.brokers) {
    BrokerAddress address{broker.host, static_cast<uint16_t>(broker.port)};
    auto known = cluster.brokers.find(broker.node_id);
    if (known != cluster.brokers.end() && known->second != address) {
      Fail(cluster_index, broker.node_id, absl::UnavailableError("the broker moved"));
    }
    cluster.brokers[broker.node_id] = address;
  }
  std::map<std::pair<std::string, int32_t>, const kp::MetadataResponse::Partition*> leaders;
  std::map<std::string, int16_t> topic_errors;
  for (const auto& topic : metadata.topics) {
    if (topic.error_code != 0) topic_errors[topic.name] = topic.error_code;
    for (const auto& partition : topic.partitions) {
      leaders[{topic.name, partition.partition}] = &partition;
    }
  }
  bool complete = true;
  const Clock::time_point now = Clock::now();
  for (size_t i = 0; i < partitions_.size(); ++i) {
    Partition& p = partitions_[i];
    if (p.state == State::kReturned) continue;
    const std::string& topic = cluster_index == kSource ? p.spec.source_topic : p.spec.target_topic;
    int32_t& leader = cluster_index == kSource ? p.source_leader : p.target_leader;
    auto found = leaders.find({topic, p.spec.partition});
    int16_t code = Code(Error::kUnknownTopicOrPartition);
    if (auto error = topic_errors.find(topic); error != topic_errors.end()) code = error->second;
    if (found != leaders.end() && found->second->leader_id >= 0) {
      leader = found->second->leader_id;
      if (cluster_index == kSource) p.source_leader_epoch = found->second->leader_epoch;
      p.missing_since[cluster_index].reset();
      continue;
    }
    if (found != leaders.end()) code = Code(Error::kLeaderNotAvailable);
    leader = -1;
    (cluster_index == kSource ? p.source_error : p.target_error) = code;
    complete = false;
    if (code == Error::kUnknownTopicOrPartition) {
      // A target topic not made yet, or a source topic deleted: the record path's turn (it
      // waits for the remote topic, or ends the partition as the connector's topic refresh
      // says), not a retry for ever.
      std::optional<Clock::time_point>& since = p.missing_since[cluster_index];
      if (!since) since = now;
      if (now - *since >= options_.missing_topic_timeout) {
        Return(i, p.acked, code,
               "the " + cluster.name + " has no partition " + std::to_string(p.spec.partition) +
                   " of " + topic,
               -1);
      }
    }
  }
  cluster.metadata_stale = !complete;
}

void BatchCopier::Loop::RequestProducerId() {
  const std::optional<int32_t> via = AnyReadyNode(kTarget);
  if (!via) {
    clusters_[kTarget].metadata_stale = true;  // dials a broker
    return;
  }
  producer_id_in_flight_ = true;
  auto [link, done] = Address<kp::InitProducerIdResponse>(
      kTarget, *via, Completion{Completion::Kind::kInitProducerId});
  link->InitProducerId(kp::InitProducerIdRequest{}, std::move(done));
}

void BatchCopier::Loop::OnProducerId(const kp::InitProducerIdResponse& id) {
  producer_id_not_before_ = Clock::now() + kRetryBackoff;
  if (id.error_code == Error::kClusterAuthorizationFailed) {
    ReturnAll(id.error_code, "the target refuses the batch copier an idempotent producer id: " +
                                 Named(id.error_code));
    return;
  }
  if (id.error_code != 0) return;  // the coordinator is loading or moving: asked again
  producer_id_ = id.producer_id;
  producer_epoch_ = id.producer_epoch;
}

// ---- Fetch -----------------------------------------------------------------------------------

void BatchCopier::Loop::SendFetches() {
  std::map<int32_t, std::vector<size_t>> by_leader;
  for (size_t i = 0; i < partitions_.size(); ++i) {
    Partition& p = partitions_[i];
    if (p.state != State::kCopying || p.fetching || p.source_leader < 0) continue;
    if (p.queued_bytes >= options_.max_queued_bytes_per_partition) continue;
    by_leader[p.source_leader].push_back(i);
  }
  const Clock::time_point now = Clock::now();
  memory_waits_ = false;
  std::vector<std::pair<const int32_t, std::vector<size_t>>*> order;
  for (auto& entry : by_leader) order.push_back(&entry);
  if (memory_turn_) {
    std::rotate(order.begin(),
                std::find_if(order.begin(), order.end(),
                             [this](auto* entry) { return entry->first == *memory_turn_; }),
                order.end());
  }
  for (auto* entry : order) {
    const int32_t leader = entry->first;
    std::vector<size_t>& indexes = entry->second;
    Node* node = Ready(kSource, leader);
    if (node == nullptr || node->fetching || now < node->not_before) continue;
    // The most the response may take, within the pool's bound: never less than one partition's
    // share (Kafka may still return a first batch larger than that: KIP-74).
    // Each partition returns at most its fetch size (KIP-74 aside), so the request needs no
    // more than their sum.
    size_t most = kFetchResponseOverhead;
    for (size_t i : indexes) {
      most += std::max<size_t>(static_cast<size_t>(options_.partition_fetch_bytes),
                               partitions_[i].next_batch_bytes);
    }
    const size_t reserved = fetch_buffers_->Reserve(
        this,
        std::min(most, static_cast<size_t>(options_.fetch_max_bytes) + kFetchResponseOverhead),
        static_cast<size_t>(options_.partition_fetch_bytes) + kFetchResponseOverhead);
    if (reserved == 0) {
      memory_waits_ = true;
      memory_turn_ = leader;
      break;  // no leader after it takes its turn
    }
    if (memory_turn_ == leader) memory_turn_.reset();
    reserved_ += reserved;
    // A partition whose next batch came cut off goes first: Kafka returns the first batch of
    // the first partition whole, whatever the size limits (KIP-74).
    std::stable_partition(indexes.begin(), indexes.end(),
                          [this](size_t i) { return partitions_[i].next_batch_bytes > 0; });
    kp::FetchRequest request;
    request.max_wait_ms = options_.fetch_max_wait_ms;
    request.min_bytes = options_.fetch_min_bytes;
    request.max_bytes = static_cast<int32_t>(
        std::min<size_t>(static_cast<size_t>(options_.fetch_max_bytes),
                         reserved - std::min(reserved, kFetchResponseOverhead)));
    request.isolation_level = read_committed_ ? 1 : 0;
    std::map<std::string, size_t> topic_slots;
    for (size_t i : indexes) {
      Partition& p = partitions_[i];
      auto [slot, added] = topic_slots.try_emplace(p.spec.source_topic, request.topics.size());
      if (added) request.topics.push_back({p.spec.source_topic, {}});
      const auto fetch_bytes = static_cast<int32_t>(std::max<size_t>(
          static_cast<size_t>(options_.partition_fetch_bytes), p.next_batch_bytes));
      request.topics[slot->second].partitions.push_back({p.spec.partition, p.source_leader_epoch,
                                                         p.fetch_offset, fetch_bytes,
                                                         p.last_fetched_epoch});
      p.fetching = true;
    }
    node->fetching = true;
    Completion c{Completion::Kind::kFetch};
    c.generation = generation_;
    c.partitions = indexes;
    c.reserved = reserved;
    auto [link, done] = Address<client::FetchedData>(kSource, leader, std::move(c));
    link->Fetch(request, std::move(done));
  }
}

void BatchCopier::Loop::DropStuckQueues() {
  for (Partition& p : partitions_) {
    if (p.state != State::kCopying || p.queued.empty()) continue;
    const bool stuck = p.target_leader < 0 || p.failed || p.target_error != 0;
    if (!stuck) continue;
    // Batches sent before keep their sequences: only those never sent go (from the back).
    while (!p.queued.empty() && p.queued.back().sequence < 0) {
      p.fetch_offset = p.queued.back().first;
      p.queued_bytes -= p.queued.back().batch.size();
      p.queued.pop_back();
    }
  }
}

void BatchCopier::Loop::OnFetch(Completion& c) {
  // The response's buffer (its FetchedData's frame) is held by now: the reservation made for it
  // goes.
  fetch_buffers_->Unreserve(c.reserved);
  reserved_ -= c.reserved;
  Cluster& cluster = clusters_[kSource];
  if (auto node = cluster.nodes.find(c.node); node != cluster.nodes.end()) {
    node->second.fetching = false;
  }
  for (size_t i : c.partitions) partitions_[i].fetching = false;
  if (!c.status.ok()) return FailIfCurrent(c, c.status);
  if (c.generation != generation_ || resetting_) return;  // refetched from the acked offsets
  client::FetchedData& fetched_data = std::get<client::FetchedData>(c.response);
  const kp::FetchResponse& response = fetched_data.response;
  if (response.throttle_time_ms > 0) {
    cluster.nodes[c.node].not_before = Clock::now() + milliseconds(response.throttle_time_ms);
    for (size_t i : c.partitions) {
      partitions_[i].fetch_throttle_ms =
          std::max(partitions_[i].fetch_throttle_ms, response.throttle_time_ms);
    }
  }
  for (const auto& topic : response.topics) {
    for (const auto& fetched : topic.partitions) {
      const size_t index = IndexOf(topic.name, fetched.partition);
      if (index >= partitions_.size()) continue;
      Partition& p = partitions_[index];
      if (p.state != State::kCopying) continue;
      const int16_t code = fetched.error_code != 0 ? fetched.error_code : response.error_code;
      if (code == Error::kOffsetOutOfRange) {
        Return(index, p.fetch_offset, code,
               "offset " + std::to_string(p.fetch_offset) + " is out of range on the source", -1);
        continue;
      }
      if (kp::IsRetriable(code)) {  // fetched again (from the new leader)
        p.source_error = code;
        if (kp::InvalidatesMetadata(code)) cluster.metadata_stale = true;
        continue;
      }
      if (code != 0) {
        Return(index, p.fetch_offset, code, "the source answered a fetch with " + Named(code), -1);
        continue;
      }
      if (fetched.diverging_epoch) {
        Truncated(index, *fetched.diverging_epoch);
        continue;
      }
      p.source_error = 0;
      p.end_offset = read_committed_ ? fetched.last_stable_offset : fetched.high_watermark;
      if (fetched.records && !fetched.records->empty()) {
        TakeBatches(p, fetched_data.frame, *fetched.records, fetched.aborted_transactions);
      }
    }
  }
}

void BatchCopier::Loop::TakeBatches(
    Partition& p, const std::shared_ptr<char[]>& frame, std::string_view records,
    const std::optional<std::vector<kp::FetchResponse::AbortedTransaction>>& aborted) {
  const size_t index = static_cast<size_t>(&p - partitions_.data());
  // The CRCs are left to the target broker, which checks every batch produced to it:
  // StampForProduce keeps a wrong one wrong, and a batch refused as corrupt is returned.
  absl::StatusOr<kp::SplitBatches> split =
      kp::SplitRecordBatches(records, kp::CrcCheck::kLeaveToTheTarget);
  if (!split.ok()) {
    Return(
        index, p.fetch_offset, 0,
        "the source's batches cannot be copied as bytes: " + std::string(split.status().message()),
        -1);
    return;
  }
  std::vector<kp::ReadCommittedFilter::Aborted> list;
  if (aborted) {
    for (const auto& a : *aborted) list.push_back({a.producer_id, a.first_offset});
  }
  kp::ReadCommittedFilter filter(std::move(list));
  if (split->batches.empty() && split->partial_bytes > 0) {
    const std::optional<size_t> size = CutBatchSize(records);
    p.next_batch_bytes = size ? *size : std::max<size_t>(p.next_batch_bytes, records.size()) * 2;
    CONNECTD_LOG(kDebug, kLogger) << p.spec.source_topic << "-" << p.spec.partition
                                  << ": the batch at offset " << p.fetch_offset << " came cut off ("
                                  << records.size() << " bytes); fetched again for "
                                  << p.next_batch_bytes << " bytes";
    return;
  }
  if (!split->batches.empty()) p.next_batch_bytes = 0;
  for (std::string_view batch : split->batches) {
    absl::StatusOr<kp::RecordBatchHeader> h = kp::ParseRecordBatchHeader(batch);
    if (!h.ok()) {
      Return(index, p.fetch_offset, 0, std::string(h.status().message()), -1);
      return;
    }
    if (h->last_offset() < p.fetch_offset) continue;  // copied already
    p.last_fetched_epoch = h->partition_leader_epoch;
    if (!filter.Copy(*h, batch)) {  // a marker or an aborted transaction
      p.fetch_offset = h->last_offset() + 1;
      SkippedUpTo(p, p.fetch_offset);
      continue;
    }
    if (h->base_offset < p.fetch_offset) {
      Return(index, p.fetch_offset, 0,
             "offset " + std::to_string(p.fetch_offset) + " is inside a source batch (" +
                 std::to_string(h->base_offset) + ".." + std::to_string(h->last_offset()) + ")",
             h->last_offset() + 1);
      return;
    }
    if (std::optional<std::string> why = kp::PassThroughObstacle(*h)) {
      Return(index, h->base_offset, 0, *why, h->log_append_time() ? -1 : h->last_offset() + 1);
      return;
    }
    if (wanted_codec_ && h->compression() != *wanted_codec_ && h->compression() < 5) {
      // The user's compression.type is honoured (cross-region bandwidth): the record path's
      // producer compresses with it, for the rest of this copy.
      Return(index, h->base_offset, 0,
             std::string("the producer's compression.type is ") + kCodecNames[*wanted_codec_] +
                 " and the source's batches are " + kCodecNames[h->compression()] +
                 ": copied record by record, compressed by the producer",
             -1);
      return;
    }
    // The batch's bytes, writable: the frame is this copier's alone.
    char* bytes = frame.get() + (batch.data() - frame.get());
    p.queued.push_back({frame, std::span<char>(bytes, batch.size()), h->base_offset,
                        h->last_offset(), h->record_count, h->max_timestamp});
    p.queued_bytes += batch.size();
    p.fetch_offset = h->last_offset() + 1;
  }
}

// ---- Produce ---------------------------------------------------------------------------------

void BatchCopier::Loop::SendProduces() {
  const Clock::time_point now = Clock::now();
  // A partition the target has not acknowledged a batch of (for this producer id) has one in
  // flight at most: a broker without state for the producer accepts any first sequence, so a
  // second batch could land while the first was refused (and be written twice, out of order).
  auto sendable = [&](const Partition& p) {
    return !p.queued.empty() && p.target_leader >= 0 && !p.failed && now >= p.retry_at &&
           p.sent.size() < kMaxInFlightPerPartition && (p.established || p.sent.empty());
  };
  std::map<int32_t, std::vector<size_t>> by_leader;
  for (size_t i = 0; i < partitions_.size(); ++i) {
    if (sendable(partitions_[i])) by_leader[partitions_[i].target_leader].push_back(i);
  }
  for (auto& [leader, indexes] : by_leader) {
    Node* node = Ready(kTarget, leader);
    while (node != nullptr && node->produces < kMaxRequestsPerBroker && now >= node->not_before) {
      kp::ProduceRequest request;
      request.acks = -1;
      request.timeout_ms = static_cast<int32_t>(options_.request_timeout.count());
      Completion c{Completion::Kind::kProduce};
      c.generation = generation_;
      size_t bytes = 0;
      std::map<std::string, size_t> topic_slots;
      for (size_t i : indexes) {
        Partition& p = partitions_[i];
        if (!sendable(p)) continue;
        // Batches in flight on an earlier leader's connection are answered first (sent_on).
        if (!p.sent.empty() && p.sent_on != node->connection_id) continue;
        if (bytes > 0 && bytes + p.queued.front().batch.size() > kMaxProduceRequestBytes) break;
        Queued q = std::move(p.queued.front());
        p.queued.pop_front();
        p.queued_bytes -= q.batch.size();
        if (q.sequence < 0) {
          q.sequence = p.sequence;
          kp::StampForProduce(q.batch, {producer_id_, producer_epoch_, p.sequence, false});
          p.sequence = static_cast<int32_t>((static_cast<int64_t>(p.sequence) + q.records) %
                                            (int64_t{1} << 31));
          q.bytes = static_cast<int64_t>(q.batch.size());
        }
        bytes += q.batch.size();
        auto [slot, added] = topic_slots.try_emplace(p.spec.target_topic, request.topics.size());
        if (added) request.topics.push_back({p.spec.target_topic, {}});
        // A view: a retry sends the same bytes again.
        request.topics[slot->second].partitions.push_back(
            {p.spec.partition, std::string_view(q.batch.data(), q.batch.size()), q.frame});
        c.batch_firsts.push_back(q.first);
        p.sent.push_back(std::move(q));
        p.sent_on = node->connection_id;
        ++p.in_flight;
        c.partitions.push_back(i);
      }
      if (c.partitions.empty()) break;
      ++node->produces;
      ++produces_in_flight_;
      auto [link, done] = Address<kp::ProduceResponse>(kTarget, leader, std::move(c));
      link->Produce(request, std::move(done));
    }
  }
}

void BatchCopier::Loop::OnProduce(Completion& c) {
  --produces_in_flight_;
  Cluster& cluster = clusters_[kTarget];
  if (auto node = cluster.nodes.find(c.node); node != cluster.nodes.end()) {
    --node->second.produces;
  }
  if (c.generation != generation_) return;
  for (size_t index : c.partitions) --partitions_[index].in_flight;
  if (!c.status.ok()) {
    // Written or not, nobody knows: sent again with the same sequences, the target keeps one.
    FailIfCurrent(c, c.status);
    for (size_t index : c.partitions) {
      partitions_[index].failed = true;
      partitions_[index].target_error = kUnreachable;
    }
    return;
  }
  const kp::ProduceResponse& response = std::get<kp::ProduceResponse>(c.response);
  if (response.throttle_time_ms > 0) {
    cluster.nodes[c.node].not_before = Clock::now() + milliseconds(response.throttle_time_ms);
    if (options_.on_produce_throttle) options_.on_produce_throttle(response.throttle_time_ms);
  }
  std::map<std::pair<std::string, int32_t>, const kp::ProduceResponse::Partition*> answers;
  for (const auto& topic : response.topics) {
    for (const auto& partition : topic.partitions) {
      answers[{topic.name, partition.partition}] = &partition;
    }
  }
  for (size_t k = 0; k < c.partitions.size(); ++k) {
    const size_t index = c.partitions[k];
    Partition& p = partitions_[index];
    auto answer = answers.find({p.spec.target_topic, p.spec.partition});
    if (answer == answers.end()) {
      p.failed = true;  // sent again
      continue;
    }
    const kp::ProduceResponse::Partition& a = *answer->second;
    if (p.failed) continue;  // after a failed batch, later ones of the partition fail too
    if (p.sent.empty() || p.sent.front().first != c.batch_firsts[k]) {
      // Never expected (one connection answers in order, sent_on): an answer that is not the
      // oldest batch's is not trusted with an offset pair; what is in flight is sent again.
      CONNECTD_LOG(kWarn, kLogger)
          << "An answer for " << p.spec.target_topic << "-" << p.spec.partition << " batch at "
          << c.batch_firsts[k] << " came out of order; sending the partition's batches again";
      p.failed = true;
      continue;
    }
    if (a.error_code == Error::kNone || a.error_code == Error::kDuplicateSequenceNumber) {
      Acked(index, a.error_code == Error::kNone ? a.base_offset : -1);
      continue;
    }
    p.failed = true;
    p.target_error = a.error_code;
    if (kp::InvalidatesMetadata(a.error_code)) cluster.metadata_stale = true;
    if (IsSequenceError(a.error_code)) {
      StartReset("the target answered " + Named(a.error_code) + " for " + p.spec.target_topic +
                 "-" + std::to_string(p.spec.partition));
      continue;
    }
    // Sent again, same sequences (the target keeps one copy of each): a new leader, replicas
    // back in sync, a timeout. A corrupt batch is the source's, never retried (below).
    if (kp::IsRetriable(a.error_code) && a.error_code != Error::kCorruptMessage) continue;
    std::string why = "the target refused a batch of " + p.spec.target_topic + "-" +
                      std::to_string(p.spec.partition) + " with " + Named(a.error_code);
    if (a.error_message) why += ": " + *a.error_message;
    if (a.error_code == Error::kCorruptMessage && !p.sent.empty()) {
      // The source's CRC was wrong (StampForProduce keeps it so): the record path reads that
      // batch (and its consumer says what is wrong with it); batches after it come back.
      Return(index, p.acked, a.error_code, why + " (the source batch fails its CRC)",
             p.sent.front().last + 1);
      continue;
    }
    Return(index, p.acked, a.error_code, why, -1);
  }
}

void BatchCopier::Loop::RequeueFailed() {
  const Clock::time_point now = Clock::now();
  for (Partition& p : partitions_) {
    if (!p.failed || p.in_flight > 0) continue;
    p.failed = false;
    if (p.state != State::kCopying) {  // returned: what was not acknowledged stays unsent
      p.sent.clear();
      p.queued.clear();
      p.queued_bytes = 0;
      continue;
    }
    while (!p.sent.empty()) {
      p.queued_bytes += p.sent.back().batch.size();
      p.queued.push_front(std::move(p.sent.back()));
      p.sent.pop_back();
    }
    p.retry_at = now + kProduceRetryBackoff;
  }
}

void BatchCopier::Loop::Acked(size_t index, int64_t downstream_base) {
  Partition& p = partitions_[index];
  if (p.sent.empty()) return;
  Queued q = std::move(p.sent.front());
  p.sent.pop_front();
  p.established = true;
  p.acked = std::max(q.last + 1, q.position_after);
  p.target_error = 0;
  BatchCopyEvent event = EventOf(BatchCopyEvent::Kind::kAcked, index);
  event.upstream_first = q.first;
  event.upstream_last = q.last;
  event.record_count = q.records;
  event.downstream_base = downstream_base;
  event.batch_bytes = q.bytes;
  event.max_timestamp_ms = q.max_timestamp;
  acked_counter_->fetch_add(1);
  Emit(std::move(event));
}

// ---- Returns, resets, progress ---------------------------------------------------------------

void BatchCopier::Loop::SkippedUpTo(Partition& p, int64_t offset) {
  if (!p.queued.empty()) {
    p.queued.back().position_after = offset;
  } else if (!p.sent.empty()) {
    p.sent.back().position_after = offset;
  } else {
    p.acked = std::max(p.acked, offset);  // nothing before it waits for an acknowledgement
  }
}

void BatchCopier::Loop::Return(size_t index, int64_t offset, int32_t code, std::string reason,
                               int64_t copy_again_at) {
  Partition& p = partitions_[index];
  if (p.state != State::kCopying) return;
  CONNECTD_LOG(kInfo, kLogger) << "Copying " << p.spec.source_topic << "-" << p.spec.partition
                               << " as record batches stops at offset " << offset << ": " << reason;
  p.state = State::kReturning;
  p.return_code = code;
  p.return_reason = std::move(reason);
  p.copy_again_at = copy_again_at;
  // What was fetched from `offset` on stays with the record path.
  while (!p.queued.empty() && p.queued.back().first >= offset) {
    p.queued_bytes -= p.queued.back().batch.size();
    p.queued.pop_back();
  }
  p.fetch_offset = offset;
}

void BatchCopier::Loop::Truncated(size_t index,
                                  const kp::FetchResponse::EpochEndOffset& diverging) {
  Partition& p = partitions_[index];
  if (p.state != State::kCopying) return;
  const int64_t at = std::min(diverging.end_offset, p.fetch_offset);
  const int64_t copied_end = std::max(p.acked, p.fetch_offset);
  Return(index, at, 0,
         "the source truncated " + p.spec.source_topic + "-" + std::to_string(p.spec.partition) +
             " at offset " + std::to_string(at) + " (its leader's log ends leader epoch " +
             std::to_string(diverging.epoch) + " there; fetched up to leader epoch " +
             std::to_string(p.last_fetched_epoch) + "): offsets [" + std::to_string(at) + ", " +
             std::to_string(copied_end) +
             ") were fetched before and are not on the source any more (an unclean leader "
             "election); what the target holds of them stays, the source's new records from " +
             std::to_string(at) + " follow",
         at + 1);
  p.return_position = at;
}

void BatchCopier::Loop::ReturnAll(int32_t code, const std::string& reason) {
  for (size_t i = 0; i < partitions_.size(); ++i) {
    Return(i, partitions_[i].acked, code, reason, -1);
    partitions_[i].queued.clear();
    partitions_[i].queued_bytes = 0;
  }
}

void BatchCopier::Loop::StartReset(const std::string& why) {
  if (resetting_) return;
  CONNECTD_LOG(kInfo, kLogger) << "Batch copy starts over from the acknowledged offsets with a "
                                  "new producer id: "
                               << why;
  resetting_ = true;
}

void BatchCopier::Loop::Reset() {
  resetting_ = false;
  ++generation_;
  resets_counter_->fetch_add(1);
  producer_id_ = -1;
  producer_epoch_ = -1;
  for (Partition& p : partitions_) {
    p.queued.clear();
    p.queued_bytes = 0;
    p.sent.clear();
    p.sequence = 0;
    p.failed = false;
    p.in_flight = 0;
    p.established = false;
    p.fetch_offset = p.acked;
  }
}

void BatchCopier::Loop::EmitReturns() {
  for (size_t i = 0; i < partitions_.size(); ++i) {
    Partition& p = partitions_[i];
    // After what is before the return was acknowledged, and never in a reset (Reset() may
    // rewind nothing, but the requests it waits for may still acknowledge batches).
    if (p.state != State::kReturning || resetting_ || !p.sent.empty() || !p.queued.empty()) {
      continue;
    }
    p.state = State::kReturned;
    BatchCopyEvent event = EventOf(BatchCopyEvent::Kind::kReturned, i);
    if (p.return_position >= 0 && p.return_position < event.position) {
      event.truncated_offsets = event.position - p.return_position;
      event.position = p.return_position;
    }
    event.error_code = p.return_code;
    event.reason = p.return_reason;
    event.copy_again_at = p.copy_again_at;
    Emit(std::move(event));
  }
}

void BatchCopier::Loop::EmitProgress() {
  for (size_t i = 0; i < partitions_.size(); ++i) {
    Partition& p = partitions_[i];
    if (p.state == State::kReturned) continue;
    BatchCopyEvent event = EventOf(BatchCopyEvent::Kind::kProgress, i);
    event.fetch_throttle_ms = std::exchange(p.fetch_throttle_ms, 0);
    event.error_code = p.source_error != 0 ? p.source_error : p.target_error;
    event.source_error_code = p.source_error;
    event.target_error_code = p.target_error;
    Emit(std::move(event));
  }
}

BatchCopyEvent BatchCopier::Loop::EventOf(BatchCopyEvent::Kind kind, size_t index) const {
  BatchCopyEvent event;
  event.kind = kind;
  event.index = index;
  event.position = partitions_[index].acked;
  event.source_end_offset = partitions_[index].end_offset;
  return event;
}

void BatchCopier::Loop::Emit(BatchCopyEvent event) {
  absl::MutexLock lock(&mu_);
  events_.push_back(std::move(event));
}

size_t BatchCopier::Loop::IndexOf(const std::string& topic, int32_t partition) const {
  auto it = by_source_.find({topic, partition});
  return it == by_source_.end() ? partitions_.size() : it->second;
}

// ---- BatchCopier -----------------------------------------------------------------------------

namespace {

// The source client's fetch settings, where set, over the copier's own.
absl::Status TakeSourceFetchSettings(BatchCopierOptions& options) {
  const std::pair<const char*, int32_t*> settings[] = {
      {"fetch.wait.max.ms", &options.fetch_max_wait_ms},
      {"fetch.min.bytes", &options.fetch_min_bytes},
      {"fetch.max.bytes", &options.fetch_max_bytes},
      {"fetch.message.max.bytes", &options.partition_fetch_bytes},
      {"max.partition.fetch.bytes", &options.partition_fetch_bytes}};
  for (const auto& [key, field] : settings) {
    auto it = options.source.find(key);
    if (it == options.source.end()) continue;
    int32_t value = 0;
    if (!absl::SimpleAtoi(it->second, &value) || value <= 0) {
      return absl::InvalidArgumentError(std::string("the source client's ") + key + "=" +
                                        it->second + " is not a positive number");
    }
    *field = value;
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::unique_ptr<BatchCopier>> BatchCopier::Create(BatchCopierOptions options) {
  if (absl::Status fetch = TakeSourceFetchSettings(options); !fetch.ok()) return fetch;
  ClusterAccess access[2];
  for (const auto* side : {&options.source, &options.target}) {
    const std::string name = side == &options.source ? "source" : "target";
    ClusterAccess& cluster = access[side == &options.source ? 0 : 1];
    absl::StatusOr<std::vector<BrokerAddress>> bootstrap =
        client::ParseBootstrapServers(Get(*side, "bootstrap.servers"));
    if (!bootstrap.ok()) {
      return absl::InvalidArgumentError("the " + name +
                                        " cluster: " + std::string(bootstrap.status().message()));
    }
    absl::StatusOr<kp::SecurityConfig> security = kp::SecurityConfig::FromProperties(*side);
    if (!security.ok()) {
      return absl::InvalidArgumentError(name + ": " + std::string(security.status().message()));
    }
    cluster = {*std::move(bootstrap), *std::move(security)};
  }
  std::unique_ptr<BatchCopier> copier(new BatchCopier(std::move(options)));
  copier->loop_ =
      std::make_unique<Loop>(copier->options_, std::move(access[0]), std::move(access[1]),
                             &copier->batches_acked_, &copier->producer_resets_);
  return copier;
}

BatchCopier::BatchCopier(BatchCopierOptions options) : options_(std::move(options)) {}

BatchCopier::~BatchCopier() { Stop(milliseconds(0)); }

void BatchCopier::Add(std::vector<BatchCopyPartition> partitions) {
  loop_->Add(std::move(partitions));
  if (!thread_.joinable()) thread_ = std::thread([this] { loop_->Run(); });
}

std::vector<BatchCopyEvent> BatchCopier::TakeEvents() { return loop_->TakeEvents(); }

void BatchCopier::SetPaused(bool paused) { loop_->SetPaused(paused); }

void BatchCopier::Stop(milliseconds timeout) {
  loop_->RequestStop(timeout);
  if (thread_.joinable()) thread_.join();
}

}  // namespace connectd::kafka
