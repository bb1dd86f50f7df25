#include "tests/unit/runtime/distributed/memory_topics.h"

#include <chrono>
#include <functional>
#include <future>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "runtime/storage/status_state.h"

namespace connectd::storage {

// One store's view of a topic: a reader thread that hands every stored record to `consumed`
// and completes sends and reads-to-end in the order the contract asks for.
class MemoryTopicLog final : public TopicLog {
 public:
  MemoryTopicLog(std::shared_ptr<MemoryTopics> topics, std::string topic, Consumed consumed)
      : topics_(std::move(topics)), topic_(std::move(topic)), consumed_(std::move(consumed)) {
    std::lock_guard lock(topics_->mu_);
    next_.assign(Partitions().size(), 0);
    thread_ = std::thread([this] { Run(); });
  }
  ~MemoryTopicLog() override { Stop(); }

  void Send(std::optional<std::string> key, std::optional<std::string> value,
            std::function<void(absl::Status)> done) override {
    std::lock_guard lock(topics_->mu_);
    if (stopping_) {
      if (done) done(absl::CancelledError("log stopped"));
      return;
    }
    std::vector<std::vector<LogRecord>>& partitions = Partitions();
    LogRecord record;
    record.partition =
        key ? PartitionForKey(*key, static_cast<int32_t>(partitions.size())) : int32_t{0};
    std::vector<LogRecord>& log = partitions[static_cast<size_t>(record.partition)];
    record.offset = static_cast<int64_t>(log.size());
    record.key = std::move(key);
    record.value = std::move(value);
    record.timestamp_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                              std::chrono::system_clock::now().time_since_epoch())
                              .count();
    log.push_back(std::move(record));
    ++unacknowledged_;
    acks_.push_back(std::move(done));
    topics_->changed_.notify_all();
  }

  absl::Status Flush(std::chrono::milliseconds timeout) override {
    std::unique_lock lock(topics_->mu_);
    if (!topics_->changed_.wait_for(lock, timeout, [&] { return unacknowledged_ == 0; })) {
      return absl::DeadlineExceededError("flushing " + topic_);
    }
    return absl::OkStatus();
  }

  void ReadToEnd(std::function<void(absl::Status)> done) override {
    std::lock_guard lock(topics_->mu_);
    if (stopping_) {
      done(absl::CancelledError("log stopped"));
      return;
    }
    reads_.push_back(std::move(done));
    topics_->changed_.notify_all();
  }

  absl::Status ReadToEndSync(std::chrono::milliseconds timeout) override {
    auto promise = std::make_shared<std::promise<absl::Status>>();
    std::future<absl::Status> future = promise->get_future();
    ReadToEnd([promise](absl::Status s) { promise->set_value(std::move(s)); });
    if (future.wait_for(timeout) != std::future_status::ready) {
      return absl::DeadlineExceededError("reading topic " + topic_ + " to its end");
    }
    return future.get();
  }

  void Stop() override {
    {
      std::lock_guard lock(topics_->mu_);
      if (stopping_) return;
      stopping_ = true;
      topics_->changed_.notify_all();
    }
    if (thread_.joinable()) thread_.join();
    // The thread is gone and nothing is added once stopping_: no lock needed. Stored records
    // count as acknowledged, as a KafkaBasedLog flushes its producer when it stops.
    for (auto& done : acks_) {
      if (done) done(absl::OkStatus());
    }
    acks_.clear();
    for (auto& done : reads_) done(absl::CancelledError("log stopped"));
    reads_.clear();
  }

  int32_t partitions() const override { return static_cast<int32_t>(next_.size()); }

 private:
  std::vector<std::vector<LogRecord>>& Partitions() { return topics_->topics_.at(topic_); }

  bool HasWork() {
    if (!acks_.empty() || !reads_.empty()) return true;
    const std::vector<std::vector<LogRecord>>& partitions = Partitions();
    for (size_t p = 0; p < partitions.size(); ++p) {
      if (next_[p] < partitions[p].size()) return true;
    }
    return false;
  }

  // Delivers everything stored, then acknowledges sends and completes the reads that were
  // asked for before the delivery started (each saw its end reached).
  void Run() {
    std::unique_lock lock(topics_->mu_);
    while (true) {
      topics_->changed_.wait(lock, [&] { return stopping_ || HasWork(); });
      if (stopping_) return;
      std::vector<LogRecord> fresh;
      std::vector<std::vector<LogRecord>>& partitions = Partitions();
      for (size_t p = 0; p < partitions.size(); ++p) {
        while (next_[p] < partitions[p].size()) fresh.push_back(partitions[p][next_[p]++]);
      }
      std::vector<std::function<void(absl::Status)>> acks;
      acks.swap(acks_);
      std::vector<std::function<void(absl::Status)>> reads;
      reads.swap(reads_);
      lock.unlock();
      for (const LogRecord& record : fresh) consumed_(record);
      for (auto& done : acks) {
        if (done) done(absl::OkStatus());
      }
      for (auto& done : reads) done(absl::OkStatus());
      lock.lock();
      unacknowledged_ -= static_cast<int>(acks.size());
      topics_->changed_.notify_all();
    }
  }

  const std::shared_ptr<MemoryTopics> topics_;
  const std::string topic_;
  const Consumed consumed_;
  std::thread thread_;
  // Guarded by topics_->mu_.
  bool stopping_ = false;
  std::vector<size_t> next_;  // next offset to deliver, per partition (size fixed at open)
  std::vector<std::function<void(absl::Status)>> acks_;
  std::vector<std::function<void(absl::Status)>> reads_;
  int unacknowledged_ = 0;
};

TopicLogOpener MemoryTopics::Opener() {
  return [self = shared_from_this()](
             const KafkaBasedLog::Options& options,
             TopicLog::Consumed consumed) -> absl::StatusOr<std::unique_ptr<TopicLog>> {
    {
      std::lock_guard lock(self->mu_);
      auto& partitions = self->topics_[options.topic];
      if (partitions.empty())
        partitions.resize(static_cast<size_t>(std::max(1, options.partitions)));
    }
    auto log = std::make_unique<MemoryTopicLog>(self, options.topic, std::move(consumed));
    // Like KafkaBasedLog::Start: the history is read before the store goes on.
    if (absl::Status read = log->ReadToEndSync(std::chrono::seconds(10)); !read.ok()) return read;
    return std::unique_ptr<TopicLog>(std::move(log));
  };
}

std::vector<LogRecord> MemoryTopics::Records(const std::string& topic) {
  std::lock_guard lock(mu_);
  std::vector<LogRecord> out;
  auto it = topics_.find(topic);
  if (it == topics_.end()) return out;
  for (const auto& partition : it->second)
    out.insert(out.end(), partition.begin(), partition.end());
  return out;
}

}  // namespace connectd::storage
