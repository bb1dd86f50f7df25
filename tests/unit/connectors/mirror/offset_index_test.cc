#include "connectors/mirror/offset_index.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace connectd::mirror {
namespace {

// The target partition as a consumer reads it: the upstream offset of each downstream record.
using TargetLog = std::vector<int64_t>;

// Copies `upstream` offsets, in order, to the end of `target`, telling `index` of each.
void Copy(const std::vector<int64_t>& upstream, TargetLog* target, OffsetIndex* index) {
  for (int64_t offset : upstream) {
    index->Add(offset, static_cast<int64_t>(target->size()));
    target->push_back(offset);
  }
}

// What a consumer resuming at `downstream` reads: the upstream offsets from there on.
std::vector<int64_t> ReadFrom(const TargetLog& target, int64_t downstream) {
  return std::vector<int64_t>(target.begin() + downstream, target.end());
}

std::vector<int64_t> AtOrAfter(const std::vector<int64_t>& source, int64_t offset) {
  std::vector<int64_t> out;
  for (int64_t o : source) {
    if (o >= offset) out.push_back(o);
  }
  return out;
}

TEST(OffsetIndexTest, ConsecutiveCopiesAreOneRun) {
  OffsetIndex index;
  for (int64_t i = 0; i < 1000; ++i) index.Add(i, 5000 + i);
  ASSERT_EQ(index.runs().size(), 1u);
  EXPECT_EQ(index.runs()[0], (OffsetRun{0, 5000, 1000}));
  // A group at 600 of 1,000 resumes at 600's own copy (the sparse syncs said 1 in Java).
  EXPECT_EQ(index.Translate(600), 5600);
  EXPECT_EQ(index.Translate(0), 5000);
  EXPECT_EQ(index.Translate(1000), 6000);          // caught up: the next record's place
  EXPECT_EQ(index.Translate(1001), std::nullopt);  // not copied yet
  EXPECT_EQ(index.Translate(-1), std::nullopt);
}

TEST(OffsetIndexTest, GroupsAtRandomOffsetsResumeWithNothingReplayedOrSkipped) {
  // A compacted source (gaps), transaction markers on the target (downstream gaps) and batches
  // moved whole: every committed offset resumes at exactly the records after it.
  std::mt19937_64 random(31);
  std::vector<int64_t> source;
  for (int64_t offset = 40; source.size() < 5000; ++offset) {
    if (random() % 7 != 0) source.push_back(offset);  // a seventh compacted away
  }
  OffsetIndex index;
  TargetLog target;
  size_t next = 0;
  while (next < source.size()) {
    if (random() % 50 == 0) target.push_back(-1);  // a marker: no upstream record
    const size_t batch = 1 + random() % 40;
    for (size_t i = 0; i < batch && next < source.size(); ++i, ++next) {
      index.Add(source[next], static_cast<int64_t>(target.size()));
      target.push_back(source[next]);
    }
  }
  for (int trial = 0; trial < 2000; ++trial) {
    const int64_t committed = 40 + static_cast<int64_t>(random() % (source.back() - 39));
    std::optional<int64_t> resume = index.Translate(committed);
    ASSERT_TRUE(resume.has_value()) << committed;
    std::vector<int64_t> read = ReadFrom(target, *resume);
    std::erase(read, -1);
    EXPECT_EQ(read, AtOrAfter(source, committed)) << "committed " << committed;
  }
  EXPECT_EQ(index.Translate(39), std::nullopt);  // before anything copied
}

TEST(OffsetIndexTest, ARewindSupersedesTheOlderCopies) {
  OffsetIndex index;
  TargetLog target;
  std::vector<int64_t> first, again, rest;
  for (int64_t o = 0; o < 100; ++o) first.push_back(o);
  for (int64_t o = 60; o < 100; ++o) again.push_back(o);  // restarted from its offset 60
  for (int64_t o = 100; o < 150; ++o) rest.push_back(o);
  Copy(first, &target, &index);
  Copy(again, &target, &index);
  Copy(rest, &target, &index);
  ASSERT_EQ(index.runs().size(), 2u);
  EXPECT_EQ(index.runs()[0], (OffsetRun{0, 0, 60}));
  EXPECT_EQ(index.runs()[1], (OffsetRun{60, 100, 90}));
  // From the rewind on, a group resumes at the newest copies and reads each record once.
  for (int64_t committed : {60, 75, 99, 100, 149, 150}) {
    std::vector<int64_t> all = first;
    all.insert(all.end(), rest.begin(), rest.end());
    EXPECT_EQ(ReadFrom(target, *index.Translate(committed)), AtOrAfter(all, committed))
        << committed;
  }
  // Before it, at the first copy: the duplicates the restart wrote follow, as they would for
  // any reader of the target.
  EXPECT_EQ(index.Translate(10), 10);
}

TEST(OffsetIndexTest, BatchesRunsTrimmingAndTheCap) {
  OffsetIndex index(3);
  index.Add(OffsetRun{0, 0, 10});
  index.Add(OffsetRun{10, 10, 5});  // extends
  index.Add(OffsetRun{20, 15, 5});  // upstream gap
  index.Add(OffsetRun{25, 30, 5});  // downstream gap
  index.Add(OffsetRun{30, 35, 0});  // empty: ignored
  index.Add(OffsetRun{-1, 35, 1});  // negative: ignored
  ASSERT_EQ(index.runs().size(), 3u);
  EXPECT_EQ(index.Translate(17), 15);  // in the gap: the next record copied
  index.Add(OffsetRun{40, 40, 1});     // a fourth run: the oldest goes
  ASSERT_EQ(index.runs().size(), 3u);
  EXPECT_EQ(index.Translate(5), std::nullopt);
  EXPECT_EQ(index.Translate(22), 17);
  index.TrimBefore(30);
  ASSERT_EQ(index.runs().size(), 1u);
  EXPECT_EQ(index.Translate(40), 40);
  EXPECT_EQ(index.Translate(29), std::nullopt);
}

}  // namespace
}  // namespace connectd::mirror
