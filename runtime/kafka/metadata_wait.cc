#include "runtime/kafka/metadata_wait.h"

#include <algorithm>
#include <string>
#include <thread>

#include "absl/strings/str_cat.h"
#include "runtime/common/logging.h"
#include "runtime/kafka/rdkafka_handles.h"

namespace connectd::kafka {
namespace {

constexpr char kLogger[] = "connectd.kafka.PartitionMetadataWait";
constexpr std::chrono::milliseconds kMaxBackoff{1000};
constexpr std::chrono::seconds kWarningInterval{30};
constexpr int kMetadataTimeoutMs = 1000;

std::string PartitionName(std::string_view topic, int32_t partition) {
  return partition < 0 ? std::string(topic) : absl::StrCat(std::string(topic), "-", partition);
}

}  // namespace

bool IsMissingFromMetadata(rd_kafka_resp_err_t err) {
  return err == RD_KAFKA_RESP_ERR__UNKNOWN_PARTITION || err == RD_KAFKA_RESP_ERR__UNKNOWN_TOPIC ||
         err == RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART;
}

absl::Status PartitionMetadataWait::Wait(rd_kafka_t* producer, std::string_view topic,
                                         int32_t partition, rd_kafka_resp_err_t err,
                                         const std::function<bool()>& stopping) {
  const auto now = std::chrono::steady_clock::now();
  if (partition_ == -1 && topic_.empty()) {
    started_ = now;
    topic_ = std::string(topic);
    partition_ = partition;
  }
  if (last_warning_ == std::chrono::steady_clock::time_point{} ||
      now - last_warning_ >= kWarningInterval) {
    last_warning_ = now;
    CONNECTD_LOG(kWarn, kLogger)
        << "Waiting for " << PartitionName(topic, partition)
        << " to appear in the producer's metadata (" << rd_kafka_err2str(err) << ", "
        << std::chrono::duration_cast<std::chrono::seconds>(now - started_).count()
        << " s so far): the record is held, as Java's producer holds it, until the topic and "
           "partition exist";
  }
  rd_kafka_poll(producer, 0);  // delivery reports of what was sent before
  WarmTopicMetadata(producer, std::string(topic), kMetadataTimeoutMs);
  const auto until = std::chrono::steady_clock::now() + backoff_;
  while (std::chrono::steady_clock::now() < until) {
    if (stopping()) {
      cancelled_ = true;
      return absl::CancelledError("the task is stopping");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  backoff_ = std::min(backoff_ * 2, kMaxBackoff);
  if (stopping()) {
    cancelled_ = true;
    return absl::CancelledError("the task is stopping");
  }
  return absl::OkStatus();
}

PartitionMetadataWait::~PartitionMetadataWait() {
  if (topic_.empty() || cancelled_) return;
  CONNECTD_LOG(kInfo, kLogger) << PartitionName(topic_, partition_)
                               << " appeared in the producer's metadata after "
                               << std::chrono::duration_cast<std::chrono::milliseconds>(
                                      std::chrono::steady_clock::now() - started_)
                                      .count()
                               << " ms";
}

}  // namespace connectd::kafka
