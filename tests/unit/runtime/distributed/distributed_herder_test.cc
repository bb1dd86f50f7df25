// DistributedHerder through its Herder interface, as rest/ drives it, without a broker: workers
// in one process share in-memory internal topics (MemoryTopics: the real Kafka-backed stores
// over an in-memory log) and meet in a fake group coordinator (FakeGroup: the real
// WorkerCoordinator and incremental cooperative assignor driven as GroupMember drives them).
// Each worker runs a real Worker with in-memory SDK connectors. Asserts what a REST client and
// an operator see: statuses and their worker ids, forwarding to the leader, signed task configs,
// work handed over when a worker leaves, and state rebuilt from the topics by a new worker.
#include "runtime/distributed/distributed_herder.h"

#include <chrono>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <boost/asio/executor_work_guard.hpp>

#include "rest/error_mapping.h"
#include "runtime/distributed/request_signing.h"
#include "tests/unit/runtime/distributed/fake_group.h"
#include "tests/unit/runtime/distributed/memory_topics.h"
#include "tests/unit/runtime/herder/herder_test_support.h"

namespace connectd::distributed {
namespace {

using herder::test_support::Await;
using herder::test_support::AwaitDone;
using herder::test_support::IdleSourceRegistry;
using herder::test_support::StatesOf;
using herder::test_support::WaitFor;
using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::IsSupersetOf;

constexpr char kConfigTopic[] = "connect-configs";
constexpr char kStatusTopic[] = "connect-status";
constexpr char kOffsetTopic[] = "connect-offsets";

std::string Url(int port) { return "http://127.0.0.1:" + std::to_string(port) + "/"; }
std::string WorkerId(int port) { return "127.0.0.1:" + std::to_string(port); }

class DistributedHerderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<config::WorkerConfig> config = config::WorkerConfig::Create(
        {{"bootstrap.servers", "127.0.0.1:1"},  // never reached: the tasks send nothing
         {"group.id", "connect-test"},
         {"config.storage.topic", kConfigTopic},
         {"status.storage.topic", kStatusTopic},
         {"offset.storage.topic", kOffsetTopic},
         {"key.converter", "org.apache.kafka.connect.storage.StringConverter"},
         {"value.converter", "org.apache.kafka.connect.storage.StringConverter"}},
        config::WorkerMode::kDistributed);
    ASSERT_TRUE(config.ok()) << config.status();
    config_ = std::make_unique<config::WorkerConfig>(*std::move(config));
    topics_ = storage::MemoryTopics::Create();
    group_ = FakeGroup::Create(control_);
    control_thread_ = std::thread([this] { control_.run(); });
  }

  void TearDown() override {
    for (auto& [port, herder] : herders_) herder->Stop();
    herders_.clear();
    work_.reset();
    control_thread_.join();
  }

  // Starts a worker on (pretend) REST port `port`; it joins the group.
  DistributedHerder& StartWorker(int port) {
    DistributedHerder::Options options;
    options.kafka_cluster_id = "memory-cluster";
    options.group.group_id = "connect-test";
    options.config_log.topic = kConfigTopic;
    options.status_log.topic = kStatusTopic;
    options.status_log.topic_property = "status.storage.topic";
    options.status_log.partitions = 5;
    options.offset_log.topic = kOffsetTopic;
    options.offset_log.topic_property = "offset.storage.topic";
    options.offset_log.partitions = 25;
    // A departed worker's work waits this long for it to come back (Connect's default: 5 min).
    options.scheduled_rebalance_max_delay_ms = 300;
    options.open_log = topics_->Opener();
    options.join_group = group_->MakeJoiner();
    auto herder = std::make_unique<DistributedHerder>(
        options, *IdleSourceRegistry(), control_,
        [this](worker::StatusListener& listener, worker::ConnectorEvents& events,
               const std::string& worker_id, worker::OffsetStoreFactory offsets) {
          absl::StatusOr<config::ConfigProviders> providers = config::ConfigProviders::Create({});
          return std::make_unique<worker::Worker>(*config_, *IdleSourceRegistry(),
                                                  *std::move(providers), std::move(offsets),
                                                  listener, events, worker_id, metrics_);
        },
        [this](const std::string& leader_url, const std::string& connector,
               const std::vector<herder::ConfigMap>& configs,
               const std::optional<storage::SessionKey>& key,
               std::function<void(absl::Status)> done) {
          ForwardTaskConfigs(leader_url, connector, configs, key, std::move(done));
        });
    herder->SetWorkerId(WorkerId(port));
    herder->SetAdvertisedUrl(Url(port));
    absl::Status started = herder->Start();
    EXPECT_TRUE(started.ok()) << started;
    DistributedHerder& out = *herder;
    herders_[port] = std::move(herder);
    return out;
  }

