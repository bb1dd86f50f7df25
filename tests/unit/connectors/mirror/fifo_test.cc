// Fifo: first in, first out across compactions and bursts.
#include "connectors/mirror/fifo.h"

#include <cstdint>
#include <deque>
#include <random>

#include <gtest/gtest.h>

namespace connectd::mirror {
namespace {

TEST(FifoTest, PopsInTheOrderPushedAcrossCompactions) {
  Fifo<int64_t> fifo;
  std::deque<int64_t> model;
  std::mt19937 random(42);
  int64_t next = 0;
  for (int step = 0; step < 100'000; ++step) {
    // Bursts of pushes and pops, emptying now and then.
    if (model.empty() || random() % 3 != 0) {
      for (int i = random() % 40; i >= 0; --i) {
        fifo.emplace_back(next);
        model.push_back(next++);
      }
    } else {
      for (int i = random() % 60; i >= 0 && !model.empty(); --i) {
        ASSERT_EQ(fifo.front(), model.front());
        fifo.pop_front();
        model.pop_front();
      }
    }
    ASSERT_EQ(fifo.size(), model.size());
    ASSERT_EQ(fifo.empty(), model.empty());
    if (!model.empty()) {
      ASSERT_EQ(fifo.front(), model.front());
      ASSERT_EQ(fifo.back(), model.back());
    }
  }
}

TEST(FifoTest, HoldsPairs) {
  Fifo<std::pair<int64_t, int64_t>> fifo;
  EXPECT_TRUE(fifo.empty());
  fifo.emplace_back(5, 50);
  fifo.emplace_back(6, 60);
  EXPECT_EQ(fifo.front(), (std::pair<int64_t, int64_t>{5, 50}));
  EXPECT_EQ(fifo.back(), (std::pair<int64_t, int64_t>{6, 60}));
  fifo.pop_front();
  fifo.pop_front();
  EXPECT_TRUE(fifo.empty());
}

}  // namespace
}  // namespace connectd::mirror
