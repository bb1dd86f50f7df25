// SCRAM against RFC 7677's SCRAM-SHA-256 example, and PLAIN's layout.
#include "runtime/kafka/protocol/sasl.h"

#include <gtest/gtest.h>

namespace connectd::kafka::protocol {
namespace {

TEST(ScramClientTest, Rfc7677Example) {
  ScramClient client(ScramClient::kSha256, "user", "pencil", "rOprNGfwEbeRWgbNEkqO");
  EXPECT_EQ(client.ClientFirstMessage(), "n,,n=user,r=rOprNGfwEbeRWgbNEkqO");
  auto final_message = client.ClientFinalMessage(
      "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096");
  ASSERT_TRUE(final_message.ok()) << final_message.status();
  EXPECT_EQ(*final_message,
            "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
            "p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=");
  EXPECT_TRUE(client.VerifyServerFinal("v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=").ok());
  EXPECT_EQ(client.VerifyServerFinal("v=AAAATRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=").code(),
            absl::StatusCode::kUnauthenticated);
  EXPECT_EQ(client.VerifyServerFinal("e=invalid-proof").code(),
            absl::StatusCode::kUnauthenticated);
}

TEST(ScramClientTest, RejectsServerAnswersThatCannotBeTrusted) {
  ScramClient client(ScramClient::kSha512, "a,b=c", "pw", "nonce");
  EXPECT_EQ(client.ClientFirstMessage(), "n,,n=a=2Cb=3Dc,r=nonce");
  EXPECT_FALSE(client.ClientFinalMessage("r=other,s=c2FsdA==,i=4096").ok()) << "foreign nonce";
  EXPECT_FALSE(client.ClientFinalMessage("r=nonce,s=c2FsdA==,i=4096").ok()) << "nonce not extended";
  EXPECT_FALSE(client.ClientFinalMessage("r=nonceX,i=4096").ok()) << "no salt";
  EXPECT_FALSE(client.ClientFinalMessage("r=nonceX,s=c2FsdA==,i=10").ok()) << "few iterations";
  // Found by kafka_protocol_fuzz: 2^31-1 iterations held the thread in PBKDF2 for minutes.
  EXPECT_FALSE(client.ClientFinalMessage("r=nonceX,s=c2FsdA==,i=2147483647").ok())
      << "more iterations than a Kafka broker stores";
  EXPECT_FALSE(client.ClientFinalMessage("r=nonceX,s=c2FsdA==,i=16385").ok());
  EXPECT_TRUE(client.ClientFinalMessage("r=nonceX,s=c2FsdA==,i=16384").ok());
  EXPECT_FALSE(client.VerifyServerFinal("v=abc").ok()) << "no client-final computed yet";
  EXPECT_TRUE(client.ClientFinalMessage("r=nonceX,s=c2FsdA==,i=4096").ok());
  EXPECT_EQ(ScramClient::HashOf("SCRAM-SHA-512").value(), ScramClient::kSha512);
  EXPECT_FALSE(ScramClient::HashOf("PLAIN").ok());
}

TEST(ScramClientTest, RandomNoncesDiffer) {
  ScramClient a(ScramClient::kSha256, "u", "p"), b(ScramClient::kSha256, "u", "p");
  EXPECT_NE(a.ClientFirstMessage(), b.ClientFirstMessage());
}

TEST(PlainTest, InitialResponse) {
  EXPECT_EQ(PlainInitialResponse("alice", "s3cret"), std::string("\0alice\0s3cret", 13));
}

}  // namespace
}  // namespace connectd::kafka::protocol