  void StopWorker(int port) {
    herders_.at(port)->Stop();
    herders_.erase(port);
  }

  // What a follower's REST client does (POST {leader}connectors/{c}/tasks): signs a body with
  // the session key and hands it to the leader's herder.
  void ForwardTaskConfigs(const std::string& leader_url, const std::string& connector,
                          const std::vector<herder::ConfigMap>& configs,
                          const std::optional<storage::SessionKey>& key,
                          std::function<void(absl::Status)> done) {
    ++forwarded_;
    DistributedHerder* leader = nullptr;
    for (auto& [port, herder] : herders_) {
      if (Url(port) == leader_url) leader = herder.get();
    }
    if (leader == nullptr) return done(absl::UnavailableError("no worker at " + leader_url));
    std::optional<herder::InternalRequestSignature> signature;
    if (key) {
      const std::string body = "task configs of " + connector;
      absl::StatusOr<std::string> mac = Sign(key->key, "HmacSHA256", body);
      if (!mac.ok()) return done(mac.status());
      signature = herder::InternalRequestSignature{"HmacSHA256", *mac, body};
    }
    leader->PutTaskConfigs(connector, configs, signature, std::move(done));
  }

  // PUT /connectors/{name}/config as the REST layer serves it: a follower's answer names the
  // leader, and the request goes there.
  absl::StatusOr<herder::Created> Put(herder::Herder& herder, const std::string& name,
                                      herder::ConfigMap config, bool allow_replace = false) {
    config["name"] = name;
    auto put = [&](herder::Herder& target) {
      return Await<herder::Created>([&](herder::Callback<herder::Created> done) {
        target.PutConnectorConfig(name, config, std::nullopt, allow_replace, std::move(done));
      });
    };
    absl::StatusOr<herder::Created> created = put(herder);
    if (created.ok()) return created;
    std::optional<std::string> leader = herder::ForwardTargetOf(created.status());
    if (!leader) return created;
    for (auto& [port, worker] : herders_) {
      if (Url(port) == *leader) return put(*worker);
    }
    return created;
  }

  // Waits until every worker has applied a round.
  bool AwaitReady() {
    return WaitFor(
               [&] {
                 for (auto& [port, herder] : herders_) {
                   if (!herder->Ready()) return std::string("not ready");
                 }
                 return std::string("ready");
               },
               "ready") == "ready";
  }

  // "<state>@<worker id>" of the connector, then of each task: who runs what.
  std::string Placement(herder::Herder& herder, const std::string& name) {
    absl::StatusOr<herder::ConnectorStateInfo> info = herder.ConnectorStatus(name);
    if (!info.ok()) return std::string(info.status().message());
    std::string out = info->connector.state + "@" + info->connector.worker_id + "/";
    for (const herder::TaskStateInfo& task : info->tasks) {
      out += task.state.state + "@" + task.state.worker_id + " ";
    }
    return out;
  }

  std::set<std::string> Keys(const std::string& topic) {
    std::set<std::string> keys;
    for (const storage::LogRecord& record : topics_->Records(topic)) {
      if (record.key) keys.insert(*record.key);
    }
    return keys;
  }

  static herder::ConfigMap Source(int tasks) {
    return {
        {"connector.class", "IdleSource"}, {"tasks.max", std::to_string(tasks)}, {"topic", "t"}};
  }

  boost::asio::io_context control_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_{
      control_.get_executor()};
  std::thread control_thread_;
  std::unique_ptr<config::WorkerConfig> config_;
  std::shared_ptr<storage::MemoryTopics> topics_;
  std::shared_ptr<FakeGroup> group_;
  metrics::MetricsRegistry metrics_;
  std::map<int, std::unique_ptr<DistributedHerder>> herders_;  // by REST port
  std::atomic<int> forwarded_{0};
};

