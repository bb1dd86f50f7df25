#include "tests/common/fake_kafka_cluster.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <utility>

#include "runtime/kafka/protocol/errors.h"
#include "runtime/kafka/protocol/record_batch.h"

namespace connectd::testing {

namespace kp = kafka::protocol;
namespace kc = kafka::client;
using Clock = std::chrono::steady_clock;
using kp::Error;

namespace {

constexpr int kPortBase = 1000;
constexpr std::chrono::milliseconds kMostFetchWait{30};
constexpr size_t kRecentBatches = 5;  // what a broker remembers of an idempotent producer

void WriteInt64(char* at, int64_t v) {
  for (int i = 7; i >= 0; --i, v >>= 8) at[i] = static_cast<char>(v & 0xff);
}
void WriteInt32(char* at, int32_t v) {
  for (int i = 3; i >= 0; --i, v >>= 8) at[i] = static_cast<char>(v & 0xff);
}

}  // namespace

class FakeKafkaCluster::Impl : public std::enable_shared_from_this<Impl> {
 public:
  struct ProducerState {
    int16_t epoch = 0;
    int32_t last_sequence = -1;
    std::deque<std::pair<int32_t, int64_t>> recent;  // base sequence, base offset
  };
  struct Partition {
    int32_t leader = -1;
    int32_t leader_epoch = 0;
    std::vector<std::string> batches;
    int64_t log_start = 0;
    int64_t end = 0;
    std::vector<kp::FetchResponse::AbortedTransaction> aborted;
    std::deque<int16_t> fetch_faults;
    std::deque<int16_t> produce_faults;
    std::map<int64_t, ProducerState> producers;
  };
  struct Topic {
    int32_t max_message_bytes = 1 << 20;
    std::vector<Partition> partitions;
  };
  struct LinkState {
    int32_t node = 0;
    bool connected = false;
    bool broken = false;  // its broker went down: every request fails
    bool closed = false;
  };
  // An answer to deliver: `deliver(failure)` calls the request's callback with the answer, or
  // with `failure` when the link broke meanwhile.
  struct Answer {
    uint64_t link = 0;
    int32_t node = 0;
    Clock::time_point due;
    absl::Status failure;
    std::function<void(absl::Status failure)> deliver;
    bool holdable = true;  // a held broker keeps it (a request's answer, not a connect's)
  };

  Impl(std::string name, std::vector<int32_t> nodes)
      : name_(std::move(name)), nodes_(std::move(nodes)) {}

  void Start() {
    thread_ = std::thread([this] { DeliverLoop(); });
  }
  void Stop() {
    {
      std::lock_guard lock(mu_);
      stopping_ = true;
      cv_.notify_all();
    }
    if (thread_.joinable()) thread_.join();
  }

  // ---- links ----
  uint64_t NewLink(int32_t node) {
    std::lock_guard lock(mu_);
    links_[++next_link_] = {node};
    return next_link_;
  }
  void Connect(uint64_t link, const kc::BrokerAddress& address,
               std::function<void(absl::Status)> done) {
    std::lock_guard lock(mu_);
    LinkState& state = links_[link];
    absl::Status status = absl::OkStatus();
    if (!refuse_.ok()) {
      status = refuse_;
    } else if (address.host != "fake-" + name_ ||
               std::find(nodes_.begin(), nodes_.end(), state.node) == nodes_.end()) {
      status = absl::UnavailableError("fake " + name_ + ": no broker at " + address.host + ":" +
                                      std::to_string(address.port));
    } else if (down_.count(state.node) > 0) {
      status = absl::UnavailableError("fake " + name_ + ": broker " + std::to_string(state.node) +
                                      " is down");
    }
    state.connected = status.ok();
    Enqueue(link, state.node, Clock::now(), [done = std::move(done), status](absl::Status failure) {
      done(failure.ok() ? status : failure);
    });
    answers_.back().holdable = false;
  }
  // Drops what is pending; returns once no callback of the link runs or will run.
  void Close(uint64_t link) {
    std::unique_lock lock(mu_);
    links_[link].closed = true;
    std::erase_if(answers_, [link](const Answer& a) { return a.link == link; });
    cv_.wait(lock, [&] { return delivering_ != link; });
  }

