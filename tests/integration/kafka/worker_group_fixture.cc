#include "tests/integration/kafka/worker_group_fixture.h"

#include <librdkafka/rdkafka.h>

#include <future>
#include <set>
#include <utility>

#include <gmock/gmock.h>

#include "jvm/java_client_config.h"
#include "tests/common/kafka_test_env.h"

namespace connectd::distributed {

using kafka::protocol::BrokerConnection;
using kafka::protocol::SecurityConfig;

absl::StatusOr<SecurityConfig> SecurityFromJava(const std::map<std::string, std::string>& java) {
  jvm::TranslatedConfig translated = jvm::TranslateJavaClientConfig(java, jvm::ClientRole::kAdmin);
  EXPECT_THAT(translated.warnings, ::testing::IsEmpty());
  return SecurityConfig::FromProperties(translated.properties);
}

void GrantGroupAcls(const std::string& plaintext_bootstrap, const std::string& principal,
                    const std::string& group_prefix) {
  char errstr[512];
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  ASSERT_EQ(rd_kafka_conf_set(conf, "bootstrap.servers", plaintext_bootstrap.c_str(), errstr,
                              sizeof errstr),
            RD_KAFKA_CONF_OK);
  std::unique_ptr<rd_kafka_t, decltype(&rd_kafka_destroy)> admin(
      rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof errstr), &rd_kafka_destroy);
  ASSERT_NE(admin, nullptr) << errstr;
  std::vector<rd_kafka_AclBinding_t*> acls;
  for (rd_kafka_AclOperation_t op :
       {RD_KAFKA_ACL_OPERATION_READ, RD_KAFKA_ACL_OPERATION_DESCRIBE}) {
    acls.push_back(rd_kafka_AclBinding_new(
        RD_KAFKA_RESOURCE_GROUP, group_prefix.c_str(), RD_KAFKA_RESOURCE_PATTERN_PREFIXED,
        principal.c_str(), "*", op, RD_KAFKA_ACL_PERMISSION_TYPE_ALLOW, errstr, sizeof errstr));
    ASSERT_NE(acls.back(), nullptr) << errstr;
  }
  rd_kafka_queue_t* queue = rd_kafka_queue_new(admin.get());
  rd_kafka_CreateAcls(admin.get(), acls.data(), acls.size(), nullptr, queue);
  rd_kafka_event_t* event = rd_kafka_queue_poll(queue, 30000);
  ASSERT_NE(event, nullptr) << "CreateAcls timed out";
  EXPECT_EQ(rd_kafka_event_error(event), RD_KAFKA_RESP_ERR_NO_ERROR)
      << rd_kafka_event_error_string(event);
  size_t n = 0;
  const rd_kafka_acl_result_t** results =
      rd_kafka_CreateAcls_result_acls(rd_kafka_event_CreateAcls_result(event), &n);
  for (size_t i = 0; i < n; ++i) {
    const rd_kafka_error_t* error = rd_kafka_acl_result_error(results[i]);
    EXPECT_EQ(error, nullptr) << rd_kafka_error_string(error);
  }
  rd_kafka_event_destroy(event);
  rd_kafka_queue_destroy(queue);
  rd_kafka_AclBinding_destroy_array(acls.data(), acls.size());
}

std::vector<kafka::protocol::JoinGroupRequest::Protocol> ErrorRecordingListener::JoinMetadata() {
  return {{"sessioned", "meta"}};
}

absl::StatusOr<std::map<std::string, std::string>> ErrorRecordingListener::PerformAssignment(
    int32_t, const std::string&, const std::string&,
    const std::vector<kafka::protocol::JoinGroupResponse::Member>& members) {
  std::map<std::string, std::string> out;
  for (const auto& m : members) out[m.member_id] = "x";
  return out;
}

void ErrorRecordingListener::OnJoinComplete(int32_t, const std::string&, const std::string&,
                                            const std::string&) {
  std::lock_guard lock(mu_);
  joined_ = true;
}

void ErrorRecordingListener::OnGroupError(const absl::Status& error) {
  std::lock_guard lock(mu_);
  errors_.push_back(error);
  cv_.notify_all();
}

std::optional<absl::Status> ErrorRecordingListener::AwaitError(std::chrono::seconds timeout) {
  std::unique_lock lock(mu_);
  cv_.wait_for(lock, timeout, [&] { return !errors_.empty(); });
  return errors_.empty() ? std::nullopt : std::optional<absl::Status>(errors_.front());
}

bool ErrorRecordingListener::joined() {
  std::lock_guard lock(mu_);
  return joined_;
}

AssignmentEvent WorkerGroupFixture::Worker::Last() {
  std::lock_guard lock(mu);
  return events.back();
}

