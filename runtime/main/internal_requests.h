// File: internal_requests.h
//
// What a follower sends its leader in Connect's distributed mode: the task configs of a
// connector it owns (POST .../connectors/{c}/tasks) and zombie-fencing requests (PUT
// .../connectors/{c}/fence), signed with the session key as Connect signs them (KIP-507). Shared
// by `connectd distributed` and `connectd mirror-maker`, whose herders prefix the path with their
// flow's namespace (Java's DistributedHerder.namespacedUrl).
//
// Threads: Send* may be called from any thread; `done` runs on the RestClient's io_context.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "rest/rest_client.h"
#include "runtime/distributed/request_signing.h"

namespace connectd::main {

// {leader_url}{namespace_path}/connectors/{connector}/{suffix}, signed when `key` is set (the
// `sessioned` protocol). `done` gets OK for a 2xx answer, kUnavailable naming the leader's
// answer otherwise, or the transport error.
void SendSignedToLeader(rest::RestClient& client, const std::string& leader_url,
                        const std::string& namespace_path, const std::string& connector,
                        const std::string& method, const std::string& suffix, std::string body,
                        const std::optional<storage::SessionKey>& key,
                        const std::string& signature_algorithm,
                        std::function<void(absl::Status)> done);

}  // namespace connectd::main