  // Applies a request (under the lock) and queues its answer. `handle` returns the answer and
  // how long the broker takes to send it.
  template <typename T>
  void Request(uint64_t link, std::function<T(int32_t node, Clock::duration* delay)> handle,
               kc::BrokerLink::Done<T> done) {
    std::lock_guard lock(mu_);
    LinkState& state = links_[link];
    absl::Status failure = absl::OkStatus();
    if (state.closed) return;  // answered never, as Close() promised
    if (!state.connected || state.broken) {
      failure = absl::UnavailableError("fake " + name_ + ": not connected to broker " +
                                       std::to_string(state.node));
    }
    if (!failure.ok()) {
      Enqueue(link, state.node, Clock::now(),
              [done = std::move(done), failure](absl::Status) { done(failure); });
      return;
    }
    Clock::duration delay{0};
    T answer = handle(state.node, &delay);
    Enqueue(link, state.node, Clock::now() + delay,
            [done = std::move(done), answer = std::move(answer)](absl::Status failure) mutable {
              if (!failure.ok()) return done(failure);
              done(std::move(answer));
            });
  }

  // ---- the broker's side (under mu_) ----
  Partition* Find(const std::string& topic, int32_t partition) {
    auto it = topics_.find(topic);
    if (it == topics_.end() || partition < 0 ||
        static_cast<size_t>(partition) >= it->second.partitions.size()) {
      return nullptr;
    }
    return &it->second.partitions[static_cast<size_t>(partition)];
  }

  kp::MetadataResponse HandleMetadata(const kp::MetadataRequest& request) {
    kp::MetadataResponse out;
    for (int32_t node : nodes_) {
      if (down_.count(node) == 0) {
        out.brokers.push_back({node, "fake-" + name_, kPortBase + node, std::nullopt});
      }
    }
    for (const std::string& name : request.topics) {
      kp::MetadataResponse::Topic topic;
      topic.name = name;
      auto it = topics_.find(name);
      if (it == topics_.end()) {
        topic.error_code = Code(Error::kUnknownTopicOrPartition);
      } else {
        for (size_t i = 0; i < it->second.partitions.size(); ++i) {
          const Partition& p = it->second.partitions[i];
          kp::MetadataResponse::Partition out_partition;
          out_partition.partition = static_cast<int32_t>(i);
          out_partition.leader_id = p.leader;
          out_partition.leader_epoch = p.leader_epoch;
          if (p.leader < 0) out_partition.error_code = Code(Error::kLeaderNotAvailable);
          out_partition.replicas = out_partition.isr = nodes_;
          topic.partitions.push_back(std::move(out_partition));
        }
      }
      out.topics.push_back(std::move(topic));
    }
    return out;
  }

  kp::InitProducerIdResponse HandleInitProducerId() {
    kp::InitProducerIdResponse out;
    if (!init_faults_.empty()) {
      out.error_code = init_faults_.front();
      init_faults_.pop_front();
      return out;
    }
    out.producer_id = 1000 + producer_ids_issued_++;
    out.producer_epoch = 0;
    return out;
  }