size_t WorkerGroupFixture::Worker::Count() {
  std::lock_guard lock(mu);
  return events.size();
}

WorkerGroupFixture::WorkerGroupFixture(std::string client_id, const std::string& group_prefix)
    : client_id_(std::move(client_id)), group_(testing::UniqueName(group_prefix)) {}

void WorkerGroupFixture::SetUp() {
  thread_ = std::thread([this] { io_.run(); });
}

void WorkerGroupFixture::TearDown() {
  for (auto& w : workers_) StopAndWait(*w->member);
  work_.reset();
  io_.stop();
  if (thread_.joinable()) thread_.join();
}

void WorkerGroupFixture::UseBootstrap(const std::string& bootstrap) {
  bootstrap_ = bootstrap;
  size_t colon = bootstrap_.rfind(':');
  port_ = static_cast<uint16_t>(std::stoi(bootstrap_.substr(colon + 1)));
}

void WorkerGroupFixture::StopAndWait(GroupMember& member) {
  std::promise<void> stopped;
  member.Stop([&stopped] { stopped.set_value(); });
  stopped.get_future().wait();
}

absl::Status WorkerGroupFixture::Connect(const std::string& host, const SecurityConfig& security,
                                         std::shared_ptr<BrokerConnection>* out) {
  BrokerConnection::Options options;
  options.host = host;
  options.port = port_;
  options.security = security;
  options.client_id = client_id_;
  options.request_timeout = std::chrono::milliseconds(10000);
  auto connection = BrokerConnection::Create(io_, options);
  std::promise<absl::Status> connected;
  connection->Connect([&connected](absl::Status s) { connected.set_value(s); });
  absl::Status status = connected.get_future().get();
  if (out != nullptr) *out = connection;
  return status;
}

GroupMemberConfig WorkerGroupFixture::GroupConfig(const SecurityConfig& security) {
  GroupMemberConfig config;
  config.group_id = group_;
  config.client_id = client_id_;
  config.session_timeout = std::chrono::milliseconds(6000);
  config.heartbeat_interval = std::chrono::milliseconds(300);
  config.rebalance_timeout = std::chrono::milliseconds(10000);
  config.request_timeout = std::chrono::milliseconds(10000);
  EXPECT_TRUE(config.SetBootstrap(bootstrap_).ok());
  config.security = security;
  return config;
}

WorkerGroupFixture::Worker& WorkerGroupFixture::StartWorker(const std::string& url,
                                                            ConnectProtocolMode mode,
                                                            const GroupMemberConfig& config) {
  auto worker = std::make_unique<Worker>();
  Worker* w = worker.get();
  WorkerCoordinator::Callbacks callbacks;
  callbacks.snapshot = [] {
    return ConfigSnapshotView{kConfigOffset,
                              {{"alpha", {0, 1}}, {"beta", {0, 1}}, {"gamma", {0, 1}}}};
  };
  callbacks.on_assignment = [w](const AssignmentEvent& e) {
    std::lock_guard lock(w->mu);
    w->events.push_back(e);
  };
  callbacks.on_error = [w](const absl::Status& s) {
    std::lock_guard lock(w->mu);
    w->errors.push_back(s.ToString());
  };
  callbacks.request_rejoin = [w](std::string reason) { w->member->RequestRejoin(reason); };
  auto coordinator = WorkerCoordinator::Create(url, mode, 0, callbacks, [] { return 0; });
  EXPECT_TRUE(coordinator.ok());
  w->coordinator = *std::move(coordinator);
  w->member = GroupMember::Create(io_, config, w->coordinator.get());
  w->member->Start();
  workers_.push_back(std::move(worker));
  return *w;
}

std::vector<size_t> WorkerGroupFixture::AwaitStableSplit(std::chrono::seconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    std::set<int32_t> generations;
    std::multiset<std::string> items;
    std::vector<size_t> loads;
    for (auto& w : workers_) {
      std::lock_guard lock(w->mu);
      if (w->events.empty()) break;
      const AssignmentEvent& e = w->events.back();
      generations.insert(e.generation);
      loads.push_back(e.complete.connectors.size() + e.complete.tasks.size());
      for (const auto& c : e.complete.connectors) items.insert("connector " + c);
      for (const auto& t : e.complete.tasks) {
        items.insert("task " + t.connector + "-" + std::to_string(t.task));
      }
    }
    if (loads.size() != workers_.size() || generations.size() != 1 || items.size() != 9) {
      continue;
    }
    if (std::set<std::string>(items.begin(), items.end()).size() == 9) return loads;
  }
  return {};
}

}  // namespace connectd::distributed
