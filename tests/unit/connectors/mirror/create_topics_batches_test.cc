// CreateTopics splits its topics into requests a Kafka 4.x controller accepts (at most 10,000
// partitions per CreateTopics request): MirrorSource creating the remote topics of 10 x 1,000
// source partitions at once got "Excessively large number of partitions per request".
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "connectors/mirror/kafka_clients.h"

namespace connectd::mirror {
namespace {

std::vector<NewTopic> Topics(const std::vector<int>& partitions) {
  std::vector<NewTopic> topics;
  for (size_t i = 0; i < partitions.size(); ++i) {
    topics.push_back(NewTopic{"t" + std::to_string(i), partitions[i], 1, {}});
  }
  return topics;
}

// Each batch as the partition counts of its topics.
std::vector<std::vector<int>> Shape(const std::vector<std::vector<NewTopic>>& batches) {
  std::vector<std::vector<int>> shape;
  for (const auto& batch : batches) {
    shape.emplace_back();
    for (const NewTopic& t : batch) shape.back().push_back(t.partitions);
  }
  return shape;
}

TEST(CreateTopicsBatchesTest, TenThousandPartitionsAndOneGoInRequestsUnderTheLimit) {
  std::vector<int> counts(10, 1000);
  counts.push_back(1);  // heartbeats
  auto batches = CreateTopicsBatches(Topics(counts), kMaxPartitionsPerCreateTopics);
  EXPECT_THAT(Shape(batches),
              ::testing::ElementsAre(std::vector<int>(5, 1000), std::vector<int>(5, 1000),
                                     std::vector<int>{1}));
  // Every topic once, in order.
  std::vector<std::string> names;
  for (const auto& batch : batches)
    for (const NewTopic& t : batch) names.push_back(t.name);
  EXPECT_EQ(names.size(), 11u);
  EXPECT_EQ(names.front(), "t0");
  EXPECT_EQ(names.back(), "t10");
}

TEST(CreateTopicsBatchesTest, ATopicLargerThanTheLimitGoesAlone) {
  EXPECT_THAT(
      Shape(CreateTopicsBatches(Topics({3, 12, 4, 5}), 10)),
      ::testing::ElementsAre(std::vector<int>{3}, std::vector<int>{12}, std::vector<int>{4, 5}));
}

TEST(CreateTopicsBatchesTest, FewTopicsAreOneRequestAndNoneIsNone) {
  EXPECT_THAT(Shape(CreateTopicsBatches(Topics({1, 12, 100}), 5000)),
              ::testing::ElementsAre(std::vector<int>{1, 12, 100}));
  EXPECT_TRUE(CreateTopicsBatches({}, 5000).empty());
}

}  // namespace
}  // namespace connectd::mirror
