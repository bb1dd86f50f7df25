// KIP-507 signing against values computed by the JVM (JDK 17 javax.crypto.Mac, KeyGenerator and
// java.util.Base64, run through jshell when these tests were written).
#include "runtime/distributed/request_signing.h"
#include "jvm/java_base64.h"

#include <gtest/gtest.h>

#include "runtime/herder_api/herder.h"

namespace connectd::distributed {
namespace {

// Key bytes i * 7 + 3 for i in [0, 32), as the Java golden run used.
std::string GoldenKey() {
  std::string key;
  for (int i = 0; i < 32; ++i) key.push_back(static_cast<char>(i * 7 + 3));
  return key;
}

constexpr char kGoldenBody[] =
    R"([{"connector.class":"FileStreamSource","task.class":"org.apache.kafka.connect.file.FileStreamSourceTask"}])";

TEST(RequestSigningTest, SignMatchesJavaMacForEveryAlgorithm) {
  ASSERT_EQ(jvm::JavaBase64Encode(GoldenKey()), "AwoRGB8mLTQ7QklQV15lbHN6gYiPlp2kq7K5wMfO1dw=");
  const std::pair<const char*, const char*> kGolden[] = {
      {"HmacMD5", "UPZVlbwLIRKVkNh/MyFvzg=="},
      {"HmacSHA1", "AZ/+9ae82seiy+KSYD8cXGkHy6Y="},
      {"HmacSHA224", "+ibJlq9i8wHFjxkaVDUa/cri0TkZ2gvVwmQsIg=="},
      {"HmacSHA256", "QbXeNPA/LOl1iJ017cmGuId8EPZRFHRQ4GDErgtk8Yw="},
      {"HmacSHA384", "TxUq6hEMmz+b1J1SepMhQeYfa8VIPiFxcFmrcqVNFEMo6sY0Wv1GLFvDgQ3Ii+zP"},
      {"HmacSHA512",
       "oJ7gGbGYcIzpdpbd9VcGJf79uYix7I7Kg4M74AJDXgsOYV1YpFnqUVcWXU7lMFCWWAW0fFzTpHpKbuukJJrJcQ=="},
      {"HmacSHA512/224", "m6TtvEpnFIfAHWwDBim0sLTLG1QceCY1WrZyxQ=="},
      {"HmacSHA512/256", "a+32eeg28cdfDDa72ISAAXY3cLd9ZqDTF7klQ45jzcw="},
      {"HmacSHA3-256", "IUGsoPYY5fGAaunNIgeRLukRfIhh99Cxfej63DwT0EU="},
      {"HmacSHA3-512",
       "EMP9UqAFz5QH74pebzvOgTQjdIDfLsBSknRoWRkdn0xBfJEl3XzGZhQvnp9YrYRDJ5dsC4SkvhrPuy/HpM5LcA=="},
  };
  for (const auto& [algorithm, expected] : kGolden) {
    absl::StatusOr<std::string> signature = Sign(GoldenKey(), algorithm, kGoldenBody);
    ASSERT_TRUE(signature.ok()) << algorithm << ": " << signature.status();
    EXPECT_EQ(*signature, expected) << algorithm;
  }
}

TEST(RequestSigningTest, SignsEmptyBodiesAndIgnoresAlgorithmCase) {
  const std::string key = "0123456789abcdef0123456789abcdef";
  EXPECT_EQ(*Sign(key, "HmacSHA256", R"([{"task.class":"X"}])"),
            "kjcuIcJQf1xWPw5cr3ojl67y7oCjqMhP513I96T4JFw=");
  EXPECT_EQ(*Sign(key, "HmacSHA256", ""), "eWzTB4rxRjZ1PSaztVVUIv9Vo+Jhz4R7SOlTcbm9CqI=");
  EXPECT_EQ(*Sign(key, "hmacsha256", ""), "eWzTB4rxRjZ1PSaztVVUIv9Vo+Jhz4R7SOlTcbm9CqI=");
  EXPECT_TRUE(IsSupportedMacAlgorithm("HMACSHA512"));
  EXPECT_FALSE(IsSupportedMacAlgorithm("AES"));  // a KeyGenerator, not a Mac
  absl::StatusOr<std::vector<std::pair<std::string, std::string>>> headers =
      SignatureHeaders(key, "HmacSHA256", "");
  ASSERT_TRUE(headers.ok());
  EXPECT_EQ(*headers,
            (std::vector<std::pair<std::string, std::string>>{
                {"X-Connect-Authorization", "eWzTB4rxRjZ1PSaztVVUIv9Vo+Jhz4R7SOlTcbm9CqI="},
                {"X-Connect-Request-Signature-Algorithm", "HmacSHA256"}}));
  absl::StatusOr<std::string> unknown = Sign(key, "Foo", "");
  EXPECT_TRUE(absl::IsInvalidArgument(unknown.status()));
  EXPECT_EQ(unknown.status().message(), "Algorithm Foo not available");
}

TEST(RequestSigningTest, GenerateKeyUsesTheJvmDefaultSizesAndRules) {
  const std::pair<const char*, size_t> kDefaults[] = {
      {"HmacSHA256", 32}, {"HmacSHA384", 48}, {"HmacSHA512", 64},   {"HmacSHA224", 28},
      {"HmacSHA1", 64},   {"HmacMD5", 64},    {"HmacSHA3-256", 32}, {"HmacSHA512/224", 28},
      {"AES", 16},        {"hmacsha256", 32},
  };
  for (const auto& [algorithm, bytes] : kDefaults) {
    absl::StatusOr<std::string> key = GenerateKey(algorithm);
    ASSERT_TRUE(key.ok()) << algorithm << ": " << key.status();
    EXPECT_EQ(key->size(), bytes) << algorithm;
  }
  EXPECT_NE(*GenerateKey("HmacSHA256"), *GenerateKey("HmacSHA256"));
  EXPECT_EQ(GenerateKey("HmacSHA256", 100)->size(), 13u);
  EXPECT_EQ(GenerateKey("HmacSHA256", 40)->size(), 5u);
  EXPECT_EQ(GenerateKey("HmacSHA1", 8)->size(), 1u);
  EXPECT_EQ(GenerateKey("AES", 256)->size(), 32u);
  EXPECT_EQ(GenerateKey("HmacSHA256", 39).status().message(),
            "Key length must be at least 40 bits");
  EXPECT_EQ(GenerateKey("HmacSHA3-256", 8).status().message(),
            "Key length must be at least 40 bits");
  EXPECT_EQ(GenerateKey("HmacMD5", 0).status().message(), "Empty key");
  EXPECT_EQ(GenerateKey("AES", 100).status().message(),
            "Wrong keysize: must be equal to 128, 192 or 256");
  EXPECT_EQ(GenerateKey("Foo").status().message(), "Foo KeyGenerator not available");
}

class VerifyTest : public ::testing::Test {
 protected:
  herder::InternalRequestSignature Signed(const std::string& body,
                                          const std::string& algorithm = "HmacSHA256") {
    return {algorithm, *Sign(key_.key, algorithm, body), body};
  }
  storage::SessionKey key_{std::string(32, '\x42'), "HmacSHA256", 1700000000000};
  std::vector<std::string> algorithms_{"HmacSHA256"};
};

TEST_F(VerifyTest, AcceptsAValidSignature) {
  EXPECT_TRUE(VerifyInternalRequest(Signed("[]"), algorithms_, key_).ok());
  EXPECT_TRUE(VerifyInternalRequest(Signed(""), algorithms_, key_).ok());
  // Any algorithm the worker accepts, whatever the key was generated for.
  EXPECT_TRUE(
      VerifyInternalRequest(Signed("[]", "HmacSHA512"), {"HmacSHA256", "HmacSHA512"}, key_).ok());
}

TEST_F(VerifyTest, RefusesWithJavasStatusesAndMessages) {
  absl::Status missing = VerifyInternalRequest(std::nullopt, algorithms_, key_);
  EXPECT_EQ(herder::HttpStatusOf(missing), 400);
  EXPECT_EQ(missing.message(), "Internal request missing required signature");

  absl::Status unknown = VerifyInternalRequest(
      herder::InternalRequestSignature{"Foo", "AAAA", "[]"}, algorithms_, key_);
  EXPECT_EQ(herder::HttpStatusOf(unknown), 400);
  EXPECT_EQ(unknown.message(), "Algorithm Foo not available");

  herder::InternalRequestSignature bad_base64 = Signed("[]");
  bad_base64.signature = "abc-";
  absl::Status bad = VerifyInternalRequest(bad_base64, algorithms_, key_);
  EXPECT_EQ(herder::HttpStatusOf(bad), 400);
  EXPECT_EQ(bad.message(), "Illegal base64 character 2d");

  absl::Status unsupported =
      VerifyInternalRequest(Signed("[]", "HmacSHA1"), {"HmacSHA256", "HmacSHA512"}, key_);
  EXPECT_EQ(herder::HttpStatusOf(unsupported), 400);
  EXPECT_EQ(unsupported.message(),
            "This worker does not support the 'HmacSHA1' key signing algorithm used by other "
            "workers. This worker is currently configured to use: [HmacSHA256, HmacSHA512]. "
            "Check that all workers' configuration files permit the same set of signature "
            "algorithms, and correct any misconfigured worker and restart it.");
  // The name is compared as sent, as Java compares Mac.getAlgorithm().
  EXPECT_EQ(
      herder::HttpStatusOf(VerifyInternalRequest(Signed("[]", "hmacsha256"), algorithms_, key_)),
      400);

  absl::Status no_key = VerifyInternalRequest(Signed("[]"), algorithms_, std::nullopt);
  EXPECT_EQ(herder::HttpStatusOf(no_key), 503);
  EXPECT_EQ(no_key.message(),
            "This worker is still starting up and has not been able to read a session key from "
            "the config topic yet");

  herder::InternalRequestSignature tampered = Signed("[]");
  tampered.body = "[{}]";
  absl::Status invalid = VerifyInternalRequest(tampered, algorithms_, key_);
  EXPECT_EQ(herder::HttpStatusOf(invalid), 403);
  EXPECT_TRUE(absl::IsPermissionDenied(invalid));
  EXPECT_EQ(invalid.message(), "Internal request contained invalid signature.");

  storage::SessionKey other = key_;
  other.key = std::string(32, '\x43');
  EXPECT_EQ(herder::HttpStatusOf(VerifyInternalRequest(Signed("[]"), algorithms_, other)), 403);
  // A truncated MAC is a mismatch, not an error.
  herder::InternalRequestSignature truncated = Signed("[]");
  std::string error;
  truncated.signature =
      jvm::JavaBase64Encode(jvm::JavaBase64Decode(truncated.signature, &error)->substr(0, 16));
  EXPECT_EQ(herder::HttpStatusOf(VerifyInternalRequest(truncated, algorithms_, key_)), 403);
}

}  // namespace
}  // namespace connectd::distributed
