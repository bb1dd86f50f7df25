// MirrorFlowsResource (rest/resources/mirror_flows_resource.cc) over a real RestServer on
// 127.0.0.1:0 with a fixed FlowHealthView: the list, one flow, Connect's 404 for an unknown one,
// this worker's task metrics, and nothing served without a flow-health service.
#include <rapidjson/document.h>

#include <gtest/gtest.h>

#include <mutex>
#include <thread>

#include "absl/strings/str_cat.h"
#include "runtime/metrics/metrics.h"
#include "runtime/mirror_maker/failover/group_failover_view.h"
#include "runtime/mirror_maker/health/flow_health_view.h"
#include "tests/unit/rest/rest_test_env.h"

namespace connectd::rest::testing {
namespace {

class FixedFlows : public health::FlowHealthView {
 public:
  std::vector<health::FlowReport> Reports() const override {
    health::FlowReport ab;
    ab.source = "A";
    ab.target = "B";
    ab.verdict = health::Verdict::kStalledEmitLeg;
    ab.summary = "A->B: no heartbeat emitted on A for 12.0 s";
    ab.next_step = "Resume connector hb";
    ab.emit.cluster = "A";
    ab.emit.topic = "heartbeats";
    ab.emit.age_ms = 12000;
    ab.emit.stale = true;
    health::FlowReport ba;
    ba.source = "B";
    ba.target = "A";
    return {ab, ba};
  }
  std::string WorkerId() const override { return "127.0.0.1:8083"; }
  std::optional<health::FlowTarget> Target(const std::string&, const std::string&) const override {
    return std::nullopt;
  }
};

// Answers from a thread of its own, as the real service does: a group "busy" is active on the
// target, any other group of flow A->B resumes at offset 537.
class FakeFailover : public mirror_maker::GroupFailoverView {
 public:
  ~FakeFailover() override {
    for (std::thread& t : threads_) t.join();
  }
  void Translate(const std::string& source, const std::string& target, const std::string& group,
                 Done done) override {
    Answer(source, target, group, false, false, std::move(done));
  }
  void Failover(const std::string& source, const std::string& target, const std::string& group,
                bool dry_run, Done done) override {
    Answer(source, target, group, true, dry_run, std::move(done));
  }
  std::vector<std::string> calls() {
    std::lock_guard lock(mu_);
    return calls_;
  }