  kc::FetchedData HandleFetch(int32_t node, const kp::FetchRequest& request,
                              Clock::duration* delay) {
    kc::FetchedData out;
    out.response.throttle_time_ms = fetch_throttle_ms_;
    std::vector<std::string> data;  // by partition, in the response's order
    size_t total = 0;
    for (const auto& topic : request.topics) {
      kp::FetchResponse::Topic& out_topic = out.response.topics.emplace_back();
      out_topic.name = topic.name;
      for (const auto& wanted : topic.partitions) {
        kp::FetchResponse::Partition& fetched = out_topic.partitions.emplace_back();
        fetched.partition = wanted.partition;
        std::string& records = data.emplace_back();
        Partition* p = Find(topic.name, wanted.partition);
        if (p == nullptr) {
          fetched.error_code = Code(Error::kUnknownTopicOrPartition);
          continue;
        }
        if (p->leader != node) {
          fetched.error_code = Code(Error::kNotLeaderOrFollower);
          continue;
        }
        if (!p->fetch_faults.empty()) {
          fetched.error_code = p->fetch_faults.front();
          p->fetch_faults.pop_front();
          continue;
        }
        if (wanted.current_leader_epoch >= 0 && wanted.current_leader_epoch != p->leader_epoch) {
          fetched.error_code =
              Code(wanted.current_leader_epoch < p->leader_epoch ? Error::kFencedLeaderEpoch
                                                                 : Error::kUnknownLeaderEpoch);
          ++fetch_errors_[fetched.error_code];
          continue;
        }
        fetched.high_watermark = fetched.last_stable_offset = p->end;
        fetched.log_start_offset = p->log_start;
        if (wanted.last_fetched_epoch >= 0) {
          // KIP-320: where the log ends the fetcher's last epoch (its largest epoch up to it).
          kp::FetchResponse::EpochEndOffset epoch_end{-1, p->end};
          for (const std::string& batch : p->batches) {
            absl::StatusOr<kp::RecordBatchHeader> h = kp::ParseRecordBatchHeader(batch);
            if (!h.ok()) continue;
            if (h->partition_leader_epoch > wanted.last_fetched_epoch) {
              epoch_end.end_offset = h->base_offset;
              break;
            }
            epoch_end.epoch = h->partition_leader_epoch;
          }
          if (epoch_end.end_offset < wanted.fetch_offset ||
              epoch_end.epoch < wanted.last_fetched_epoch) {
            fetched.diverging_epoch = epoch_end;
            continue;
          }
        }
        if (wanted.fetch_offset < p->log_start || wanted.fetch_offset > p->end) {
          fetched.error_code = Code(Error::kOffsetOutOfRange);
          continue;
        }
        if (request.isolation_level == 1) fetched.aborted_transactions = p->aborted;
        const auto limit = static_cast<size_t>(wanted.partition_max_bytes);
        for (const std::string& batch : p->batches) {
          absl::StatusOr<kp::RecordBatchHeader> h = kp::ParseRecordBatchHeader(batch);
          if (!h.ok() || h->last_offset() < wanted.fetch_offset) continue;
          const bool fits =
              records.size() + batch.size() <= limit &&
              total + records.size() + batch.size() <= static_cast<size_t>(request.max_bytes);
          if (fits) {
            records += batch;
            continue;
          }
          if (records.empty()) {
            // KIP-74: the response's first batch whole; a later partition's cut off.
            records = total == 0 ? batch : batch.substr(0, std::min(batch.size(), limit));
          }
          break;
        }
        total += records.size();
      }
    }
    out.frame = std::shared_ptr<char[]>(new char[std::max<size_t>(total, 1)]);
    size_t at = 0;
    size_t k = 0;
    for (auto& topic : out.response.topics) {
      for (auto& fetched : topic.partitions) {
        const std::string& records = data[k++];
        if (fetched.error_code != 0 || fetched.diverging_epoch) continue;
        std::memcpy(out.frame.get() + at, records.data(), records.size());
        fetched.records = std::string_view(out.frame.get() + at, records.size());
        at += records.size();
      }
    }
    if (total == 0) {
      *delay =
          std::min<Clock::duration>(std::chrono::milliseconds(request.max_wait_ms), kMostFetchWait);
    }
    return out;
  }

  kp::ProduceResponse HandleProduce(int32_t node, const kp::ProduceRequest& request) {
    ++produce_requests_;
    kp::ProduceResponse out;
    out.throttle_time_ms = produce_throttle_ms_;
    for (const auto& topic : request.topics) {
      kp::ProduceResponse::Topic& out_topic = out.topics.emplace_back();
      out_topic.name = topic.name;
      auto it = topics_.find(topic.name);
      for (const auto& produced : topic.partitions) {
        kp::ProduceResponse::Partition& answer = out_topic.partitions.emplace_back();
        answer.partition = produced.partition;
        Partition* p = Find(topic.name, produced.partition);
        if (p == nullptr) {
          answer.error_code = Code(Error::kUnknownTopicOrPartition);
        } else if (p->leader != node) {
          answer.error_code = Code(Error::kNotLeaderOrFollower);
        } else if (!p->produce_faults.empty()) {
          answer.error_code = p->produce_faults.front();
          p->produce_faults.pop_front();
        } else {
          Write(*p, it->second.max_message_bytes, std::string(produced.records), answer);
        }
      }
    }
    return out;
  }

