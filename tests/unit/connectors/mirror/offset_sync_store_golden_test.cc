// OffsetSyncStore against Kafka's own: replays golden/offset_sync_store.txt, which
// golden/OffsetSyncStoreGolden.java produced by feeding seeded random sync streams (small and
// huge offsets, repeats, rewinds, downstream resets, both initial-load modes) to the Java
// OffsetSyncStore, and checks every recorded slot array and translation.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "connectors/mirror/offset_sync_store.h"

namespace connectd::mirror {
namespace {

std::string GoldenPath() {
  const char* dir = std::getenv("CONNECTD_SOURCE_DIR");
  return std::string(dir != nullptr ? dir : CONNECTD_SOURCE_DIR) +
         "/tests/unit/connectors/mirror/golden/offset_sync_store.txt";
}

// The slots as Kafka's generator prints them: runs of one sync, "count:up:down,...".
std::string Runs(const OffsetSyncStore::Syncs& syncs) {
  std::string out;
  int run = 0;
  for (size_t i = 0; i < syncs.size(); ++i) {
    ++run;
    if (i + 1 == syncs.size() || syncs[i + 1].id != syncs[i].id) {
      if (!out.empty()) out += ",";
      out += std::to_string(run) + ":" + std::to_string(syncs[i].upstream) + ":" +
             std::to_string(syncs[i].downstream);
      run = 0;
    }
  }
  return out;
}

TEST(OffsetSyncStoreGoldenTest, MatchesKafkasOffsetSyncStore) {
  std::ifstream in(GoldenPath());
  ASSERT_TRUE(in.good()) << GoldenPath();
  std::optional<OffsetSyncStore> store;
  std::string line, scenario;
  int states = 0, translations = 0, line_number = 0;
  while (std::getline(in, line)) {
    ++line_number;
    std::istringstream fields(line);
    std::string kind;
    fields >> kind;
    SCOPED_TRACE("line " + std::to_string(line_number) + " (scenario " + scenario + "): " + line);
    if (kind == "scenario") {
      int must_read_to_end = 0;
      fields >> scenario >> must_read_to_end;
      store.emplace(must_read_to_end != 0);
    } else if (kind == "sync") {
      int32_t partition;
      int64_t up, down;
      fields >> partition >> up >> down;
      store->Update("t", partition, up, down);
    } else if (kind == "readtoend") {
      store->MarkReadToEnd();
    } else if (kind == "state") {
      int32_t partition;
      std::string expected;
      fields >> partition >> expected;
      const OffsetSyncStore::Syncs* syncs = store->syncsFor("t", partition);
      ASSERT_NE(syncs, nullptr);
      ASSERT_EQ(Runs(*syncs), expected);
      ++states;
    } else if (kind == "translate") {
      int32_t partition;
      int64_t group_offset;
      std::string expected;
      fields >> partition >> group_offset >> expected;
      std::optional<int64_t> actual = store->TranslateDownstream("t", partition, group_offset);
      ASSERT_EQ(actual ? std::to_string(*actual) : "none", expected);
      ++translations;
    } else {
      FAIL() << "unknown line";
    }
  }
  EXPECT_GT(states, 200);
  EXPECT_GT(translations, 1000);
}

}  // namespace
}  // namespace connectd::mirror
