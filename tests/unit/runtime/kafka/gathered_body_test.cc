// GatheredBody (runtime/kafka/protocol/gathered_body.h): fields and views come out in the order
// they were appended, views as the caller's own bytes (not copies), and the owners of viewed
// bytes live as long as the body.
#include "runtime/kafka/protocol/gathered_body.h"

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace connectd::kafka::protocol {
namespace {

TEST(GatheredBodyTest, PiecesComeInOrderAndViewsAreNotCopied) {
  const std::string first = "FIRST-BATCH", second = "SECOND";
  GatheredBody body;
  body.AppendView(first, nullptr);  // a view before any field
  body.fields().Int16(0x4142);
  body.AppendView(second, nullptr);
  body.AppendView(first, nullptr);  // two views in a row
  body.fields().Raw("end");
  EXPECT_EQ(body.Flatten(), "FIRST-BATCHABSECONDFIRST-BATCHend");
  EXPECT_EQ(body.size(), body.Flatten().size());
  std::vector<std::string_view> pieces = body.Pieces();
  ASSERT_EQ(pieces.size(), 5u);
  EXPECT_EQ(pieces[0].data(), first.data());
  EXPECT_EQ(pieces[1], "AB");
  EXPECT_EQ(pieces[2].data(), second.data());
  EXPECT_EQ(pieces[3].data(), first.data());
  EXPECT_EQ(pieces[4], "end");
  EXPECT_EQ(GatheredBody(std::string("only")).Flatten(), "only");
  EXPECT_EQ(GatheredBody().Pieces().size(), 0u);
}

TEST(GatheredBodyTest, OwnersLiveAsLongAsTheBody) {
  auto bytes = std::make_shared<std::string>("held elsewhere");
  std::weak_ptr<std::string> watch = bytes;
  std::optional<GatheredBody> body;
  body.emplace();
  body->AppendView(*bytes, bytes);
  body->AppendView(*bytes, bytes);  // the same owner, kept once
  bytes.reset();
  ASSERT_FALSE(watch.expired());
  GatheredBody copy = *body;  // a copy shares them
  body.reset();
  EXPECT_EQ(copy.Flatten(), "held elsewhereheld elsewhere");
  copy = GatheredBody();
  EXPECT_TRUE(watch.expired());
}

}  // namespace
}  // namespace connectd::kafka::protocol
