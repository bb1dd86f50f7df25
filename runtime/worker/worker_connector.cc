#include "runtime/worker/worker_connector.h"

#include "absl/strings/str_cat.h"
#include "runtime/common/logging.h"

namespace connectd::worker {
namespace {
constexpr char kLogger[] = "org.apache.kafka.connect.runtime.WorkerConnector";
}  // namespace

WorkerConnector::WorkerConnector(std::string name, const plugin::ConnectorPlugin& plugin,
                                 plugin::Props resolved_config, StatusListener& listener,
                                 ConnectorEvents& events, metrics::MetricsRegistry& metrics)
    : name_(std::move(name)),
      plugin_(plugin),
      config_(std::move(resolved_config)),
      listener_(listener),
      events_(events),
      metrics_scope_(&metrics) {}

WorkerConnector::~WorkerConnector() { Shutdown(); }

void WorkerConnector::Fail(const absl::Status& status) {
  failed_ = true;
  CONNECTD_LOG(kError, kLogger) << "[" << name_ << "] Connector failed: " << status.message();
  listener_.OnConnectorState(name_, State::kFailed, std::string(status.message()));
}

absl::Status WorkerConnector::Initialize(herder::TargetState state) {
  log::LogContext context(name_);
  absl::StatusOr<std::unique_ptr<plugin::ConnectorInstance>> instance =
      plugin::ConnectorInstance::Create(plugin_, this);
  if (!instance.ok()) {
    Fail(instance.status());
    return instance.status();
  }
  instance_ = *std::move(instance);
  Transition(state);
  return failed_ ? absl::InternalError(absl::StrCat("Connector ", name_, " failed to start"))
                 : absl::OkStatus();
}

void WorkerConnector::Transition(herder::TargetState state) {
  log::LogContext context(name_);
  if (!instance_) return;
  if (state == herder::TargetState::kStarted) {
    if (!started_) {
      absl::Status started = instance_->Start(config_);
      if (!started.ok()) {
        Fail(started);
        return;
      }
      started_ = true;
      failed_ = false;
      CONNECTD_LOG(kInfo, kLogger) << "Started connector " << name_;
    }
    listener_.OnConnectorState(name_, State::kRunning, std::nullopt);
    return;
  }
  // PAUSED and STOPPED both stop the instance (Connect stops a paused connector's instance).
  if (started_) {
    absl::Status stopped = instance_->Stop();
    started_ = false;
    if (!stopped.ok()) {
      Fail(stopped);
      return;
    }
  }
  listener_.OnConnectorState(
      name_, state == herder::TargetState::kPaused ? State::kPaused : State::kStopped,
      std::nullopt);
}

absl::StatusOr<plugin::TaskConfigList> WorkerConnector::TaskConfigs(int max_tasks,
                                                                    bool enforce_max) {
  log::LogContext context(name_);
  if (!instance_ || !started_) {
    return absl::FailedPreconditionError(absl::StrCat("Connector ", name_, " is not running"));
  }
  absl::StatusOr<plugin::TaskConfigList> configs = instance_->TaskConfigs(max_tasks);
  // Retriable (the ABI's UNAVAILABLE, the SDK's RetriableException): the connector keeps
  // running and the herder asks again after a backoff, as Connect retries task generation.
  if (!configs.ok() && !absl::IsUnavailable(configs.status())) Fail(configs.status());
  if (!configs.ok()) return configs.status();
  if (static_cast<int>(configs->size()) > max_tasks) {
    absl::Status too_many = absl::InvalidArgumentError(
        absl::StrCat("The connector ", name_, " has generated ", configs->size(),
                     " tasks, which is greater than ", max_tasks,
                     ", the maximum number of tasks it is configured to create. "));
    if (enforce_max) {
      Fail(too_many);
      return too_many;
    }
    CONNECTD_LOG(kWarn, kLogger) << too_many.message();
  }
  return configs;
}

void WorkerConnector::Shutdown() {
  if (instance_ && started_) {
    log::LogContext context(name_);
    absl::Status stopped = instance_->Stop();
    if (!stopped.ok()) {
      CONNECTD_LOG(kError, kLogger)
          << "Error while shutting down connector " << name_ << ": " << stopped.message();
    }
  }
  started_ = false;
  instance_.reset();
}

void WorkerConnector::RequestTaskReconfiguration() { events_.OnTaskReconfigurationRequest(name_); }

void WorkerConnector::RaiseError(std::string message) {
  Fail(absl::InternalError(std::move(message)));
}

}  // namespace connectd::worker