  // A produced batch checked and written as the leader does.
  void Write(Partition& p, int32_t max_message_bytes, std::string batch,
             kp::ProduceResponse::Partition& answer) {
    absl::StatusOr<kp::RecordBatchHeader> h = kp::ParseRecordBatchHeader(batch);
    if (!h.ok() || h->size() != batch.size() || !kp::RecordBatchCrcMatches(batch)) {
      answer.error_code = Code(Error::kCorruptMessage);
      return;
    }
    if (batch.size() > static_cast<size_t>(max_message_bytes)) {
      answer.error_code = Code(Error::kMessageTooLarge);
      return;
    }
    if (h->producer_id >= 0) {
      auto known = p.producers.find(h->producer_id);
      if (known != p.producers.end()) {
        ProducerState& state = known->second;
        if (h->producer_epoch < state.epoch) {
          answer.error_code = Code(Error::kInvalidProducerEpoch);
          return;
        }
        if (h->producer_epoch == state.epoch) {
          for (const auto& [sequence, offset] : state.recent) {
            if (sequence == h->base_sequence) {  // a retry of a written batch
              answer.base_offset = offset;
              return;
            }
          }
          if (h->base_sequence != state.last_sequence + 1) {
            answer.error_code = Code(Error::kOutOfOrderSequenceNumber);
            return;
          }
        } else if (h->base_sequence != 0) {
          answer.error_code = Code(Error::kOutOfOrderSequenceNumber);
          return;
        } else {
          state = ProducerState{};
        }
      }
      ProducerState& state = p.producers[h->producer_id];
      state.epoch = h->producer_epoch;
      state.last_sequence = h->base_sequence + h->record_count - 1;
      state.recent.emplace_back(h->base_sequence, p.end);
      if (state.recent.size() > kRecentBatches) state.recent.pop_front();
    }
    answer.base_offset = Store(p, std::move(batch));
  }

  int64_t Store(Partition& p, std::string batch) {
    absl::StatusOr<kp::RecordBatchHeader> h = kp::ParseRecordBatchHeader(batch);
    const int64_t base = p.end;
    WriteInt64(batch.data(), base);
    WriteInt32(batch.data() + 12, p.leader_epoch);  // outside the CRC
    p.end = base + (h.ok() ? h->last_offset_delta : 0) + 1;
    p.batches.push_back(std::move(batch));
    return base;
  }

  void Enqueue(uint64_t link, int32_t node, Clock::time_point due,
               std::function<void(absl::Status)> deliver) {
    answers_.push_back({link, node, due, absl::OkStatus(), std::move(deliver), true});
    cv_.notify_all();
  }

  // The cluster's thread: each link's answers in order, when due and their broker not held.
  void DeliverLoop() {
    std::unique_lock lock(mu_);
    while (!stopping_) {
      const Clock::time_point now = Clock::now();
      Clock::time_point next = now + std::chrono::milliseconds(50);
      std::set<uint64_t> blocked;
      auto ready = answers_.end();
      for (auto it = answers_.begin(); it != answers_.end(); ++it) {
        if (blocked.count(it->link) > 0) continue;
        const bool held = it->holdable && it->failure.ok() && held_.count(it->node) > 0;
        if (held || it->due > now) {
          if (!held) next = std::min(next, it->due);
          blocked.insert(it->link);
          continue;
        }
        ready = it;
        break;
      }
      if (ready == answers_.end()) {
        cv_.wait_until(lock, next);
        continue;
      }
      Answer answer = std::move(*ready);
      answers_.erase(ready);
      delivering_ = answer.link;
      lock.unlock();
      answer.deliver(answer.failure);
      answer.deliver = nullptr;  // what it holds goes before Close() may return
      lock.lock();
      delivering_ = 0;
      cv_.notify_all();
    }
  }

  const std::string name_;
  const std::vector<int32_t> nodes_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;
  std::thread thread_;
  // Guarded by mu_.
  std::map<std::string, Topic> topics_;
  std::map<uint64_t, LinkState> links_;
  uint64_t next_link_ = 0;
  std::deque<Answer> answers_;
  uint64_t delivering_ = 0;  // the link whose answer the thread is delivering
  std::set<int32_t> down_;
  std::set<int32_t> held_;
  absl::Status refuse_ = absl::OkStatus();
  std::deque<int16_t> init_faults_;
  int32_t produce_throttle_ms_ = 0;
  int32_t fetch_throttle_ms_ = 0;
  int64_t produce_requests_ = 0;
  std::map<int16_t, int64_t> fetch_errors_;  // the leader epoch refusals, by code
  int64_t producer_ids_issued_ = 0;
};

namespace {

// One connection to one broker of a fake cluster.
class FakeLink final : public kc::BrokerLink {
 public:
  FakeLink(std::shared_ptr<FakeKafkaCluster::Impl> impl, kc::BrokerAddress address, int32_t node)
      : impl_(std::move(impl)), address_(std::move(address)), id_(impl_->NewLink(node)) {}
  ~FakeLink() override { Close(); }

