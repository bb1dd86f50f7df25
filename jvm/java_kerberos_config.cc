#include "jvm/java_kerberos_config.h"

namespace connectd::jvm {
namespace {

constexpr char kJavaKinit[] = "/usr/bin/kinit";

std::string Get(const std::map<std::string, std::string>& map, const std::string& key) {
  auto it = map.find(key);
  return it == map.end() ? "" : it->second;
}

bool True(const std::string& value) {
  return value == "true" || value == "TRUE" || value == "True";
}

}  // namespace

bool IsKerberosKey(const std::string& key) {
  // Java's keys; librdkafka's own (sasl.kerberos.keytab, .principal) pass on as they are.
  return key == "sasl.kerberos.service.name" || key == "sasl.kerberos.kinit.cmd" ||
         key == "sasl.kerberos.min.time.before.relogin" ||
         key == "sasl.kerberos.ticket.renew.window.factor" ||
         key == "sasl.kerberos.ticket.renew.jitter" ||
         key == "sasl.kerberos.principal.to.local.rules";
}

void TranslateKerberos(const std::map<std::string, std::string>& java, const JaasLoginModule& jaas,
                       TranslatedConfig& out) {
  if (jaas.class_name != "com.sun.security.auth.module.Krb5LoginModule") {
    out.errors.push_back(
        "sasl.jaas.config: sasl.mechanism=GSSAPI needs "
        "com.sun.security.auth.module.Krb5LoginModule (found " +
        jaas.class_name + ")");
    return;
  }
  std::string service = Get(java, "sasl.kerberos.service.name");
  if (service.empty()) service = Get(jaas.options, "serviceName");
  if (service.empty()) {
    out.errors.push_back(
        "sasl.kerberos.service.name is required for GSSAPI (or the JAAS option serviceName): "
        "the brokers' Kerberos service, e.g. kafka");
    return;
  }
  out.properties["sasl.kerberos.service.name"] = service;
  const std::string kinit = Get(java, "sasl.kerberos.kinit.cmd");
  if (!kinit.empty() && kinit != kJavaKinit) {
    out.errors.push_back("sasl.kerberos.kinit.cmd=" + kinit +
                         " is not supported: connectd's clients renew tickets from the keytab "
                         "themselves (kinit from PATH)");
  }
  if (const std::string relogin = Get(java, "sasl.kerberos.min.time.before.relogin");
      !relogin.empty()) {
    out.properties["sasl.kerberos.min.time.before.relogin"] = relogin;
  }
  if (!Get(jaas.options, "ticketCache").empty()) {
    out.errors.push_back(
        "sasl.jaas.config option ticketCache is not supported: set KRB5CCNAME to the cache in "
        "connectd's environment (with useTicketCache=true)");
  }
  const std::string principal = Get(jaas.options, "principal");
  if (True(Get(jaas.options, "useKeyTab"))) {
    const std::string keytab = Get(jaas.options, "keyTab");
    if (keytab.empty() || principal.empty()) {
      out.errors.push_back(
          "sasl.jaas.config: Krb5LoginModule with useKeyTab=true needs the options keyTab and "
          "principal");
      return;
    }
    out.properties["sasl.kerberos.keytab"] = keytab;
    out.properties["sasl.kerberos.principal"] = principal;
    return;
  }
  if (!True(Get(jaas.options, "useTicketCache"))) {
    out.errors.push_back(
        "sasl.jaas.config: Krb5LoginModule needs useKeyTab=true (with keyTab and principal) or "
        "useTicketCache=true: connectd cannot prompt for a password");
    return;
  }
  // The ticket cache as the operator keeps it: no kinit by librdkafka.
  out.properties.insert_or_assign("sasl.kerberos.min.time.before.relogin", std::string("0"));
  if (!principal.empty()) out.properties["sasl.kerberos.principal"] = principal;
}

}  // namespace connectd::jvm
