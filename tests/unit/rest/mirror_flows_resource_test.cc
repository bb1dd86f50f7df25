// MirrorFlowsResource (rest/resources/mirror_flows_resource.cc) over a real RestServer on
// 127.0.0.1:0 with a fixed FlowHealthView: the list, one flow, Connect's 404 for an unknown one,
// this worker's task metrics, and nothing served without a flow-health service.
#include <rapidjson/document.h>

#include <gtest/gtest.h>

#include "runtime/metrics/metrics.h"
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

TEST(MirrorFlowsResourceTest, NotServedWithoutAFlowHealthService) {
  RestTestEnv env;
  EXPECT_EQ(env.Get("/mirror/flows").status, 404);
  EXPECT_EQ(env.Get("/mirror/task-metrics").status, 404);
}

}  // namespace
}  // namespace connectd::rest::testing
