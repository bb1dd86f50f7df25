#include "runtime/herder_api/herder_types.h"

#include "absl/strings/str_cat.h"
#include "runtime/herder_api/herder.h"

namespace connectd::herder {
namespace {
constexpr char kHttpStatusPayload[] = "connectd.http-status";
constexpr char kForwardTargetPayload[] = "connectd.forward-target";
constexpr char kRebalanceNeededPayload[] = "connectd.rebalance-needed";
}  // namespace

std::string_view ConnectorTypeName(ConnectorType type) {
  switch (type) {
    case ConnectorType::kSource:
      return "source";
    case ConnectorType::kSink:
      return "sink";
    default:
      return "unknown";
  }
}

std::string_view TargetStateName(TargetState state) {
  switch (state) {
    case TargetState::kStarted:
      return "STARTED";
    case TargetState::kPaused:
      return "PAUSED";
    default:
      return "STOPPED";
  }
}

absl::Status WithHttpStatus(absl::Status status, int http_status) {
  status.SetPayload(kHttpStatusPayload, absl::Cord(absl::StrCat(http_status)));
  return status;
}

std::optional<int> HttpStatusOf(const absl::Status& status) {
  absl::optional<absl::Cord> payload = status.GetPayload(kHttpStatusPayload);
  if (!payload) return std::nullopt;
  int value = 0;
  for (char c : std::string(*payload)) value = value * 10 + (c - '0');
  return value;
}

absl::Status ForwardRequiredError(std::string_view message, std::string_view url) {
  absl::Status status =
      absl::FailedPreconditionError(absl::string_view(message.data(), message.size()));
  status.SetPayload(kForwardTargetPayload, absl::Cord(absl::string_view(url.data(), url.size())));
  return status;
}

std::optional<std::string> ForwardTargetOf(const absl::Status& status) {
  absl::optional<absl::Cord> payload = status.GetPayload(kForwardTargetPayload);
  if (!payload) return std::nullopt;
  return std::string(*payload);
}

absl::Status RebalanceNeededError() {
  absl::Status status =
      absl::FailedPreconditionError("Request cannot be completed because a rebalance is expected");
  status.SetPayload(kRebalanceNeededPayload, absl::Cord("1"));
  return status;
}

bool IsRebalanceNeeded(const absl::Status& status) {
  return status.GetPayload(kRebalanceNeededPayload).has_value();
}

void Herder::PutTaskConfigs(const std::string& /*name*/, const std::vector<ConfigMap>& /*configs*/,
                            std::optional<InternalRequestSignature> /*signature*/,
                            DoneCallback done) {
  done(WithHttpStatus(absl::UnimplementedError("Kafka Connect in standalone mode does not support "
                                               "externally setting task configurations."),
                      500));
}

void Herder::FenceZombieSourceTasks(const std::string& /*name*/,
                                    std::optional<InternalRequestSignature> /*signature*/,
                                    DoneCallback done) {
  done(WithHttpStatus(absl::UnimplementedError(
                          "Kafka Connect in standalone mode does not support exactly-once source "
                          "connectors."),
                      500));
}

}  // namespace connectd::herder
