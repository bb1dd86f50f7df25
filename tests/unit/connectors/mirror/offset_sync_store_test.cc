// OffsetSyncStore: the translation examples of Kafka's OffsetSyncStoreTest, the initial-load modes,
// and property tests of invariants A-D under random sync sequences.
#include "connectors/mirror/offset_sync_store.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace connectd::mirror {
namespace {

constexpr int kSlots = OffsetSyncStore::kSyncsPerPartition;
const std::string kTopic = "topic1";
constexpr int32_t kPartition = 2;

// A store past its initial load (Kafka's tests start the store before feeding it).
OffsetSyncStore Started(bool initialization_must_read_to_end = true) {
  OffsetSyncStore store(initialization_must_read_to_end);
  store.MarkReadToEnd();
  return store;
}

void Sync(OffsetSyncStore& store, int64_t upstream, int64_t downstream) {
  store.Update(kTopic, kPartition, upstream, downstream);
}

std::optional<int64_t> Translate(const OffsetSyncStore& store, int64_t upstream) {
  return store.TranslateDownstream(kTopic, kPartition, upstream);
}

const OffsetSyncStore::Syncs& Slots(const OffsetSyncStore& store) {
  const OffsetSyncStore::Syncs* syncs = store.syncsFor(kTopic, kPartition);
  EXPECT_NE(syncs, nullptr);
  return *syncs;
}

int DistinctSyncs(const OffsetSyncStore& store) {
  const auto& s = Slots(store);
  int count = 1;
  for (int i = 1; i < kSlots; ++i) count += s[i].id != s[i - 1].id ? 1 : 0;
  return count;
}

// Invariants B and C for every pair of slots i < j holding different upstream offsets (equal
// offsets are equivalent for translation), with Java's overflow rules: a negative bound is
// skipped. Returns the first violation, or "".
std::string InvariantViolation(const OffsetSyncStore& store) {
  const auto& s = Slots(store);
  for (int j = 0; j < kSlots; ++j) {
    for (int i = 0; i < j; ++i) {
      if (s[i].upstream == s[j].upstream) continue;
      const int64_t lower = static_cast<int64_t>(static_cast<uint64_t>(s[j].upstream) +
                                                 (uint64_t{1} << std::max(i - 2, 0)));
      if (lower < 0) continue;
      if (s[i].upstream < lower) {
        return "C(" + std::to_string(i) + "," + std::to_string(j) +
               "): " + std::to_string(s[i].upstream) + " < " + std::to_string(lower);
      }
      const int64_t upper = static_cast<int64_t>(static_cast<uint64_t>(s[j].upstream) +
                                                 (uint64_t{1} << j) - (uint64_t{1} << i));
      if (upper < 0) continue;
      if (s[i].upstream > upper) {
        return "B(" + std::to_string(i) + "," + std::to_string(j) +
               "): " + std::to_string(s[i].upstream) + " > " + std::to_string(upper);
      }
    }
  }
  return "";
}

// The examples of Kafka's OffsetSyncStoreTest.testOffsetTranslation).
TEST(OffsetSyncStoreTest, TranslatesTheReferenceExamples) {
  OffsetSyncStore store = Started();
  Sync(store, 100, 200);
  EXPECT_EQ(Translate(store, 150), 201);  // at most one past the sync
  Sync(store, 150, 251);
  EXPECT_EQ(Translate(store, 150), 251);  // exact
  EXPECT_EQ(Translate(store, 5), -1);     // older than every sync
  Sync(store, 200, 10);                   // downstream reset
  EXPECT_EQ(Translate(store, 200), 10);
  Sync(store, 20, 20);  // upstream rewind clears history
  EXPECT_EQ(Translate(store, 20), 20);
  for (const auto& slot : Slots(store)) EXPECT_EQ(slot.upstream, 20);
}

TEST(OffsetSyncStoreTest, NoTranslationBeforeTheFirstReadToEnd) {
  OffsetSyncStore store;
  EXPECT_EQ(Translate(store, 0), std::nullopt);
  Sync(store, 100, 200);  // read during the initial load
  EXPECT_EQ(Translate(store, 0), std::nullopt);
  EXPECT_EQ(Translate(store, 100), std::nullopt);
  EXPECT_EQ(Translate(store, 200), std::nullopt);
  store.MarkReadToEnd();
  EXPECT_EQ(Translate(store, 0), -1);
  EXPECT_EQ(Translate(store, 100), 200);
  EXPECT_EQ(Translate(store, 200), 201);
}

TEST(OffsetSyncStoreTest, NoTranslationWithoutSyncsForThePartition) {
  OffsetSyncStore store = Started();
  EXPECT_EQ(Translate(store, 0), std::nullopt);
  store.Update(kTopic, kPartition + 1, 0, 0);
  store.Update("other", kPartition, 0, 0);
  EXPECT_EQ(Translate(store, 0), std::nullopt);
  EXPECT_EQ(store.TranslateDownstream(kTopic, kPartition + 1, 0), 0);
  EXPECT_EQ(store.partitionCount(), 2u);
}

void ExpectSparseSync(const OffsetSyncStore& store, int64_t sync, int64_t previous) {
  SCOPED_TRACE("sync " + std::to_string(sync) + " previous " + std::to_string(previous));
  EXPECT_EQ(Translate(store, sync - 1), previous == -1 ? -1 : previous + 1);
  EXPECT_EQ(Translate(store, sync), sync);
  EXPECT_EQ(Translate(store, sync + 1), sync + 1);
  EXPECT_EQ(Translate(store, sync + 2), sync + 1);
}

// The initial load keeps only its last sync when the store must not trust older ones
// (the checkpoint task could not load its checkpoints): invariant D is that sync.
TEST(OffsetSyncStoreTest, PastTranslationAfterAPessimisticInitialLoad) {
  OffsetSyncStore store(/*initialization_must_read_to_end=*/true);
  for (int64_t offset = 0; offset <= 1000; offset += 10) {
    Sync(store, offset, offset);
    ASSERT_EQ(InvariantViolation(store), "");
  }
  store.MarkReadToEnd();
  ExpectSparseSync(store, 1000, -1);
  for (int64_t offset = 1010; offset <= 10000; offset += 10) {
    Sync(store, offset, offset);
    ASSERT_EQ(InvariantViolation(store), "");
  }
  ExpectSparseSync(store, 1000, -1);  // D: still the oldest usable sync
  ExpectSparseSync(store, 4840, 1000);
  ExpectSparseSync(store, 6760, 4840);
  ExpectSparseSync(store, 8680, 6760);
  ExpectSparseSync(store, 9160, 8680);
  ExpectSparseSync(store, 9640, 9160);
  ExpectSparseSync(store, 9880, 9640);
  ExpectSparseSync(store, 9940, 9880);
  ExpectSparseSync(store, 9970, 9940);
  ExpectSparseSync(store, 9990, 9970);
  ExpectSparseSync(store, 10000, 9990);

  Sync(store, 1500, 11000);  // upstream rewind
  EXPECT_EQ(InvariantViolation(store), "");
  EXPECT_EQ(Translate(store, 1499), -1);
  EXPECT_EQ(Translate(store, 1500), 11000);
  EXPECT_EQ(Translate(store, 2000), 11001);
}

// When the checkpoints were loaded, the whole initial read is indexed.
TEST(OffsetSyncStoreTest, PastTranslationAfterAnOptimisticInitialLoad) {
  OffsetSyncStore store(/*initialization_must_read_to_end=*/false);
  for (int64_t offset = 0; offset <= 1000; offset += 10) {
    Sync(store, offset, offset);
    ASSERT_EQ(InvariantViolation(store), "");
  }
  store.MarkReadToEnd();
  ExpectSparseSync(store, 480, 0);
  ExpectSparseSync(store, 720, 480);
  ExpectSparseSync(store, 1000, 990);
  for (int64_t offset = 1000; offset <= 10000; offset += 10) {
    Sync(store, offset, offset);
    ASSERT_EQ(InvariantViolation(store), "");
  }
  ExpectSparseSync(store, 3840, 0);
  ExpectSparseSync(store, 7680, 3840);
  ExpectSparseSync(store, 8640, 7680);
  ExpectSparseSync(store, 9120, 8640);
  ExpectSparseSync(store, 9600, 9120);
  ExpectSparseSync(store, 9840, 9600);
  ExpectSparseSync(store, 9900, 9840);
  ExpectSparseSync(store, 9960, 9900);
  ExpectSparseSync(store, 9990, 9960);
  ExpectSparseSync(store, 10000, 9990);
}

// Identity, not value: a repeated record is a new sync and takes slot 0.
TEST(OffsetSyncStoreTest, RepeatedValuesAreDistinctSyncs) {
  OffsetSyncStore store = Started();
  Sync(store, 5, 5);
  const uint64_t first = Slots(store)[0].id;
  Sync(store, 5, 5);
  EXPECT_NE(Slots(store)[0].id, first);
  EXPECT_EQ(Slots(store)[kSlots - 1].id, first);
  EXPECT_EQ(Translate(store, 5), 5);
}

// Kafka's bounds overflow for huge offsets: B holds trivially, so the oldest slot can be
// replaced (checked against Kafka's OffsetSyncStore, which stores the same slots).
TEST(OffsetSyncStoreTest, HugeOffsetsFollowJavaOverflowRules) {
  OffsetSyncStore store = Started();
  const int64_t max = std::numeric_limits<int64_t>::max();
  Sync(store, 0, 0);
  Sync(store, max / 2, 1);
  Sync(store, max - 1, 2);
  Sync(store, max, 3);
  EXPECT_EQ(InvariantViolation(store), "");
  const auto& s = Slots(store);
  EXPECT_EQ(s[0].upstream, max);
  for (int i = 1; i < kSlots - 1; ++i) EXPECT_EQ(s[i].upstream, max - 1) << i;
  EXPECT_EQ(s[kSlots - 1].upstream, max / 2);
  EXPECT_EQ(Translate(store, max), 3);
  EXPECT_EQ(Translate(store, max - 1), 2);
  EXPECT_EQ(Translate(store, 0), -1);
}

// ---- Property tests ------------------------------------------------------------------------

// Feeds `first` and then first + each step; after every sync checks invariants A-D and that at
// most `max_expirations` distinct syncs left the store at once.
void CheckSpacing(int64_t first, const std::vector<int64_t>& steps, int max_expirations) {
  OffsetSyncStore store = Started();
  Sync(store, first, first);
  const uint64_t first_id = Slots(store)[0].id;
  int64_t offset = first;
  int last_count = 1;
  for (int64_t step : steps) {
    offset += step;
    ASSERT_GE(offset, 0) << "test overflowed";
    Sync(store, offset, offset);
    const auto& s = Slots(store);
    ASSERT_EQ(s[0].upstream, offset);                                // A
    ASSERT_EQ(s[kSlots - 1].id, first_id);                           // D
    ASSERT_EQ(InvariantViolation(store), "") << "after " << offset;  // B, C
    int count = DistinctSyncs(store);
    ASSERT_LE(last_count - count + 1, max_expirations) << "after " << offset;
    last_count = count;
  }
}

TEST(OffsetSyncStorePropertyTest, ConsistentlySpacedSyncsExpireAtMostOne) {
  const int iterations = 100;
  const int64_t max_step = std::numeric_limits<int64_t>::max() / iterations;
  for (int64_t step = 1; step < max_step; step = step * 2 + 1) {
    for (int64_t first = 0; first < 30; ++first) {
      SCOPED_TRACE("step " + std::to_string(step) + " first " + std::to_string(first));
      CheckSpacing(first, std::vector<int64_t>(iterations, step), 1);
    }
  }
}

TEST(OffsetSyncStorePropertyTest, RandomlySpacedSyncsExpireBoundedly) {
  std::mt19937_64 random(0);
  const int iteration_bits = 10;
  for (int n = 1; n < 64 - iteration_bits; ++n) {
    SCOPED_TRACE("n " + std::to_string(n));
    const int64_t spread = int64_t{1} << n;
    std::uniform_int_distribution<int64_t> small(0, spread - 1);
    std::vector<int64_t> steps(1 << iteration_bits);
    for (auto& s : steps) s = small(random);
    CheckSpacing(0, steps, n + 2);
    const int64_t lag = int64_t{1} << 16;  // a minimum step, as offset.lag.max makes
    for (auto& s : steps) s = lag + small(random);
    CheckSpacing(0, steps, n + 2);
  }
}

TEST(OffsetSyncStorePropertyTest, DroppedSyncsExpireAtMostTwo) {
  std::mt19937_64 random(0);
  std::bernoulli_distribution dropped(0.5);
  std::vector<int64_t> steps(10000);
  for (auto& s : steps) s = (dropped(random) ? 2 : 1) * 100;
  CheckSpacing(0, steps, 2);
}

// Random streams with rewinds, repeats, downstream resets and several partitions: invariants
// hold after every record; translation of a fixed state is monotonic in the group offset and,
// for identity-mapped syncs, never overshoots the group offset.
TEST(OffsetSyncStorePropertyTest, InvariantsHoldUnderRandomStreams) {
  std::mt19937_64 random(42);
  for (int round = 0; round < 200; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    const bool pessimistic = round % 2 == 0;
    OffsetSyncStore store(pessimistic);
    const int initial = static_cast<int>(random() % 50);
    int64_t offset = static_cast<int64_t>(random() % 1000);
    std::vector<int64_t> fed;
    auto feed = [&](int64_t up) {
      Sync(store, up, up);
      fed.push_back(up);
    };
    for (int k = 0; k < initial; ++k) {
      offset += static_cast<int64_t>(random() % 300);
      feed(offset);
    }
    if (pessimistic && initial > 0) {
      for (const auto& slot : Slots(store)) ASSERT_EQ(slot.upstream, offset);
    }
    store.MarkReadToEnd();
    const int updates = 300 + static_cast<int>(random() % 700);
    for (int k = 0; k < updates; ++k) {
      const int kind = static_cast<int>(random() % 100);
      int64_t before = fed.empty() ? 0 : Slots(store)[0].upstream;
      if (kind < 2 && offset > 0) {
        offset = static_cast<int64_t>(random() % static_cast<uint64_t>(offset));  // rewind
      } else if (kind < 10) {
        // repeat the same upstream offset
      } else {
        offset += 1 + static_cast<int64_t>(random() % (kind < 50 ? 10 : 5000));
      }
      feed(offset);
      const auto& s = Slots(store);
      ASSERT_EQ(s[0].upstream, offset);  // A
      ASSERT_EQ(InvariantViolation(store), "") << "after " << offset;
      if (offset < before) {  // a rewind clears every slot
        for (const auto& slot : s) ASSERT_EQ(slot.upstream, offset);
      }
      for (int i = 1; i < kSlots; ++i) ASSERT_LE(s[i].upstream, s[i - 1].upstream);
    }
    // Fixed state: monotonic and never past the group offset (identity syncs).
    std::optional<int64_t> previous;
    for (int64_t g = 0; g <= offset + 10; g += 1 + static_cast<int64_t>(random() % 97)) {
      std::optional<int64_t> t = Translate(store, g);
      ASSERT_TRUE(t.has_value());
      ASSERT_LE(*t, g);
      if (previous) {
        ASSERT_GE(*t, *previous);
      }
      previous = t;
    }
  }
}

}  // namespace
}  // namespace connectd::mirror
