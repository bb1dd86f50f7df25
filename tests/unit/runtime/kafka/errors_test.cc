// errors.h against Kafka 4.4's own table (tests/golden/protocol/errors.tsv, written by
// GenerateErrorsGolden.java from kafka-clients' Errors.values()).
#include "runtime/kafka/protocol/errors.h"

#include <fstream>
#include <sstream>
#include <string>

#include "gtest/gtest.h"

namespace connectd::kafka::protocol {
namespace {

std::string ClassName(ErrorClass c) {
  switch (c) {
    case ErrorClass::kNone:
      return "none";
    case ErrorClass::kMetadata:
      return "metadata";
    case ErrorClass::kRetriable:
      return "retriable";
    case ErrorClass::kFatal:
      return "fatal";
  }
  return "?";
}

TEST(ErrorsTest, EveryCodeHasKafkasNameAndClass) {
  std::ifstream in(std::string(CONNECTD_SOURCE_DIR) + "/tests/golden/protocol/errors.tsv");
  ASSERT_TRUE(in) << "tests/golden/protocol/errors.tsv";
  std::string line;
  int rows = 0;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    int code = 0;
    std::string name, error_class;
    ASSERT_TRUE(fields >> code >> name >> error_class) << line;
    const auto c = static_cast<int16_t>(code);
    EXPECT_EQ(ErrorName(c), name) << code;
    EXPECT_EQ(ClassName(ClassOf(c)), error_class) << name;
    EXPECT_EQ(IsRetriable(c), error_class == "metadata" || error_class == "retriable") << name;
    EXPECT_EQ(InvalidatesMetadata(c), error_class == "metadata") << name;
    ++rows;
  }
  EXPECT_GE(rows, 138);  // Kafka 4.4 defines codes -1..136
}

TEST(ErrorsTest, TheEnumHoldsKafkasCodes) {
  EXPECT_EQ(Code(Error::kNotLeaderOrFollower), 6);
  EXPECT_EQ(Code(Error::kOutOfOrderSequenceNumber), 45);
  EXPECT_EQ(Code(Error::kFencedLeaderEpoch), 74);
  const int16_t from_the_wire = 19;
  EXPECT_TRUE(from_the_wire == Error::kNotEnoughReplicas);
  EXPECT_TRUE(from_the_wire != Error::kNone);
}

TEST(ErrorsTest, ACodeOfANewerBrokerIsNamedByItsNumberAndNotRetried) {
  EXPECT_EQ(ErrorName(999), "UNKNOWN(999)");
  EXPECT_EQ(ClassOf(999), ErrorClass::kFatal);
  EXPECT_FALSE(IsRetriable(-2));
}

}  // namespace
}  // namespace connectd::kafka::protocol
