// File: connectd/sdk/connector.h
//
// Connector base classes, as in Kafka Connect. A connector class also declares, statically:
//   static constexpr char kClassName[] = "org.example.MySourceConnector";  // Connect's name
//   static constexpr char kVersion[] = "1.0.0";
//   static connectd::sdk::ConfigDef configDef();
//   using TaskType = MySourceTask;
// and is listed in the plugin's CONNECTD_PLUGIN(...) declaration (connectd/sdk/plugin.h).
//
// Threads: every method runs on a worker thread, one call at a time per instance.
// Errors: throw ConnectException (fatal) or RetriableException (connectd/sdk/errors.h).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "connectd/plugin/abi.h"
#include "connectd/sdk/host.h"
#include "connectd/sdk/metrics.h"

namespace connectd::sdk {

using Props = std::map<std::string, std::string>;

inline Props FromAbi(connectd_props props) {
  Props out;
  for (size_t i = 0; i < props.count; ++i) {
    out.emplace(FromStr(props.items[i].key), FromStr(props.items[i].value));
  }
  return out;
}

// Connect's ConnectorContext.
class ConnectorContext {
 public:
  explicit ConnectorContext(connectd_connector_context_host_ptr* context) : context_(context) {}
  // Asks the runtime to call taskConfigs again and restart the tasks if they changed.
  void requestTaskReconfiguration() { Host().connector_request_task_reconfiguration(context_); }
  // Fails the connector (it becomes FAILED with `message`) from any thread.
  void raiseError(const std::string& message) {
    Host().connector_raise_error(context_, ToStr(message));
  }
  // The connector's metrics scope (inert on hosts older than ABI 1.3).
  Metrics metrics() {
    return Metrics(HostHasMetrics() ? Host().connector_metrics(context_) : nullptr);
  }

 private:
  connectd_connector_context_host_ptr* context_;
};

// The errors Connector::validate reports, per key.
class Validation {
 public:
  explicit Validation(connectd_validation_host_ptr* validation) : validation_(validation) {}
  void addError(const std::string& name, const std::string& message) {
    Host().validation_add_error(validation_, ToStr(name), ToStr(message));
  }

 private:
  connectd_validation_host_ptr* validation_;
};

// One entry of an offsets alteration (KIP-875); `offset` absent means reset.
struct OffsetChange {
  std::string partition;            // JSON object
  std::optional<std::string> offset;  // JSON object, or nullopt for a reset
};

class Connector {
 public:
  virtual ~Connector() = default;

  // Connector.start with the validated connector config as stored (config-provider references
  // resolved; defaults are not filled in, as in Java).
  virtual void start(const Props& props) = 0;
  // At most `max_tasks` task configs. The worker adds `task.class` (derived from the class name,
  // ...Connector -> ...Task, unless a config sets it) and the connector's `topics`/`topics.regex`
  // to each, as Java's Worker does; a connector with a Java twin returns exactly the maps the
  // Java connector's taskConfigs returns, so that Java and connectd workers sharing a config
  // topic agree on them.
  virtual std::vector<Props> taskConfigs(int max_tasks) = 0;
  virtual void stop() = 0;
  // Extra validation after the host checked every key against configDef(). Unstarted instance.
  virtual void validate(const Props& /*props*/, Validation& /*validation*/) {}
  // KIP-875. Return true if this connector accepts the change; unstarted instance.
  virtual bool alterOffsets(const Props& /*config*/, const std::vector<OffsetChange>& /*changes*/) {
    return false;
  }

  ConnectorContext& context() { return *context_; }

 private:
  template <typename C>
  friend struct ConnectorTrampolines;
  std::optional<ConnectorContext> context_;
};

// Connect's ExactlyOnceSupport; kNone is Java's null (the connector does not say).
enum class ExactlyOnceSupport { kNone, kSupported, kUnsupported };

class SourceConnector : public Connector {
 public:
  static constexpr int32_t kType = CONNECTD_CONNECTOR_TYPE_SOURCE;

  // KIP-618 (ABI 1.4): whether this connector, with `config`, can run with exactly-once
  // semantics; asked on an unstarted instance when exactly.once.support=required is validated.
  virtual ExactlyOnceSupport exactlyOnceSupport(const Props& /*config*/) {
    return ExactlyOnceSupport::kNone;
  }
};

class SinkConnector : public Connector {
 public:
  static constexpr int32_t kType = CONNECTD_CONNECTOR_TYPE_SINK;
};

}  // namespace connectd::sdk
