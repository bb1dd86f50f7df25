// The one librdkafka config builder (jvm/client_conf.h): librdkafka's kinit is off whatever the
// properties say, what loads code is refused even from connectd's own settings, an unknown
// property is refused, and a keytab login that cannot succeed fails naming the principal and
// keytab before any client exists. Kerberos logins against a real KDC: e2e kerberos_test.py.
#include "jvm/client_conf.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "jvm/kerberos_login.h"

namespace connectd::jvm {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

std::string Get(rd_kafka_conf_t* conf, const char* key) {
  char value[512];
  size_t size = sizeof(value);
  if (rd_kafka_conf_get(conf, key, value, &size) != RD_KAFKA_CONF_OK) return "<unset>";
  return value;
}

TEST(ClientConfTest, LibrdkafkasKinitIsAlwaysOff) {
  std::vector<std::string> warnings;
  std::string error;
  rd_kafka_conf_t* conf = MakeClientConf({{"bootstrap.servers", "127.0.0.1:9"},
                                          {"sasl.kerberos.min.time.before.relogin", "60000"}},
                                         warnings, error);
  ASSERT_NE(conf, nullptr) << error;
  EXPECT_EQ(Get(conf, "sasl.kerberos.min.time.before.relogin"), "0");
  EXPECT_EQ(Get(conf, "bootstrap.servers"), "127.0.0.1:9");
  EXPECT_THAT(warnings, IsEmpty());
  rd_kafka_conf_destroy(conf);
}

TEST(ClientConfTest, CodeCommandsAndUnknownNamesAreRefusedWhoeverAsks) {
  for (const char* key : {"plugin.library.paths", "ssl.engine.location", "ssl.providers",
                          "sasl.kerberos.kinit.cmd", "test.mock.num.brokers",
                          "ut_handle_ProduceResponse", "offset.store.path"}) {
    std::vector<std::string> warnings;
    std::string error;
    rd_kafka_conf_t* conf = MakeClientConf({{key, "x"}}, warnings, error);
    EXPECT_EQ(conf, nullptr) << key;
    EXPECT_THAT(error, HasSubstr(key));
    if (conf != nullptr) rd_kafka_conf_destroy(conf);
  }
  // connectd's own reading settings are its code's to set.
  std::vector<std::string> warnings;
  std::string error;
  rd_kafka_conf_t* conf = MakeClientConf({{"enable.partition.eof", "true"}}, warnings, error);
  ASSERT_NE(conf, nullptr) << error;
  rd_kafka_conf_destroy(conf);
}

TEST(ClientConfTest, AKeytabLoginThatCannotSucceedFailsBeforeTheClientNamingItsParts) {
  std::vector<std::string> warnings;
  std::string error;
  rd_kafka_conf_t* conf = MakeClientConf({{"security.protocol", "SASL_PLAINTEXT"},
                                          {"sasl.mechanisms", "GSSAPI"},
                                          {"sasl.kerberos.service.name", "kafka"},
                                          {"sasl.kerberos.principal", "nobody@NO.SUCH.REALM"},
                                          {"sasl.kerberos.keytab", "/nonexistent/connectd.keytab"}},
                                         warnings, error);
  EXPECT_EQ(conf, nullptr);
  EXPECT_THAT(error, AllOf(HasSubstr("nobody@NO.SUCH.REALM"),
                           HasSubstr("/nonexistent/connectd.keytab"), HasSubstr("failed")));
  if (conf != nullptr) rd_kafka_conf_destroy(conf);
}

TEST(ClientConfTest, TheLoginRefusesNamesTheSyntaxRefuses) {
  std::string error;
  EXPECT_EQ(KerberosLogin::Acquire("x;touch b", "/k", error), nullptr);
  EXPECT_THAT(error, HasSubstr("principal is refused"));
  EXPECT_EQ(KerberosLogin::Acquire("x@R", "kt$(touch a)", error), nullptr);
  EXPECT_THAT(error, HasSubstr("keytab is refused"));
}

}  // namespace
}  // namespace connectd::jvm
