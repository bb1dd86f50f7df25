#include "rest/error_mapping.h"

#include <string>

#include "rest/json_entities.h"
#include "runtime/herder_api/herder.h"

namespace connectd::rest {

int HttpStatusFor(const absl::Status& status) {
  if (std::optional<int> http = herder::HttpStatusOf(status); http && *http >= 100 && *http < 600) {
    return *http;
  }
  // Java's RebalanceNeededException is a plain ConnectException: 500 unless the endpoint
  // forwards (forwarding.h turns it into 409 there).
  if (herder::IsRebalanceNeeded(status)) return 500;
  switch (status.code()) {
    case absl::StatusCode::kInvalidArgument:
      return 400;
    case absl::StatusCode::kNotFound:
      return 404;
    case absl::StatusCode::kAlreadyExists:
    case absl::StatusCode::kFailedPrecondition:
    case absl::StatusCode::kAborted:
      return 409;
    case absl::StatusCode::kUnavailable:
      return 503;
    case absl::StatusCode::kPermissionDenied:
      return 403;
    default:
      return 500;
  }
}

RestResponse ErrorResponse(int http_status, std::string_view message) {
  return JsonResponse(http_status, ErrorMessageJson(http_status, message));
}

RestResponse ErrorResponse(const absl::Status& status) {
  std::string_view message(status.message().data(), status.message().size());
  return ErrorResponse(HttpStatusFor(status), message);
}

}  // namespace connectd::rest