TEST_F(DistributedHerderTest, OneWorkerKeepsItsConnectorsInTheInternalTopics) {
  DistributedHerder& first = StartWorker(8083);
  ASSERT_TRUE(AwaitReady());
  absl::StatusOr<herder::Created> created = Put(first, "src", Source(2));
  ASSERT_TRUE(created.ok()) << created.status();
  EXPECT_TRUE(created->created);
  EXPECT_EQ(WaitFor([&] { return StatesOf(first, "src"); }, "RUNNING/RUNNING,RUNNING"),
            "RUNNING/RUNNING,RUNNING");
  EXPECT_EQ(Placement(first, "src"),
            "RUNNING@127.0.0.1:8083/RUNNING@127.0.0.1:8083 RUNNING@127.0.0.1:8083 ");

  // Java's record keys, so a Java worker reading these topics sees the same cluster.
  EXPECT_THAT(Keys(kConfigTopic), IsSupersetOf({"connector-src", "task-src-0", "task-src-1",
                                                "commit-src", "session-key"}));
  EXPECT_THAT(Keys(kStatusTopic),
              IsSupersetOf({"status-connector-src", "status-task-src-0", "status-task-src-1"}));

  // A new worker over the same topics (the first one gone) runs what the topics hold.
  StopWorker(8083);
  DistributedHerder& second = StartWorker(8084);
  ASSERT_TRUE(AwaitReady());
  EXPECT_EQ(WaitFor([&] { return Placement(second, "src"); },
                    "RUNNING@127.0.0.1:8084/RUNNING@127.0.0.1:8084 RUNNING@127.0.0.1:8084 "),
            "RUNNING@127.0.0.1:8084/RUNNING@127.0.0.1:8084 RUNNING@127.0.0.1:8084 ");
  absl::StatusOr<herder::ConfigMap> config =
      Await<herder::ConfigMap>([&](herder::Callback<herder::ConfigMap> done) {
        second.GetConnectorConfig("src", std::move(done));
      });
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->at("tasks.max"), "2");
}

TEST_F(DistributedHerderTest, FollowerSendsWritesToTheLeaderAndWorkIsShared) {
  DistributedHerder& leader = StartWorker(8083);
  ASSERT_TRUE(AwaitReady());
  DistributedHerder& follower = StartWorker(8084);
  ASSERT_TRUE(AwaitReady());

  // The follower does not write connector configs; its answer names the leader.
  absl::StatusOr<herder::Created> refused =
      Await<herder::Created>([&](herder::Callback<herder::Created> done) {
        herder::ConfigMap config = Source(2);
        config["name"] = "a";
        follower.PutConnectorConfig("a", config, std::nullopt, false, std::move(done));
      });
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(herder::ForwardTargetOf(refused.status()), Url(8083));
  EXPECT_EQ(rest::HttpStatusFor(refused.status()), 409);

  ASSERT_TRUE(Put(follower, "a", Source(2)).ok());
  ASSERT_TRUE(Put(follower, "b", Source(2)).ok());
  for (const char* name : {"a", "b"}) {
    EXPECT_EQ(WaitFor([&] { return StatesOf(leader, name); }, "RUNNING/RUNNING,RUNNING"),
              "RUNNING/RUNNING,RUNNING")
        << name;
  }
  // Both workers answer for the cluster, and each runs one connector and two tasks.
  std::multiset<std::string> connectors_on;
  std::multiset<std::string> tasks_on;
  for (const char* name : {"a", "b"}) {
    absl::StatusOr<herder::ConnectorStateInfo> info = follower.ConnectorStatus(name);
    ASSERT_TRUE(info.ok()) << info.status();
    connectors_on.insert(info->connector.worker_id);
    for (const herder::TaskStateInfo& task : info->tasks) tasks_on.insert(task.state.worker_id);
  }
  EXPECT_EQ(connectors_on.count(WorkerId(8083)), 1u);
  EXPECT_EQ(connectors_on.count(WorkerId(8084)), 1u);
  EXPECT_EQ(tasks_on.count(WorkerId(8083)), 2u);
  EXPECT_EQ(tasks_on.count(WorkerId(8084)), 2u);
  // The follower's connector generated its task configs; the leader wrote them.
  EXPECT_GE(forwarded_.load(), 1);
}

