#include "runtime/common/logging.h"

#include <gtest/gtest.h>

namespace connectd::log {
namespace {

TEST(LoggingTest, ParseLevelAcceptsLog4jNames) {
  EXPECT_EQ(ParseLevel("debug"), Level::kDebug);
  EXPECT_EQ(ParseLevel("WARNING"), Level::kWarn);
  EXPECT_EQ(ParseLevel("Fatal"), Level::kError);
  EXPECT_EQ(ParseLevel("off"), Level::kOff);
  EXPECT_EQ(ParseLevel("loud"), std::nullopt);
}

TEST(LoggingTest, DescendantsFollowTheNearestAncestorWithALevel) {
  SetLevel("test.a", Level::kDebug);
  EXPECT_EQ(EffectiveLevel("test.a.b.c"), Level::kDebug);
  SetLevel("test.a.b", Level::kError);
  EXPECT_EQ(EffectiveLevel("test.a.b.c"), Level::kError);
  EXPECT_EQ(EffectiveLevel("test.a.x"), Level::kDebug);
  EXPECT_FALSE(IsEnabled(Level::kWarn, "test.a.b.c"));
  EXPECT_TRUE(IsEnabled(Level::kError, "test.a.b.c"));
  EXPECT_EQ(ExplicitLevels().at("test.a.b"), Level::kError);
}

TEST(LoggingTest, RootNamesTheEmptyLogger) {
  Level before = EffectiveLevel("");
  SetLevel("root", Level::kWarn);
  EXPECT_EQ(EffectiveLevel("unrelated.logger"), Level::kWarn);
  EXPECT_EQ(ExplicitLevels().at("root"), Level::kWarn);
  SetLevel("", before);
}

TEST(LoggingTest, ContextIsScopedPerThread) {
  EXPECT_EQ(LogContext::Current(), "");
  {
    LogContext outer("conn|task-0");
    EXPECT_EQ(LogContext::Current(), "conn|task-0");
    {
      LogContext inner("conn|task-1");
      EXPECT_EQ(LogContext::Current(), "conn|task-1");
    }
    EXPECT_EQ(LogContext::Current(), "conn|task-0");
  }
  EXPECT_EQ(LogContext::Current(), "");
}

}  // namespace
}  // namespace connectd::log
