// Base64 as java.util.Base64 and Jackson read and write it, with Java's error messages (the
// texts a Java 4.4 worker sends back in its 400s and logs).
#include "jvm/java_base64.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <utility>

namespace connectd::jvm {
namespace {

std::optional<std::string> Decode(std::string_view text, std::string* error = nullptr) {
  std::string ignored;
  return JavaBase64Decode(text, error != nullptr ? error : &ignored);
}

TEST(JavaBase64Test, DecodesAsJavaDoes) {
  EXPECT_EQ(*Decode("YWJj"), "abc");
  EXPECT_EQ(*Decode("YWJ"), "ab");  // padding is optional
  EXPECT_EQ(*Decode("YQ"), "a");
  EXPECT_EQ(*Decode("YW=="), "a");
  EXPECT_EQ(*Decode("YWJjZA"), "abcd");
  EXPECT_EQ(*Decode(""), "");
  EXPECT_EQ(*Decode("//79AH8="), std::string("\xff\xfe\xfd\x00\x7f", 5));
  const std::pair<const char*, const char*> kErrors[] = {
      {"abc-", "Illegal base64 character 2d"},
      {" YWJj", "Illegal base64 character 20"},
      {"YWJj\n", "Illegal base64 character a"},
      {"-_8", "Illegal base64 character 2d"},  // the URL alphabet is not the basic decoder's
      {"AQ ==", "Illegal base64 character 20"},
      {"YWI=x", "Input byte array has incorrect ending byte at 4"},
      {"YQ===", "Input byte array has incorrect ending byte at 4"},
      {"YWJjZA==YQ", "Input byte array has incorrect ending byte at 8"},
      {"YWJjZA=", "Input byte array has wrong 4-byte ending unit"},
      {"YQ=", "Input byte array has wrong 4-byte ending unit"},
      {"Y===", "Last unit does not have enough valid bits"},
      {"Y", "Input byte[] should at least have 2 bytes for base64 bytes"},
      {"=", "Input byte[] should at least have 2 bytes for base64 bytes"},
  };
  for (const auto& [text, message] : kErrors) {
    std::string error;
    EXPECT_FALSE(Decode(text, &error)) << text;
    EXPECT_EQ(error, message) << text;
  }
  // Java reports a non-ASCII byte as a signed byte.
  std::string error;
  EXPECT_FALSE(Decode("\xC3\xA9", &error));
  EXPECT_EQ(error, "Illegal base64 character -3d");
  for (std::string_view bytes : {"", "a", "ab", "abc", "abcd", "\xFF\x00\x10"}) {
    EXPECT_EQ(*Decode(JavaBase64Encode(bytes)), bytes);
  }
}

TEST(JacksonBase64Test, NeedsPaddingAndSkipsWhitespaceBetweenQuanta) {
  EXPECT_EQ(*JacksonBase64Decode("YWJj"), "abc");
  EXPECT_EQ(*JacksonBase64Decode(" YWJj YQ== "), "abca");
  EXPECT_EQ(*JacksonBase64Decode("YWI="), "ab");
  EXPECT_EQ(*JacksonBase64Decode(""), "");
  EXPECT_FALSE(JacksonBase64Decode("YQ"));  // Jackson's default variant wants the padding
  EXPECT_FALSE(JacksonBase64Decode("YW Jj"));
  EXPECT_FALSE(JacksonBase64Decode("-_8="));
}

}  // namespace
}  // namespace connectd::jvm
