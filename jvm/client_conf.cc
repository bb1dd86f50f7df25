#include "jvm/client_conf.h"

#include <cctype>
#include <memory>

#include "jvm/kerberos_login.h"
#include "jvm/librdkafka_properties.h"

namespace connectd::jvm {
namespace {

constexpr char kInterceptor[] = "connectd-kerberos-login";

std::string Get(const std::map<std::string, std::string>& p, const std::string& key) {
  auto it = p.find(key);
  return it == p.end() ? "" : it->second;
}

std::string Upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// The interceptor's state: one per config, and so one per client (rd_kafka_new takes the config
// and destroys it, calling on_conf_destroy, after the client's threads have ended).
struct LoginHolder {
  std::shared_ptr<KerberosLogin> login;
};

rd_kafka_resp_err_t OnThreadStart(rd_kafka_t*, rd_kafka_thread_type_t, const char*,
                                  void* opaque) {
  // Broker threads run the SASL handshake; the others are set too, at no cost.
  UseCredentialCacheOnThisThread(static_cast<LoginHolder*>(opaque)->login->ccache());
  return RD_KAFKA_RESP_ERR_NO_ERROR;
}

rd_kafka_resp_err_t OnNew(rd_kafka_t* rk, const rd_kafka_conf_t*, void* opaque, char*, size_t) {
  return rd_kafka_interceptor_add_on_thread_start(rk, kInterceptor, OnThreadStart, opaque);
}

rd_kafka_resp_err_t OnConfDestroy(void* opaque) {
  delete static_cast<LoginHolder*>(opaque);
  return RD_KAFKA_RESP_ERR_NO_ERROR;
}

// SASL/GSSAPI from a keytab: the login, and the interceptor that hands its cache to the
// client's threads. Without a keytab the client uses the default credential cache (KRB5CCNAME)
// as the operator keeps it.
bool InstallKerberosLogin(rd_kafka_conf_t* conf, const std::map<std::string, std::string>& p,
                          std::string& error) {
  const std::string protocol = Upper(Get(p, "security.protocol"));
  std::string mechanism = Upper(Get(p, "sasl.mechanisms"));
  if (mechanism.empty()) mechanism = Upper(Get(p, "sasl.mechanism"));
  if (mechanism.empty()) mechanism = "GSSAPI";  // librdkafka's default
  const std::string keytab = Get(p, "sasl.kerberos.keytab");
  if ((protocol != "SASL_PLAINTEXT" && protocol != "SASL_SSL") || mechanism != "GSSAPI" ||
      keytab.empty()) {
    return true;
  }
  std::shared_ptr<KerberosLogin> login =
      KerberosLogin::Acquire(Get(p, "sasl.kerberos.principal"), keytab, error);
  if (!login) return false;
  auto* holder = new LoginHolder{std::move(login)};
  if (rd_kafka_conf_interceptor_add_on_conf_destroy(conf, kInterceptor, OnConfDestroy, holder) !=
      RD_KAFKA_RESP_ERR_NO_ERROR) {
    delete holder;
    error = "cannot attach the Kerberos login to the client";
    return false;
  }
  if (rd_kafka_conf_interceptor_add_on_new(conf, kInterceptor, OnNew, holder) !=
      RD_KAFKA_RESP_ERR_NO_ERROR) {
    error = "cannot attach the Kerberos login to the client";
    return false;
  }
  return true;
}

}  // namespace

rd_kafka_conf_t* MakeClientConf(const std::map<std::string, std::string>& properties,
                                std::vector<std::string>& warnings, std::string& error) {
  for (const auto& [key, value] : properties) {
    const LibrdkafkaProperty* property = FindLibrdkafkaProperty(key);
    if (property == nullptr || property->use == PropertyUse::kRefused) {
      error = LibrdkafkaPropertyRefusal(key, value);
      return nullptr;
    }
  }
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  char errstr[512];
  auto set = [&](const std::string& key, const std::string& value) {
    rd_kafka_conf_res_t result =
        rd_kafka_conf_set(conf, key.c_str(), value.c_str(), errstr, sizeof(errstr));
    if (result == RD_KAFKA_CONF_UNKNOWN) {
      warnings.push_back("The configuration '" + key + "' was supplied but isn't a known config; "
                         "ignored");
    } else if (result != RD_KAFKA_CONF_OK) {
      error = "Kafka client config '" + key + "': " + errstr;
      return false;
    }
    return true;
  };
  for (const auto& [key, value] : properties) {
    if (key == "sasl.kerberos.min.time.before.relogin") continue;  // below
    if (!set(key, value)) {
      rd_kafka_conf_destroy(conf);
      return nullptr;
    }
  }
  // librdkafka's kinit runs its command line through a shell: never.
  if (!set("sasl.kerberos.min.time.before.relogin", "0") ||
      !InstallKerberosLogin(conf, properties, error)) {
    rd_kafka_conf_destroy(conf);
    return nullptr;
  }
  return conf;
}

}  // namespace connectd::jvm
