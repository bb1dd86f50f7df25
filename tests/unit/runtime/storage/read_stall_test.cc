// ReadStallDetector: a partition stalls only when it is behind its end at two checks in a row
// without moving; a reader that moves, catches up or just got new records is not stalled.
#include "runtime/storage/read_stall.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace connectd::storage {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

TEST(ReadStallDetectorTest, BehindTwiceWithoutMovingIsStalled) {
  ReadStallDetector detector;
  EXPECT_THAT(detector.Check({3, 5}, {3, 9}), IsEmpty()) << "one check never stalls";
  EXPECT_THAT(detector.Check({3, 5}, {3, 9}), ElementsAre(1));
  EXPECT_THAT(detector.Check({3, 5}, {4, 12}), ElementsAre(1))
      << "partition 0 just got a record: behind once, not stalled";
  EXPECT_THAT(detector.Check({3, 5}, {4, 12}), ElementsAre(0, 1));
}

TEST(ReadStallDetectorTest, AReaderThatMovesOrCatchesUpIsNotStalled) {
  ReadStallDetector detector;
  detector.Check({0, 0}, {100, 10});
  EXPECT_THAT(detector.Check({40, 10}, {200, 10}), IsEmpty()) << "moving, and caught up";
  EXPECT_THAT(detector.Check({90, 10}, {300, 10}), IsEmpty()) << "still behind, still moving";
  EXPECT_THAT(detector.Check({90, 10}, {90, 10}), IsEmpty()) << "at the end";
}

TEST(ReadStallDetectorTest, ResetStartsOverAndAChangedPartitionCountIsNoEvidence) {
  ReadStallDetector detector;
  detector.Check({1}, {5});
  detector.Reset();
  EXPECT_THAT(detector.Check({1}, {5}), IsEmpty());
  EXPECT_THAT(detector.Check({1, 0}, {5, 3}), IsEmpty()) << "a partition count it has not seen";
  EXPECT_THAT(detector.Check({1, 0}, {5, 3}), ElementsAre(0, 1));
}

}  // namespace
}  // namespace connectd::storage
