// File: error_mapping.h
//
// absl::Status -> HTTP status and Connect's error body `{"error_code":N,"message":"..."}`.
//
// The HTTP status attached by the herder (herder::WithHttpStatus) wins; a RebalanceNeededError
// is 500 (as on Connect's non-forwarding endpoints); otherwise the canonical code decides:
// kInvalidArgument 400, kNotFound 404, kAlreadyExists/kFailedPrecondition/kAborted 409,
// kUnavailable 503, kPermissionDenied 403, anything else 500.
//
// Threads: pure functions, any thread.
#pragma once

#include <string_view>

#include "absl/status/status.h"
#include "rest/http_types.h"

namespace connectd::rest {

// REQUIRES: !status.ok().
int HttpStatusFor(const absl::Status& status);

// A response with Connect's error body; `error_code` equals the HTTP status.
RestResponse ErrorResponse(int http_status, std::string_view message);
// REQUIRES: !status.ok().
RestResponse ErrorResponse(const absl::Status& status);

// The JAX-RS messages Connect answers for routing failures.
inline constexpr std::string_view kNotFoundMessage = "HTTP 404 Not Found";
inline constexpr std::string_view kMethodNotAllowedMessage = "HTTP 405 Method Not Allowed";
inline constexpr std::string_view kNotAcceptableMessage = "HTTP 406 Not Acceptable";
inline constexpr std::string_view kUnsupportedMediaTypeMessage = "HTTP 415 Unsupported Media Type";

}  // namespace connectd::rest
