#include "runtime/kafka/rdkafka_handles.h"

#include "absl/strings/str_cat.h"
#include "jvm/client_conf.h"
#include "runtime/common/logging.h"
#include "runtime/common/strings.h"

namespace connectd::kafka {
namespace {

constexpr char kLibrdkafkaLogger[] = "connectd.kafka.librdkafka";

// librdkafka's log lines (syslog levels) through connectd's logger, so they take its format
// (text or JSON) and its levels: errors and warnings as such, notices and info as INFO, the
// output of the `debug` property as DEBUG. Called on librdkafka's threads.
void LogThroughConnectd(const rd_kafka_t* rk, int level, const char* facility, const char* line) {
  const log::Level mapped = level <= 3   ? log::Level::kError
                            : level == 4 ? log::Level::kWarn
                            : level <= 6 ? log::Level::kInfo
                                         : log::Level::kDebug;
  if (!log::IsEnabled(mapped, kLibrdkafkaLogger)) return;
  log::Write(mapped, kLibrdkafkaLogger,
             absl::StrCat("[", rd_kafka_name(rk), "] ", facility, ": ", line));
}

}  // namespace

absl::StatusOr<ConfPtr> MakeConf(const std::map<std::string, std::string>& properties) {
  std::vector<std::string> warnings;
  std::string error;
  ConfPtr conf(jvm::MakeClientConf(properties, warnings, error));
  if (!conf) return absl::InvalidArgumentError(error);
  if (!warnings.empty()) return absl::InvalidArgumentError(warnings.front());
  return conf;
}

absl::StatusOr<RdKafkaPtr> MakeClient(rd_kafka_type_t type, ConfPtr conf) {
  rd_kafka_conf_set_log_cb(conf.get(), &LogThroughConnectd);
  char errstr[512];
  rd_kafka_t* rk = rd_kafka_new(type, conf.get(), errstr, sizeof(errstr));
  if (rk == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("cannot create Kafka client: ", errstr));
  }
  conf.release();  // rd_kafka_new took ownership on success
  return RdKafkaPtr(rk);
}

absl::Status ToStatus(rd_kafka_resp_err_t err, std::string_view context) {
  if (err == RD_KAFKA_RESP_ERR_NO_ERROR) return absl::OkStatus();
  std::string message = absl::StrCat(AsAbsl(context), ": ", rd_kafka_err2str(err));
  switch (err) {
    case RD_KAFKA_RESP_ERR__TIMED_OUT:
    case RD_KAFKA_RESP_ERR_REQUEST_TIMED_OUT:
    case RD_KAFKA_RESP_ERR__TRANSPORT:
    case RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN:
    case RD_KAFKA_RESP_ERR_LEADER_NOT_AVAILABLE:
    case RD_KAFKA_RESP_ERR_NOT_LEADER_FOR_PARTITION:
    case RD_KAFKA_RESP_ERR_NOT_COORDINATOR:
    case RD_KAFKA_RESP_ERR_COORDINATOR_NOT_AVAILABLE:
    case RD_KAFKA_RESP_ERR_COORDINATOR_LOAD_IN_PROGRESS:
    case RD_KAFKA_RESP_ERR_NOT_ENOUGH_REPLICAS:
    case RD_KAFKA_RESP_ERR__QUEUE_FULL:
      return absl::UnavailableError(message);
    case RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART:
    case RD_KAFKA_RESP_ERR__UNKNOWN_TOPIC:
    case RD_KAFKA_RESP_ERR__UNKNOWN_PARTITION:
      return absl::NotFoundError(message);
    case RD_KAFKA_RESP_ERR_TOPIC_ALREADY_EXISTS:
      return absl::AlreadyExistsError(message);
    case RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED:
    case RD_KAFKA_RESP_ERR_GROUP_AUTHORIZATION_FAILED:
    case RD_KAFKA_RESP_ERR_CLUSTER_AUTHORIZATION_FAILED:
      return absl::PermissionDeniedError(message);
    case RD_KAFKA_RESP_ERR_INVALID_CONFIG:
    case RD_KAFKA_RESP_ERR__INVALID_ARG:
    case RD_KAFKA_RESP_ERR_INVALID_REPLICATION_FACTOR:
    case RD_KAFKA_RESP_ERR_INVALID_PARTITIONS:
      return absl::InvalidArgumentError(message);
    default:
      return absl::InternalError(message);
  }
}

int32_t WarmTopicMetadata(rd_kafka_t* rk, const std::string& topic, int timeout_ms) {
  rd_kafka_topic_t* rkt = rd_kafka_topic_new(rk, topic.c_str(), nullptr);
  if (rkt == nullptr) return 0;
  const rd_kafka_metadata_t* metadata = nullptr;
  int32_t partitions = 0;
  // The response updates the client's metadata cache, which the next produce reads.
  if (rd_kafka_metadata(rk, 0, rkt, &metadata, timeout_ms) == RD_KAFKA_RESP_ERR_NO_ERROR) {
    for (int i = 0; i < metadata->topic_cnt; ++i) {
      if (topic == metadata->topics[i].topic && !metadata->topics[i].err) {
        partitions = metadata->topics[i].partition_cnt;
      }
    }
    rd_kafka_metadata_destroy(metadata);
  }
  rd_kafka_topic_destroy(rkt);
  return partitions;
}

}  // namespace connectd::kafka
