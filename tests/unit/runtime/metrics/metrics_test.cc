// Kafka's stats semantics, scopes that unpublish their sensors, and the Prometheus text.
#include "runtime/metrics/metrics.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "runtime/metrics/prometheus.h"

namespace connectd::metrics {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr int64_t kT0 = 1'700'000'000'000;

std::vector<StatSpec> AllStats() {
  return {{"last", "", StatKind::kValue},
          {"count", "", StatKind::kCumulativeCount},
          {"sum", "", StatKind::kCumulativeSum},
          {"rate", "", StatKind::kRate},
          {"min", "", StatKind::kMin},
          {"max", "", StatKind::kMax},
          {"avg", "", StatKind::kAvg}};
}

TEST(SensorTest, CumulativeAndLastValueStats) {
  MetricsRegistry registry;
  MetricsScope scope(&registry);
  Sensor* sensor = scope.AddSensor("d", "G", {}, AllStats(), kT0);
  ASSERT_NE(sensor, nullptr);
  sensor->Record(5, kT0 + 1);
  sensor->Record(1, kT0 + 2);
  sensor->Record(3, kT0 + 3);
  EXPECT_EQ(sensor->Measure(0, kT0 + 4), 3);  // last
  EXPECT_EQ(sensor->Measure(1, kT0 + 4), 3);  // count
  EXPECT_EQ(sensor->Measure(2, kT0 + 4), 9);  // sum
  EXPECT_EQ(sensor->Measure(4, kT0 + 4), 1);  // min
  EXPECT_EQ(sensor->Measure(5, kT0 + 4), 5);  // max
  EXPECT_EQ(sensor->Measure(6, kT0 + 4), 3);  // avg
}

TEST(SensorTest, RecordManyIsThatManyRecords) {
  MetricsRegistry registry;
  MetricsScope scope(&registry);
  Sensor* many = scope.AddSensor("d", "Many", {}, AllStats(), kT0);
  Sensor* one_by_one = scope.AddSensor("d", "OneByOne", {}, AllStats(), kT0);
  many->RecordMany(2, 1000, kT0 + 10);  // a batch of 1,000 records
  many->RecordMany(7, 3, kT0 + 20);
  for (int i = 0; i < 1000; ++i) one_by_one->Record(2, kT0 + 10);
  for (int i = 0; i < 3; ++i) one_by_one->Record(7, kT0 + 20);
  for (size_t stat = 0; stat < 7; ++stat) {
    EXPECT_DOUBLE_EQ(many->Measure(stat, kT0 + 5000), one_by_one->Measure(stat, kT0 + 5000))
        << many->stat(stat).name;
  }
  EXPECT_EQ(many->Measure(1, kT0 + 5000), 1003);  // count
}

TEST(SensorTest, WindowedStatsForgetSamplesOlderThanTheWindowsAndReadNaNWhenEmpty) {
  MetricsRegistry registry;  // 2 samples x 30 s
  MetricsScope scope(&registry);
  Sensor* sensor = scope.AddSensor("d", "G", {}, AllStats(), kT0);
  EXPECT_TRUE(std::isnan(sensor->Measure(4, kT0)));
  EXPECT_TRUE(std::isnan(sensor->Measure(6, kT0)));
  sensor->Record(100, kT0);
  sensor->Record(10, kT0 + 31'000);  // second window
  EXPECT_EQ(sensor->Measure(5, kT0 + 31'000), 100);
  EXPECT_EQ(sensor->Measure(4, kT0 + 31'000), 10);
  // At 60 s the first sample (started at 0) has aged out of the 2 x 30 s span.
  EXPECT_EQ(sensor->Measure(5, kT0 + 60'000), 10);
  EXPECT_EQ(sensor->Measure(6, kT0 + 60'000), 10);
  // Everything aged out: empty windows, but cumulative stats remember.
  EXPECT_TRUE(std::isnan(sensor->Measure(5, kT0 + 200'000)));
  EXPECT_EQ(sensor->Measure(1, kT0 + 200'000), 2);
  EXPECT_EQ(sensor->Measure(0, kT0 + 200'000), 10);
}

TEST(SensorTest, RateCountsAYoungSensorAsAtLeastOneFullWindowOld) {
  MetricsRegistry registry;
  MetricsScope scope(&registry);
  Sensor* sensor = scope.AddSensor("d", "G", {}, AllStats(), kT0);
  for (int i = 0; i < 300; ++i) sensor->Record(1, kT0 + i);
  // 300 events within the first second: Kafka's Rate divides by >= (samples - 1) windows.
  EXPECT_NEAR(sensor->Measure(3, kT0 + 1'000), 300.0 / 31.0, 1e-9);
  // Later, a steady 10/s over 45 s reads 10/s.
  MetricsScope scope2(&registry);
  Sensor* steady = scope2.AddSensor("d", "H", {}, AllStats(), kT0);
  for (int i = 0; i < 450; ++i) steady->Record(1, kT0 + i * 100);
  EXPECT_NEAR(steady->Measure(3, kT0 + 45'000), 10.0, 0.5);
}

TEST(MetricsScopeTest, EndingAScopeUnpublishesItsSensors) {
  MetricsRegistry registry;
  {
    MetricsScope scope(&registry);
    Sensor* sensor = scope.AddSensor("d", "G", {{"task", "0"}},
                                     {{"record-count", "", StatKind::kCumulativeCount}}, kT0);
    sensor->Record(1, kT0);
    ASSERT_EQ(registry.Snapshot(kT0).size(), 1u);
    EXPECT_EQ(registry.Snapshot(kT0)[0].value, 1);
  }
  EXPECT_TRUE(registry.Snapshot(kT0).empty());
}

TEST(MetricsScopeTest, UnpublishedSensorsStayRecordable) {
  MetricsRegistry registry;
  MetricsScope scope(&registry);
  Sensor* sensor = scope.AddSensor("d", "G", {}, {{"n", "", StatKind::kCumulativeCount}}, kT0);
  scope.UnpublishAll();
  sensor->Record(1, kT0);  // a plugin finishing a call after its task ended
  EXPECT_TRUE(registry.Snapshot(kT0).empty());
}

TEST(MetricsScopeTest, ASensorWithTheSameNameReplacesTheOlderOne) {
  MetricsRegistry registry;
  MetricsScope old_task(&registry);
  Sensor* old_sensor =
      old_task.AddSensor("d", "G", {{"task", "0"}}, {{"n", "", StatKind::kCumulativeCount}}, kT0);
  old_sensor->Record(1, kT0);
  MetricsScope new_task(&registry);
  Sensor* new_sensor =
      new_task.AddSensor("d", "G", {{"task", "0"}}, {{"n", "", StatKind::kCumulativeCount}}, kT0);
  old_sensor->Record(1, kT0);
  new_sensor->Record(1, kT0);
  ASSERT_EQ(registry.Snapshot(kT0).size(), 1u);
  EXPECT_EQ(registry.Snapshot(kT0)[0].value, 1);
}

TEST(MetricsScopeTest, InvalidSensorsAreRefused) {
  MetricsRegistry registry;
  MetricsScope scope(&registry);
  EXPECT_EQ(scope.AddSensor("d", "", {}, {{"n", "", StatKind::kValue}}, kT0), nullptr);
  EXPECT_EQ(scope.AddSensor("d", "G", {}, {}, kT0), nullptr);
  EXPECT_EQ(scope.AddSensor("d", "G", {}, {{"", "", StatKind::kValue}}, kT0), nullptr);
}

TEST(MetricsScopeTest, RemoveSensorUnpublishesOnlyThatSensor) {
  MetricsRegistry registry;
  MetricsScope scope(&registry);
  Sensor* a = scope.AddSensor("d", "G", {{"p", "0"}}, {{"n", "", StatKind::kValue}}, kT0);
  scope.AddSensor("d", "G", {{"p", "1"}}, {{"n", "", StatKind::kValue}}, kT0);
  scope.RemoveSensor(a);
  std::vector<MetricValue> left = registry.Snapshot(kT0);
  ASSERT_EQ(left.size(), 1u);
  EXPECT_EQ(left[0].name.tags, (Tags{{"p", "1"}}));
}

TEST(MetricsRegistryTest, SnapshotsAreInKeyOrderAndAGroupIsOnlyItsOwnMetrics) {
  MetricsRegistry registry;
  MetricsScope scope(&registry);
  // Added out of order, with a group whose name extends another's and tag lists that are
  // prefixes of each other.
  scope.AddSensor("d", "GroupLonger", {}, {{"a", "", StatKind::kValue}}, kT0);
  scope.AddSensor("d", "Group", {{"t", "x"}, {"p", "1"}}, {{"b", "", StatKind::kValue}}, kT0);
  scope.AddSensor("d", "Group", {{"t", "x"}}, {{"b", "", StatKind::kValue}}, kT0);
  scope.AddSensor("d", "Group", {{"t", "x"}}, {{"a", "", StatKind::kValue}}, kT0);
  scope.AddSensor("c", "Group", {}, {{"z", "", StatKind::kValue}}, kT0);
  std::vector<std::string> keys;
  for (const MetricValue& v : registry.Snapshot(kT0)) keys.push_back(v.name.Key());
  EXPECT_TRUE(std::is_sorted(keys.begin(), keys.end()));
  EXPECT_EQ(keys.size(), 5u);

  std::vector<std::string> visited;
  registry.Visit(kT0, "d", "Group", [&visited](const MetricNameView& name, double) {
    visited.push_back(name.ToName().Key());
  });
  ASSERT_EQ(visited.size(), 3u);
  EXPECT_EQ(visited[0], (MetricName{"d", "Group", "a", {{"t", "x"}}}.Key()));
  EXPECT_EQ(visited[1], (MetricName{"d", "Group", "b", {{"t", "x"}}}.Key()));
  EXPECT_EQ(visited[2], (MetricName{"d", "Group", "b", {{"t", "x"}, {"p", "1"}}}.Key()));

  // By name: only those names of the group (not GroupLonger's "a"), name by name as asked.
  visited.clear();
  const std::vector<std::string_view> names = {"b", "a", "missing"};
  registry.Visit(
      kT0, "d", "Group",
      [&visited](const MetricNameView& name, double) { visited.push_back(name.ToName().Key()); },
      names);
  ASSERT_EQ(visited.size(), 3u);
  EXPECT_EQ(visited[0], (MetricName{"d", "Group", "b", {{"t", "x"}}}.Key()));
  EXPECT_EQ(visited[1], (MetricName{"d", "Group", "b", {{"t", "x"}, {"p", "1"}}}.Key()));
  EXPECT_EQ(visited[2], (MetricName{"d", "Group", "a", {{"t", "x"}}}.Key()));
}

TEST(MetricsRegistryTest, SensorsWithTheSameTagsShareOneIdentityUntilTheLastEnds) {
  MetricsRegistry registry;
  auto scope = std::make_unique<MetricsScope>(&registry);
  Sensor* a = scope->AddSensor("d", "G", {{"topic", "t"}, {"partition", "0"}},
                               {{"x", "described", StatKind::kValue}}, kT0);
  Sensor* b = scope->AddSensor("d", "G", {{"topic", "t"}, {"partition", "0"}},
                               {{"y", "described", StatKind::kValue}}, kT0);
  Sensor* other = scope->AddSensor("d", "G", {{"topic", "t"}, {"partition", "1"}},
                                   {{"x", "described", StatKind::kValue}}, kT0);
  EXPECT_EQ(&a->identity(), &b->identity());
  EXPECT_NE(&a->identity(), &other->identity());
  EXPECT_EQ(&a->stat(0), &other->stat(0));  // one interned spec
  scope->RemoveSensor(a);
  b->Record(7, kT0);
  std::vector<MetricValue> left = registry.Snapshot(kT0);
  ASSERT_EQ(left.size(), 2u);  // by name first: x of partition 1, then y of partition 0
  EXPECT_EQ(left[1].name.name, "y");
  EXPECT_EQ(left[1].name.tags, (Tags{{"topic", "t"}, {"partition", "0"}}));
  EXPECT_EQ(left[1].value, 7);
  scope.reset();
  EXPECT_TRUE(registry.Snapshot(kT0).empty());
  // Many identities later (the expired ones swept), the same tags are published afresh.
  MetricsScope next(&registry);
  for (int p = 0; p < 1000; ++p) {
    next.AddSensor("d", "G", {{"topic", "t"}, {"partition", std::to_string(p)}},
                   {{"x", "described", StatKind::kValue}}, kT0)
        ->Record(p, kT0);
  }
  std::vector<MetricValue> all = registry.Snapshot(kT0, "d", "G");
  ASSERT_EQ(all.size(), 1000u);
  EXPECT_EQ(all.front().name.tags, (Tags{{"topic", "t"}, {"partition", "0"}}));
  EXPECT_EQ(all.front().description, "described");
}

TEST(MetricsRegistryTest, ServesMetricsUpToItsRecordingLevelAndRecordsEveryLevel) {
  auto debug_and_info = [](MetricsScope& scope) {
    Sensor* info = scope.AddSensor("d", "G", {}, {{"info", "", StatKind::kValue}}, kT0);
    Sensor* debug = scope.AddSensor("d", "G", {},
                                    {{"debug", "", StatKind::kValue, RecordingLevel::kDebug}}, kT0);
    info->Record(1, kT0);
    debug->Record(2, kT0);
  };
  auto names = [](const std::vector<MetricValue>& values) {
    std::vector<std::string> out;
    for (const MetricValue& v : values) out.push_back(v.name.name);
    return out;
  };
  MetricsRegistry at_info;
  MetricsScope info_scope(&at_info);
  debug_and_info(info_scope);
  EXPECT_EQ(names(at_info.Snapshot(kT0)), std::vector<std::string>{"info"});
  // In-process readers of a group see every level.
  std::vector<MetricValue> group = at_info.Snapshot(kT0, "d", "G");
  ASSERT_EQ(names(group), (std::vector<std::string>{"debug", "info"}));
  EXPECT_EQ(group[0].value, 2);
  EXPECT_EQ(group[0].level, RecordingLevel::kDebug);

  MetricsRegistry at_debug({}, RecordingLevel::kDebug);
  MetricsScope debug_scope(&at_debug);
  debug_and_info(debug_scope);
  EXPECT_EQ(names(at_debug.Snapshot(kT0)), (std::vector<std::string>{"debug", "info"}));
}

TEST(MetricsRegistryTest, RecordingLevelsHaveKafkasNames) {
  EXPECT_EQ(ParseRecordingLevel("INFO"), RecordingLevel::kInfo);
  EXPECT_EQ(ParseRecordingLevel("DEBUG"), RecordingLevel::kDebug);
  EXPECT_EQ(ParseRecordingLevel("TRACE"), RecordingLevel::kTrace);
  EXPECT_EQ(ParseRecordingLevel("debug"), std::nullopt);
}

TEST(PrometheusTest, NamesFollowTheJmxExporterConvention) {
  EXPECT_EQ(PrometheusName({"kafka.connect.mirror", "MirrorSourceConnector", "record-count", {}}),
            "kafka_connect_mirror_mirrorsourceconnector_record_count");
  EXPECT_EQ(PrometheusName({"", "9lives", "x", {}}), "_9lives_x");
}

TEST(PrometheusTest, ExpositionGroupsFamiliesAndEscapesLabels) {
  MetricsRegistry registry;
  MetricsScope scope(&registry);
  for (const char* partition : {"1", "0"}) {
    Sensor* s = scope.AddSensor(
        "kafka.connect.mirror", "MirrorSourceConnector",
        {{"source", "A"}, {"target", "B\"\\\n"}, {"topic", "A.orders"}, {"partition", partition}},
        {{"record-count", "Number of records replicated", StatKind::kCumulativeCount},
         {"record-age-ms-max", "", StatKind::kMax}},
        kT0);
    s->Record(7, kT0);
  }
  std::string text = PrometheusText(registry.Snapshot(kT0));
  EXPECT_EQ(text,
            "# HELP kafka_connect_mirror_mirrorsourceconnector_record_age_ms_max "
            "record-age-ms-max\n"
            "# TYPE kafka_connect_mirror_mirrorsourceconnector_record_age_ms_max gauge\n"
            "kafka_connect_mirror_mirrorsourceconnector_record_age_ms_max{source=\"A\","
            "target=\"B\\\"\\\\\\n\",topic=\"A.orders\",partition=\"0\"} 7\n"
            "kafka_connect_mirror_mirrorsourceconnector_record_age_ms_max{source=\"A\","
            "target=\"B\\\"\\\\\\n\",topic=\"A.orders\",partition=\"1\"} 7\n"
            "# HELP kafka_connect_mirror_mirrorsourceconnector_record_count Number of records "
            "replicated\n"
            "# TYPE kafka_connect_mirror_mirrorsourceconnector_record_count counter\n"
            "kafka_connect_mirror_mirrorsourceconnector_record_count{source=\"A\","
            "target=\"B\\\"\\\\\\n\",topic=\"A.orders\",partition=\"0\"} 1\n"
            "kafka_connect_mirror_mirrorsourceconnector_record_count{source=\"A\","
            "target=\"B\\\"\\\\\\n\",topic=\"A.orders\",partition=\"1\"} 1\n");
}

TEST(PrometheusTest, EmptyWindowsAreNaN) {
  MetricsRegistry registry;
  MetricsScope scope(&registry);
  scope.AddSensor("d", "G", {}, {{"lag-max", "", StatKind::kMax}}, kT0);
  EXPECT_THAT(PrometheusText(registry.Snapshot(kT0)), HasSubstr("d_g_lag_max NaN\n"));
  EXPECT_THAT(PrometheusText(registry.Snapshot(kT0)), Not(HasSubstr("{")));
}

}  // namespace
}  // namespace connectd::metrics
