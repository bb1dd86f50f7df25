#include "runtime/herder/herder_types.h"

#include "absl/strings/str_cat.h"
#include "runtime/herder/herder.h"

namespace connectd::herder {
namespace {
constexpr char kHttpStatusPayload[] = "connectd.http-status";
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

}  // namespace connectd::herder
