#include "connectors/mirror/offset_index.h"

#include <gtest/gtest.h>

#include <algorithm>
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
  EXPECT_EQ(index.Translate(600), (OffsetTranslation{5600, true}));
  EXPECT_EQ(index.Translate(0), (OffsetTranslation{5000, true}));
  EXPECT_EQ(index.Translate(1000), (OffsetTranslation{6000, true}));  // caught up
  // Not copied yet (or copied and not written to the index yet): the records after 1,000 the
  // group may have read come again.
  EXPECT_EQ(index.Translate(1001), (OffsetTranslation{6000, false}));
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
    std::optional<OffsetTranslation> resume = index.Translate(committed);
    ASSERT_TRUE(resume.has_value()) << committed;
    std::vector<int64_t> read = ReadFrom(target, resume->downstream);
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
    EXPECT_EQ(ReadFrom(target, index.Translate(committed)->downstream), AtOrAfter(all, committed))
        << committed;
  }
  // Before it, at the first copy: the duplicates the restart wrote follow, as they would for
  // any reader of the target.
  EXPECT_EQ(index.Translate(10), (OffsetTranslation{10, true}));
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
  EXPECT_EQ(index.Translate(17), (OffsetTranslation{15, true}));  // in an upstream gap
  EXPECT_EQ(index.Translate(25), (OffsetTranslation{30, true}));
  EXPECT_EQ(index.Translate(33), (OffsetTranslation{35, false}));  // past the last run
  index.Add(OffsetRun{40, 40, 1});                                 // a fourth run: the oldest goes
  ASSERT_EQ(index.runs().size(), 3u);
  EXPECT_EQ(index.Translate(5), std::nullopt);
  EXPECT_EQ(index.Translate(22), (OffsetTranslation{17, true}));
  index.TrimBefore(30);
  ASSERT_EQ(index.runs().size(), 1u);
  EXPECT_EQ(index.Translate(40), (OffsetTranslation{40, true}));
  EXPECT_EQ(index.Translate(29), std::nullopt);
}

TEST(OffsetIndexTest, MissingRunsMakeLowerBoundsThatSkipNothing) {
  // The reader's index lacks runs the writer dropped or failed to write: a group in their
  // records resumes at the end of the run before and reads some records again, none skipped;
  // where the answer says exact, nothing is read twice.
  std::mt19937_64 random(7);
  std::vector<int64_t> source;
  for (int64_t offset = 0; source.size() < 3000; ++offset) {
    if (random() % 5 != 0) source.push_back(offset);
  }
  TargetLog target;
  std::vector<OffsetRun> written;
  OpenRun open;
  for (int64_t offset : source) {
    if (random() % 40 == 0) target.push_back(-1);
    if (std::optional<OffsetRun> closed = open.Add(offset, static_cast<int64_t>(target.size()))) {
      written.push_back(*closed);
    }
    target.push_back(offset);
  }
  written.push_back(*open.TakeChanged());
  EXPECT_EQ(open.TakeChanged(), std::nullopt);  // taken: unchanged until the next copy
  OffsetIndex index;
  for (size_t i = 0; i < written.size(); ++i) {
    if (i == 0 || random() % 3 != 0) index.Add(written[i]);  // a third lost
  }
  int exact = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const int64_t committed =
        source.front() + static_cast<int64_t>(random() % (source.back() - source.front() + 3));
    std::optional<OffsetTranslation> resume = index.Translate(committed);
    ASSERT_TRUE(resume.has_value()) << committed;
    std::vector<int64_t> read = ReadFrom(target, resume->downstream);
    std::erase(read, -1);
    const std::vector<int64_t> wanted = AtOrAfter(source, committed);
    ASSERT_GE(read.size(), wanted.size()) << committed;
    EXPECT_TRUE(std::equal(wanted.rbegin(), wanted.rend(), read.rbegin())) << committed;
    if (resume->exact) {
      ++exact;
      EXPECT_EQ(read, wanted) << committed;
    }
  }
  EXPECT_GT(exact, 1000);  // most offsets sit inside a run that was written
}

}  // namespace
}  // namespace connectd::mirror
