// File: forwarding.h
//
// Request forwarding between workers: Kafka Connect's HerderRequestHandler
// (completeOrForwardRequest) over RestClient, as Kafka's HerderRequestHandler does.
//
// A resource whose herder call fails hands the failure to CompleteOrForward:
//   - ForwardRequiredError(url) (Java's NotLeaderException / NotAssignedException):
//       hidden query parameter `forward` absent -> forward with forward=true (one more hop
//       allowed), true -> forward with forward=false, false -> 409 "Cannot complete request
//       because of a conflicting operation (e.g. worker rebalance)";
//       an empty url (no leader known) -> 409 "Cannot complete request momentarily due to no
//       known leader URL, likely because a rebalance was underway.";
//   - RebalanceNeededError -> 409 "Cannot complete request momentarily due to stale
//     configuration (typically caused by a concurrent config change)";
//   - anything else -> Connect's error body for the status (error_mapping.h).
//
// The forwarded request goes to url + ForwardRequest::path + "?forward=..." + the extra query
// parameters, with ForwardRequest::body (re-serialized by the resource; nullopt: no body), the
// user's Authorization header only, Accept/Content-Type application/json and User-Agent
// kafka-connect. The remote answer becomes the local one:
//   204, or 2xx with an empty body  -> on_remote(status, nullopt)
//   other 2xx                       -> on_remote(status, body) (body checked to be JSON)
//   >= 400                          -> the remote status with the remote error_code and message
//   other                           -> 500 "Unexpected status code when handling forwarded
//                                      request: N"
//   transport error                 -> 500 "IO Error trying to forward REST request: ..."
//                                      (client TLS settings unusable: 500 "Failed to start
//                                      RestClient: ...")
//
// Threads: CompleteOrForward may run on any thread (herder callbacks) and never blocks: the
// forwarded request runs on the RestClient's io_context, and `on_remote` and `respond` run
// there.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "rest/http_types.h"
#include "rest/rest_client.h"

namespace connectd::rest {

// How a request is sent on when another worker must serve it.
struct ForwardRequest {
  std::string method;
  std::string path;  // from the root, percent-encoded: "/connectors/my%20c/config"
  std::vector<std::pair<std::string, std::string>> query;  // after forward=, e.g. includeTasks
  std::optional<std::string> body;                         // JSON; nullopt: no body
};

// What forwarding needs from the user's request.
struct ForwardOrigin {
  std::optional<bool> forward;  // the hidden `forward` query parameter (JAX-RS Boolean)
  std::optional<std::string> authorization;
};
ForwardOrigin OriginOf(const RestRequest& request);

// Builds the local response from the remote worker's 2xx answer (body: see the file comment).
using RemoteTranslator = std::function<RestResponse(int status, std::optional<std::string> body)>;

// A RemoteTranslator answering `status` with the remote body (or no body).
RemoteTranslator RemoteBodyAs(int status);

// The URL a request is forwarded to: `target` (a worker's REST URL) + path + forward + query.
std::string ForwardUrl(const std::string& target, const ForwardOrigin& origin,
                       const ForwardRequest& forward);

// Answers `respond` for the failed herder call `error` (REQUIRES: !error.ok()), forwarding it
// through `client` when the herder asks for that. `client` may be null: forwarding then fails
// as an IO error.
void CompleteOrForward(RestClient* client, const absl::Status& error, const ForwardOrigin& origin,
                       ForwardRequest forward, Responder respond, RemoteTranslator on_remote);

}  // namespace connectd::rest