  void Connect(std::function<void(absl::Status)> done) override {
    impl_->Connect(id_, address_, std::move(done));
  }
  void Metadata(const kp::MetadataRequest& request, Done<kp::MetadataResponse> done) override {
    impl_->Request<kp::MetadataResponse>(
        id_, [this, request](int32_t, Clock::duration*) { return impl_->HandleMetadata(request); },
        std::move(done));
  }
  void InitProducerId(const kp::InitProducerIdRequest&,
                      Done<kp::InitProducerIdResponse> done) override {
    impl_->Request<kp::InitProducerIdResponse>(
        id_, [this](int32_t, Clock::duration*) { return impl_->HandleInitProducerId(); },
        std::move(done));
  }
  void Fetch(const kp::FetchRequest& request, Done<kc::FetchedData> done) override {
    impl_->Request<kc::FetchedData>(
        id_,
        [this, &request](int32_t node, Clock::duration* delay) {
          return impl_->HandleFetch(node, request, delay);
        },
        std::move(done));
  }
  void Produce(const kp::ProduceRequest& request, Done<kp::ProduceResponse> done) override {
    impl_->Request<kp::ProduceResponse>(
        id_,
        [this, &request](int32_t node, Clock::duration*) {
          return impl_->HandleProduce(node, request);
        },
        std::move(done));
  }
  void Close() override { impl_->Close(id_); }