TEST_F(DistributedHerderTest, TaskConfigsNeedTheSessionKeysSignature) {
  DistributedHerder& leader = StartWorker(8083);
  ASSERT_TRUE(AwaitReady());
  // The leader writes the session key the group signs with.
  ASSERT_EQ(WaitFor([&] { return std::to_string(Keys(kConfigTopic).count("session-key")); }, "1"),
            "1");
  std::vector<herder::ConfigMap> configs{{{"task.class", "org.example.IdleSourceTask"}}};

  absl::Status unsigned_request = AwaitDone([&](herder::DoneCallback done) {
    leader.PutTaskConfigs("src", configs, std::nullopt, std::move(done));
  });
  EXPECT_EQ(rest::HttpStatusFor(unsigned_request), 400);
  EXPECT_THAT(unsigned_request.message(), HasSubstr("missing required signature"));

  absl::StatusOr<std::string> forged = Sign("not the session key", "HmacSHA256", "[]");
  ASSERT_TRUE(forged.ok());
  absl::Status forged_request = AwaitDone([&](herder::DoneCallback done) {
    leader.PutTaskConfigs("src", configs,
                          herder::InternalRequestSignature{"HmacSHA256", *forged, "[]"},
                          std::move(done));
  });
  EXPECT_EQ(rest::HttpStatusFor(forged_request), 403);
  EXPECT_THAT(Keys(kConfigTopic), ::testing::Not(Contains("task-src-0")));
}

TEST_F(DistributedHerderTest, WorkOfALeavingWorkerMovesToTheOthers) {
  DistributedHerder& stays = StartWorker(8083);
  ASSERT_TRUE(AwaitReady());
  StartWorker(8084);
  ASSERT_TRUE(AwaitReady());
  ASSERT_TRUE(Put(stays, "src", Source(4)).ok());
  ASSERT_EQ(
      WaitFor([&] { return StatesOf(stays, "src"); }, "RUNNING/RUNNING,RUNNING,RUNNING,RUNNING"),
      "RUNNING/RUNNING,RUNNING,RUNNING,RUNNING");
  EXPECT_THAT(Placement(stays, "src"), HasSubstr("@127.0.0.1:8084"));

  StopWorker(8084);
  const std::string all_here =
      "RUNNING@127.0.0.1:8083/RUNNING@127.0.0.1:8083 RUNNING@127.0.0.1:8083 "
      "RUNNING@127.0.0.1:8083 RUNNING@127.0.0.1:8083 ";
  EXPECT_EQ(WaitFor([&] { return Placement(stays, "src"); }, all_here), all_here);
}

TEST_F(DistributedHerderTest, PauseResumeReconfigureAndDeleteFromAnyWorker) {
  DistributedHerder& leader = StartWorker(8083);
  ASSERT_TRUE(AwaitReady());
  DistributedHerder& follower = StartWorker(8084);
  ASSERT_TRUE(AwaitReady());
  ASSERT_TRUE(Put(leader, "src", Source(2)).ok());
  ASSERT_EQ(WaitFor([&] { return StatesOf(leader, "src"); }, "RUNNING/RUNNING,RUNNING"),
            "RUNNING/RUNNING,RUNNING");

  // Target states are written by whichever worker is asked.
  ASSERT_TRUE(follower.PauseConnector("src").ok());
  EXPECT_EQ(WaitFor([&] { return StatesOf(leader, "src"); }, "PAUSED/PAUSED,PAUSED"),
            "PAUSED/PAUSED,PAUSED");
  ASSERT_TRUE(follower.ResumeConnector("src").ok());
  EXPECT_EQ(WaitFor([&] { return StatesOf(leader, "src"); }, "RUNNING/RUNNING,RUNNING"),
            "RUNNING/RUNNING,RUNNING");

  // A new config with more tasks: the connector's owner regenerates them, the leader writes.
  absl::StatusOr<herder::Created> replaced =
      Put(follower, "src", Source(3), /*allow_replace=*/true);
  ASSERT_TRUE(replaced.ok()) << replaced.status();
  EXPECT_FALSE(replaced->created);
  EXPECT_EQ(WaitFor([&] { return StatesOf(follower, "src"); }, "RUNNING/RUNNING,RUNNING,RUNNING"),
            "RUNNING/RUNNING,RUNNING,RUNNING");

  absl::Status deleted =
      AwaitDone([&](herder::DoneCallback done) { leader.DeleteConnector("src", std::move(done)); });
  ASSERT_TRUE(deleted.ok()) << deleted;
  EXPECT_EQ(WaitFor(
                [&] {
                  absl::StatusOr<herder::ConnectorStateInfo> gone = follower.ConnectorStatus("src");
                  return std::to_string(gone.ok() ? 200 : rest::HttpStatusFor(gone.status()));
                },
                "404"),
            "404");
  absl::StatusOr<std::vector<std::string>> names =
      Await<std::vector<std::string>>([&](herder::Callback<std::vector<std::string>> done) {
        follower.ListConnectors(std::move(done));
      });
  ASSERT_TRUE(names.ok()) << names.status();
  EXPECT_TRUE(names->empty());
}

}  // namespace
}  // namespace connectd::distributed