 private:
  void Answer(const std::string& source, const std::string& target, const std::string& group,
              bool failover, bool dry_run, Done done) {
    std::lock_guard lock(mu_);
    calls_.push_back(absl::StrCat(failover ? "failover " : "translate ", source, "->", target, " ",
                                  group, dry_run ? " dry" : ""));
    threads_.emplace_back([=, done = std::move(done)] {
      if (source != "A" || target != "B") {
        done(absl::NotFoundError(absl::StrCat("No replication flow found for source '", source,
                                              "' and target '", target, "'")));
      } else if (group == "busy" && failover && !dry_run) {
        done(absl::FailedPreconditionError("consumer group 'busy' is active on the target"));
      } else {
        done(mirror_maker::GroupTranslation{group,
                                            "A",
                                            "A.checkpoints.internal",
                                            {{"A.orders", 0, 600, 537, "", std::nullopt, true}},
                                            failover && !dry_run});
      }
    });
  }
  std::mutex mu_;
  std::vector<std::string> calls_;
  std::vector<std::thread> threads_;
};

TEST(MirrorFlowsResourceTest, ListsFlowsAnswersOneAnd404sAnUnknownOne) {
  FixedFlows flows;
  metrics::MetricsRegistry registry;
  RestServer::Options options;
  options.flow_health = &flows;
  options.metrics = &registry;
  RestTestEnv env({}, options);

  HttpResult all = env.Get("/mirror/flows");
  ASSERT_EQ(all.status, 200) << all.body;
  EXPECT_EQ(all.Header("Content-Type"), "application/json");
  rapidjson::Document doc;
  doc.Parse(all.body.c_str());
  ASSERT_TRUE(doc.IsObject()) << all.body;
  EXPECT_STREQ(doc["worker_id"].GetString(), "127.0.0.1:8083");
  ASSERT_EQ(doc["flows"].Size(), 2u);
  EXPECT_STREQ(doc["flows"][0]["verdict"].GetString(), "STALLED — EMIT LEG");
  EXPECT_STREQ(doc["flows"][1]["flow"].GetString(), "B->A");

  HttpResult one = env.Get("/mirror/flows/A/B");
  ASSERT_EQ(one.status, 200) << one.body;
  doc.Parse(one.body.c_str());
  EXPECT_STREQ(doc["flow"].GetString(), "A->B");
  EXPECT_EQ(doc["legs"]["emit"]["age_ms"].GetInt64(), 12000);
  EXPECT_TRUE(doc["legs"]["emit"]["stale"].GetBool());

  HttpResult unknown = env.Get("/mirror/flows/A/C");
  EXPECT_EQ(unknown.status, 404);
  EXPECT_EQ(unknown.body,
            ErrorJson(404, "No replication flow found for source 'A' and target 'C'"));

  HttpResult metrics = env.Get("/mirror/task-metrics");
  ASSERT_EQ(metrics.status, 200) << metrics.body;
  EXPECT_EQ(
      metrics.body,
      R"({"worker_id":"127.0.0.1:8083","partitions":[],"producer_throttle_ms":{},"consumer_throttle_ms":{},"remote_topic_errors":[]})");
}

TEST(MirrorFlowsResourceTest, GroupOffsetsAndFailoverRunOnTheFailoverService) {
  FixedFlows flows;
  FakeFailover failover;
  RestServer::Options options;
  options.flow_health = &flows;
  options.group_failover = &failover;
  RestTestEnv env({}, options);

  HttpResult offsets = env.Get("/mirror/flows/A/B/groups/orders-app/offsets");
  ASSERT_EQ(offsets.status, 200) << offsets.body;
  EXPECT_EQ(offsets.Header("Content-Type"), "application/json");
  EXPECT_EQ(offsets.body,
            R"({"group":"orders-app","source":"A","checkpoints_topic":"A.checkpoints.internal",)"
            R"("committed":false,"partitions":[{"topic":"A.orders","partition":0,)"
            R"("upstream_offset":600,"offset":537,"metadata":"","target_committed_offset":null,)"
            R"("action":"commit"}]})");
  HttpResult dry = env.Post("/mirror/flows/A/B/groups/busy/failover?dry_run=true");
  ASSERT_EQ(dry.status, 200) << dry.body;
  EXPECT_NE(dry.body.find(R"("committed":false)"), std::string::npos) << dry.body;
  HttpResult refused = env.Post("/mirror/flows/A/B/groups/busy/failover");
  EXPECT_EQ(refused.status, 409);
  EXPECT_EQ(refused.body, ErrorJson(409, "consumer group 'busy' is active on the target"));
  HttpResult done = env.Post("/mirror/flows/A/B/groups/orders-app/failover");
  ASSERT_EQ(done.status, 200) << done.body;
  EXPECT_NE(done.body.find(R"("committed":true)"), std::string::npos) << done.body;
  HttpResult unknown = env.Get("/mirror/flows/A/C/groups/g/offsets");
  EXPECT_EQ(unknown.status, 404);
  EXPECT_EQ(unknown.body,
            ErrorJson(404, "No replication flow found for source 'A' and target 'C'"));
  // Group names are URL-decoded path segments.
  EXPECT_EQ(env.Get("/mirror/flows/A/B/groups/my%20group/offsets").status, 200);
  EXPECT_EQ(env.Get("/mirror/flows/A/B/groups/g/failover").status, 405);
  EXPECT_EQ(failover.calls(),
            (std::vector<std::string>{"translate A->B orders-app", "failover A->B busy dry",
                                      "failover A->B busy", "failover A->B orders-app",
                                      "translate A->C g", "translate A->B my group"}));
}

TEST(MirrorFlowsResourceTest, NotServedWithoutAFlowHealthService) {
  RestTestEnv env;
  EXPECT_EQ(env.Get("/mirror/flows").status, 404);
  EXPECT_EQ(env.Get("/mirror/task-metrics").status, 404);
}

}  // namespace
}  // namespace connectd::rest::testing
