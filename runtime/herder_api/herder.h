// File: herder.h
//
// Herder: the interface the REST API (and the CLI) uses to manage a worker's connectors, as
// Kafka Connect's Herder does. StandaloneHerder and DistributedHerder implement it; rest/ sees
// only this header.
//
// Calls that Connect runs on its herder thread complete through a callback; the callback may be
// invoked on any thread (the REST layer posts the result back to its own executor) and is
// invoked exactly once. Calls that Connect answers from its local snapshot are synchronous and
// thread-safe.
//
// Errors: absl::Status with the most specific code (kNotFound 404, kAlreadyExists 409,
// kInvalidArgument 400, kFailedPrecondition 409, kUnavailable 503, others 500). Where Connect
// answers with a status the code cannot express (for example 400 for offsets of a running
// connector, 403 for disabled topic tracking), the Status carries it with WithHttpStatus().
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "runtime/herder_api/herder_types.h"

namespace connectd::herder {

template <typename T>
using Callback = std::function<void(absl::StatusOr<T>)>;
using DoneCallback = std::function<void(absl::Status)>;

// Attaches the exact HTTP status a REST client must see; HttpStatusOf reads it back.
absl::Status WithHttpStatus(absl::Status status, int http_status);
std::optional<int> HttpStatusOf(const absl::Status& status);

// Distributed mode: the request must be served by another worker, the leader (Java's
// NotLeaderException) or the owner of a connector or task (NotAssignedException). The REST layer
// forwards it to `url` (HerderRequestHandler.completeOrForwardRequest). An empty `url` means no leader is known
// (mid-rebalance): REST answers 409. The Status alone maps to 409 with `message`.
absl::Status ForwardRequiredError(std::string_view message, std::string_view url);
// The URL a request must be forwarded to, if `status` is a ForwardRequiredError.
std::optional<std::string> ForwardTargetOf(const absl::Status& status);

// A rebalance is pending, so the herder's view may be stale (Java's RebalanceNeededException).
// Endpoints that forward answer 409 "...stale configuration..."; the read-only herder-queue
// endpoints answer 500 with this message.
absl::Status RebalanceNeededError();
bool IsRebalanceNeeded(const absl::Status& status);

// The KIP-507 signature of an internal request, as read from its headers; verified by the
// herder, which holds the session key.
struct InternalRequestSignature {
  std::string algorithm;  // X-Connect-Request-Signature-Algorithm, e.g. "HmacSHA256"
  std::string signature;  // X-Connect-Authorization: Base64 of the MAC
  std::string body;       // the exact request body bytes the MAC covers
};

class Herder {
 public:
  virtual ~Herder() = default;

  // ---- Connectors ---------------------------------------------------------------------------
  virtual void ListConnectors(Callback<std::vector<std::string>> done) = 0;
  virtual void GetConnectorInfo(const std::string& name, Callback<ConnectorInfo> done) = 0;
  virtual void GetConnectorConfig(const std::string& name, Callback<ConfigMap> done) = 0;

  // Creates (allow_replace false: kAlreadyExists if present) or creates-or-updates a connector.
  // `config` includes "name". `initial_state` only applies to a new connector.
  virtual void PutConnectorConfig(const std::string& name, const ConfigMap& config,
                                  std::optional<TargetState> initial_state, bool allow_replace,
                                  Callback<Created> done) = 0;
  // Applies a partial update: a value of nullopt removes the key.
  virtual void PatchConnectorConfig(const std::string& name,
                                    const std::map<std::string, std::optional<std::string>>& patch,
                                    Callback<ConnectorInfo> done) = 0;
  virtual void DeleteConnector(const std::string& name, DoneCallback done) = 0;

  virtual void GetTaskConfigs(const std::string& name, Callback<std::vector<TaskInfo>> done) = 0;

  // ---- Status (local snapshot) ---------------------------------------------------------------
  virtual absl::StatusOr<ConnectorStateInfo> ConnectorStatus(const std::string& name) = 0;
  virtual absl::StatusOr<TaskStateInfo> TaskStatus(const ConnectorTaskId& id) = 0;

  // ---- Lifecycle -----------------------------------------------------------------------------
  // Legacy restart of the connector instance only (204).
  virtual void RestartConnector(const std::string& name, DoneCallback done) = 0;
  // KIP-745 restart; answers the plan (202).
  virtual void Restart(const RestartRequest& request, Callback<ConnectorStateInfo> done) = 0;
  virtual void RestartTask(const ConnectorTaskId& id, DoneCallback done) = 0;
  virtual absl::Status PauseConnector(const std::string& name) = 0;
  virtual absl::Status ResumeConnector(const std::string& name) = 0;
  virtual void StopConnector(const std::string& name, DoneCallback done) = 0;

  // ---- Topics and offsets --------------------------------------------------------------------
  virtual absl::StatusOr<std::vector<std::string>> ConnectorActiveTopics(
      const std::string& name) = 0;
  virtual absl::Status ResetConnectorActiveTopics(const std::string& name) = 0;
  virtual void GetConnectorOffsets(const std::string& name, Callback<ConnectorOffsets> done) = 0;
  // Answers Connect's success message.
  virtual void AlterConnectorOffsets(const std::string& name, const ConnectorOffsets& offsets,
                                     Callback<std::string> done) = 0;
  virtual void ResetConnectorOffsets(const std::string& name, Callback<std::string> done) = 0;

  // ---- Plugins and validation ----------------------------------------------------------------
  virtual std::vector<PluginInfo> ConnectorPlugins(bool connectors_only) = 0;
  // `version`: ?version= (KIP-891), a version or range; nullopt for the newest.
  virtual absl::StatusOr<std::vector<ConfigKeyInfo>> ConnectorPluginConfig(
      const std::string& plugin, const std::optional<std::string>& version) = 0;
  virtual void ValidateConnectorConfig(const ConfigMap& config, Callback<ConfigInfos> done) = 0;

  // ---- Worker --------------------------------------------------------------------------------
  virtual ServerInfo GetServerInfo() = 0;
  // Runs a no-op through the herder's own thread: OK if it is alive.
  virtual void Health(DoneCallback done) = 0;
  // True once startup finished (before that /health answers 503 "starting").
  virtual bool Ready() = 0;
  // When this worker last joined its group in a new generation (ms since the epoch; 0: never, or
  // no group, as in standalone mode): member churn that a connector's own statuses may not show
  // (a worker owning none of its tasks leaving and joining). Any thread.
  virtual int64_t LastRebalanceMs() { return 0; }
  // Cluster-scope logger level (distributed: a config-topic record; standalone: this worker).
  virtual absl::Status SetClusterLoggerLevel(const std::string& logger,
                                             const std::string& level) = 0;

  // ---- Internal (worker to worker) -------------------------------------------------------------
  // POST /connectors/{c}/tasks: a follower hands the leader the task configs its connector
  // generated. `signature` is nullopt when the request carried no signature headers.
  // Standalone: 500 "...does not support externally setting task configurations."
  virtual void PutTaskConfigs(const std::string& name, const std::vector<ConfigMap>& configs,
                              std::optional<InternalRequestSignature> signature, DoneCallback done);
  // PUT /connectors/{c}/fence (KIP-618 zombie fencing).
  // Standalone: 500 "...does not support exactly-once source connectors."
  virtual void FenceZombieSourceTasks(const std::string& name,
                                      std::optional<InternalRequestSignature> signature,
                                      DoneCallback done);
};

}  // namespace connectd::herder
