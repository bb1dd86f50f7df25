// SubmittedRecords: Connect's per-partition in-order rule for committable source offsets.
#include "runtime/worker/source_offsets.h"

#include <gtest/gtest.h>

namespace connectd::worker {
namespace {

using Offsets = std::map<std::string, std::string>;

TEST(SubmittedRecordsTest, OffsetsBecomeCommittableInSubmissionOrderPerPartition) {
  SubmittedRecords submitted;
  auto* a1 = submitted.Submit("A", "1");
  auto* b1 = submitted.Submit("B", "1");
  auto* a2 = submitted.Submit("A", "2");
  auto* a3 = submitted.Submit("A", "3");
  EXPECT_EQ(submitted.in_flight(), 4u);
  EXPECT_EQ(a1->partition(), "A");
  EXPECT_EQ(b1->partition(), "B");

  submitted.Ack(a2);  // behind the unacknowledged a1: nothing yet
  EXPECT_EQ(submitted.TakeCommittable(), Offsets());
  submitted.Ack(b1);
  submitted.Ack(a1);  // a1 and a2 drain together; a3 still holds its place
  EXPECT_EQ(submitted.TakeCommittable(), (Offsets{{"A", "2"}, {"B", "1"}}));
  EXPECT_EQ(submitted.in_flight(), 1u);
  EXPECT_EQ(submitted.TakeCommittable(), Offsets());
  submitted.Ack(a3);
  EXPECT_EQ(submitted.TakeCommittable(), (Offsets{{"A", "3"}}));
  EXPECT_EQ(submitted.in_flight(), 0u);
}

TEST(SubmittedRecordsTest, EntriesStayPutWhileOthersComeAndGo) {
  SubmittedRecords submitted;
  std::vector<SubmittedRecords::Entry*> entries;
  for (int i = 0; i < 10000; ++i) {
    entries.push_back(submitted.Submit(i % 2 ? "odd" : "even", "offset-" + std::to_string(i)));
  }
  // Every address and view is still what it was after 10,000 pushes.
  for (int i = 0; i < 10000; ++i) {
    EXPECT_EQ(entries[i]->offset.view(), "offset-" + std::to_string(i));
    EXPECT_EQ(entries[i]->partition(), i % 2 ? "odd" : "even");
  }
  for (int i = 9999; i >= 0; --i) submitted.Ack(entries[i]);  // reverse order
  EXPECT_EQ(submitted.TakeCommittable(),
            (Offsets{{"even", "offset-9998"}, {"odd", "offset-9999"}}));
}

TEST(SubmittedRecordsTest, RestoreKeepsNewerOffsetsAndIdlePartitionsComeBack) {
  SubmittedRecords submitted;
  submitted.Ack(submitted.Submit("A", "1"));
  submitted.Ack(submitted.Submit("B", "1"));
  Offsets taken = submitted.TakeCommittable();  // the commit then fails
  submitted.Ack(submitted.Submit("A", "2"));    // newer offset of A meanwhile
  submitted.Restore(taken);
  EXPECT_EQ(submitted.TakeCommittable(), (Offsets{{"A", "2"}, {"B", "1"}}));
  // Both partitions were idle and dropped; a new record of A starts a fresh queue.
  auto* a3 = submitted.Submit("A", "3");
  EXPECT_EQ(a3->partition(), "A");
  submitted.Ack(a3);
  EXPECT_EQ(submitted.TakeCommittable(), (Offsets{{"A", "3"}}));
}

TEST(SubmittedRecordsTest, UnacknowledgedRecordsBlockOnlyTheirPartition) {
  SubmittedRecords submitted;
  submitted.Submit("A", "1");  // never acknowledged (its send failed)
  submitted.Ack(submitted.Submit("A", "2"));
  submitted.Ack(submitted.Submit("B", "7"));
  EXPECT_EQ(submitted.TakeCommittable(), (Offsets{{"B", "7"}}));
  EXPECT_EQ(submitted.in_flight(), 2u);
}

// Offsets up to 46 bytes are kept inline, longer ones on the heap; both come back whole, and
// an entry's view stays put while other records are submitted.
TEST(SubmittedRecordsTest, ShortAndLongOffsetsComeBackWhole) {
  SubmittedRecords submitted;
  const std::string inline_limit(46, 'i');
  const std::string long_offset = "{\"position\":" + std::string(200, '7') + "}";
  SubmittedRecords::Entry* a = submitted.Submit("A", inline_limit);
  SubmittedRecords::Entry* b = submitted.Submit("B", long_offset);
  const std::string_view b_view = b->offset.view();
  for (int i = 0; i < 1000; ++i) submitted.Submit("C", "{\"offset\":" + std::to_string(i) + "}");
  EXPECT_EQ(a->offset.view(), inline_limit);
  EXPECT_EQ(b->offset.view(), long_offset);
  EXPECT_EQ(b->offset.view().data(), b_view.data());
  submitted.Ack(a);
  submitted.Ack(b);
  EXPECT_EQ(submitted.TakeCommittable(), (Offsets{{"A", inline_limit}, {"B", long_offset}}));
  OffsetText text(long_offset);
  text.assign("{\"offset\":1}");  // from the heap back to inline
  EXPECT_EQ(text.view(), "{\"offset\":1}");
}

}  // namespace
}  // namespace connectd::worker
