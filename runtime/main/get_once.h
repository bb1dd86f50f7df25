// One GET from a command-line command (doctor, health): its own io_context and thread for the
// duration of the request, nothing left running after it.
#pragma once

#include <chrono>
#include <string>

#include "absl/status/statusor.h"
#include "rest/rest_client.h"
#include "rest/rest_config.h"

namespace connectd::main {

// GET `url` (Accept: application/json) and its answer, or why there is none (RestClient's
// errors: unreachable, timed out, TLS refused).
absl::StatusOr<rest::HttpClientResponse> GetOnce(const std::string& url, const rest::TlsConfig& tls,
                                                 std::chrono::milliseconds connect_timeout,
                                                 std::chrono::milliseconds request_timeout);

}  // namespace connectd::main