 private:
  const std::shared_ptr<FakeKafkaCluster::Impl> impl_;
  const kc::BrokerAddress address_;
  const uint64_t id_;
};

}  // namespace

FakeKafkaCluster::FakeKafkaCluster(std::string name, std::vector<int32_t> node_ids)
    : impl_(std::make_shared<Impl>(std::move(name), std::move(node_ids))) {
  impl_->Start();
}

FakeKafkaCluster::~FakeKafkaCluster() { impl_->Stop(); }

std::string FakeKafkaCluster::bootstrap_servers() const {
  std::string out;
  for (int32_t node : impl_->nodes_) {
    if (!out.empty()) out += ",";
    out += "fake-" + impl_->name_ + ":" + std::to_string(kPortBase + node);
  }
  return out;
}

kc::BrokerLinkFactory FakeKafkaCluster::Links() {
  return [impl = impl_](const kc::LinkSpec& spec) -> std::shared_ptr<kc::BrokerLink> {
    const int32_t node = spec.node_id >= 0 ? spec.node_id : spec.address.port - kPortBase;
    return std::make_shared<FakeLink>(impl, spec.address, node);
  };
}

void FakeKafkaCluster::CreateTopic(const std::string& topic, int32_t partitions, int32_t leader,
                                   int32_t max_message_bytes) {
  std::lock_guard lock(impl_->mu_);
  Impl::Topic& t = impl_->topics_[topic];
  t = Impl::Topic{max_message_bytes, {}};
  t.partitions.resize(static_cast<size_t>(partitions));
  for (auto& p : t.partitions) p.leader = leader >= 0 ? leader : impl_->nodes_.front();
}

void FakeKafkaCluster::DeleteTopic(const std::string& topic) {
  std::lock_guard lock(impl_->mu_);
  impl_->topics_.erase(topic);
}

int64_t FakeKafkaCluster::Append(const std::string& topic, int32_t partition, std::string batch) {
  std::lock_guard lock(impl_->mu_);
  Impl::Partition* p = impl_->Find(topic, partition);
  return p == nullptr ? -1 : impl_->Store(*p, std::move(batch));
}

void FakeKafkaCluster::DeleteRecordsBefore(const std::string& topic, int32_t partition,
                                           int64_t offset) {
  std::lock_guard lock(impl_->mu_);
  Impl::Partition* p = impl_->Find(topic, partition);
  if (p == nullptr) return;
  p->log_start = std::max(p->log_start, offset);
  std::erase_if(p->batches, [offset](const std::string& batch) {
    absl::StatusOr<kp::RecordBatchHeader> h = kp::ParseRecordBatchHeader(batch);
    return h.ok() && h->last_offset() < offset;
  });
}

void FakeKafkaCluster::Truncate(const std::string& topic, int32_t partition, int64_t offset) {
  std::lock_guard lock(impl_->mu_);
  Impl::Partition* p = impl_->Find(topic, partition);
  if (p == nullptr) return;
  std::erase_if(p->batches, [offset](const std::string& batch) {
    absl::StatusOr<kp::RecordBatchHeader> h = kp::ParseRecordBatchHeader(batch);
    return h.ok() && h->base_offset >= offset;
  });
  p->end = std::min(p->end, offset);
  ++p->leader_epoch;
}

int64_t FakeKafkaCluster::fetch_errors(int16_t code) const {
  std::lock_guard lock(impl_->mu_);
  auto it = impl_->fetch_errors_.find(code);
  return it == impl_->fetch_errors_.end() ? 0 : it->second;
}

void FakeKafkaCluster::SetLeader(const std::string& topic, int32_t partition, int32_t node) {
  std::lock_guard lock(impl_->mu_);
  if (Impl::Partition* p = impl_->Find(topic, partition)) {
    p->leader = node;
    ++p->leader_epoch;
  }
}

void FakeKafkaCluster::AddAbortedTransaction(const std::string& topic, int32_t partition,
                                             int64_t producer_id, int64_t first_offset) {
  std::lock_guard lock(impl_->mu_);
  if (Impl::Partition* p = impl_->Find(topic, partition)) {
    p->aborted.push_back({producer_id, first_offset});
  }
}

std::string FakeKafkaCluster::Log(const std::string& topic, int32_t partition) const {
  std::lock_guard lock(impl_->mu_);
  std::string out;
  if (Impl::Partition* p = impl_->Find(topic, partition)) {
    for (const std::string& batch : p->batches) out += batch;
  }
  return out;
}

int64_t FakeKafkaCluster::EndOffset(const std::string& topic, int32_t partition) const {
  std::lock_guard lock(impl_->mu_);
  Impl::Partition* p = impl_->Find(topic, partition);
  return p == nullptr ? -1 : p->end;
}

void FakeKafkaCluster::FailFetches(const std::string& topic, int32_t partition, int16_t code,
                                   int times) {
  std::lock_guard lock(impl_->mu_);
  if (Impl::Partition* p = impl_->Find(topic, partition))
    p->fetch_faults.insert(p->fetch_faults.end(), static_cast<size_t>(times), code);
}

void FakeKafkaCluster::FailProduces(const std::string& topic, int32_t partition, int16_t code,
                                    int times) {
  std::lock_guard lock(impl_->mu_);
  if (Impl::Partition* p = impl_->Find(topic, partition))
    p->produce_faults.insert(p->produce_faults.end(), static_cast<size_t>(times), code);
}

void FakeKafkaCluster::ClearFaults(const std::string& topic, int32_t partition) {
  std::lock_guard lock(impl_->mu_);
  if (Impl::Partition* p = impl_->Find(topic, partition)) {
    p->fetch_faults.clear();
    p->produce_faults.clear();
  }
}

void FakeKafkaCluster::FailInitProducerId(int16_t code, int times) {
  std::lock_guard lock(impl_->mu_);
  impl_->init_faults_.insert(impl_->init_faults_.end(), static_cast<size_t>(times), code);
}

void FakeKafkaCluster::SetDown(int32_t node, bool down) {
  std::lock_guard lock(impl_->mu_);
  if (!down) {
    impl_->down_.erase(node);
    return;
  }
  impl_->down_.insert(node);
  for (auto& [id, link] : impl_->links_) {
    if (link.node != node) continue;
    link.broken = true;
    for (Impl::Answer& a : impl_->answers_) {
      if (a.link == id && a.failure.ok()) {
        a.failure = absl::UnavailableError("fake " + impl_->name_ + ": broker " +
                                           std::to_string(node) + " went down");
      }
    }
  }
  impl_->cv_.notify_all();
}

void FakeKafkaCluster::SetHeld(int32_t node, bool held) {
  std::lock_guard lock(impl_->mu_);
  if (held) {
    impl_->held_.insert(node);
  } else {
    impl_->held_.erase(node);
  }
  impl_->cv_.notify_all();
}

void FakeKafkaCluster::RefuseConnections(absl::Status why) {
  std::lock_guard lock(impl_->mu_);
  impl_->refuse_ = std::move(why);
}

void FakeKafkaCluster::SetProduceThrottleMs(int32_t ms) {
  std::lock_guard lock(impl_->mu_);
  impl_->produce_throttle_ms_ = ms;
}

void FakeKafkaCluster::SetFetchThrottleMs(int32_t ms) {
  std::lock_guard lock(impl_->mu_);
  impl_->fetch_throttle_ms_ = ms;
}

int64_t FakeKafkaCluster::produce_requests() const {
  std::lock_guard lock(impl_->mu_);
  return impl_->produce_requests_;
}

int64_t FakeKafkaCluster::producer_ids_issued() const {
  std::lock_guard lock(impl_->mu_);
  return impl_->producer_ids_issued_;
}

}  // namespace connectd::testing
