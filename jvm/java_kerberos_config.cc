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

bool IsControl(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u < 0x20 || u == 0x7f;
}

// What a principal's parts may hold: the characters principals are made of in practice.
bool IsPrincipalChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
         c == '-' || c == '_' || c == '+' || c == '=' || c == ',' || c == ':' ||
         c == '$';  // Active Directory's machine accounts (HOST$@REALM)
}

}  // namespace

std::string PrincipalSyntaxError(const std::string& principal) {
  if (principal.empty()) return "the principal is empty";
  const size_t at = principal.find('@');
  if (at != std::string::npos && principal.find('@', at + 1) != std::string::npos) {
    return "a principal has at most one @ (name/instance@REALM)";
  }
  const std::string name = principal.substr(0, at);
  if (at != std::string::npos && at + 1 == principal.size()) return "the realm after @ is empty";
  size_t part_start = 0;
  for (size_t i = 0; i <= name.size(); ++i) {
    if (i == name.size() || name[i] == '/') {
      if (i == part_start) return "a principal's name and instances must not be empty";
      part_start = i + 1;
    }
  }
  for (size_t i = 0; i < principal.size(); ++i) {
    const char c = principal[i];
    if (c == '/' && i < (at == std::string::npos ? principal.size() : at)) continue;
    if (c == '@' && i == at) continue;
    if (!IsPrincipalChar(c)) {
      return "a principal holds letters, digits and . - _ + = , : $ only (name/instance@REALM)";
    }
  }
  return "";
}

std::string KeytabPathError(const std::string& keytab) {
  std::string path = keytab;
  if (path.rfind("FILE:", 0) == 0) path = path.substr(5);
  for (char c : path) {
    if (IsControl(c)) return "a keytab path must not hold control characters";
  }
  if (path.empty() || path[0] != '/') {
    return "a keytab is an absolute path to a file (other keytab types are not accepted)";
  }
  size_t start = 1;
  while (start <= path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string::npos) end = path.size();
    const std::string part = path.substr(start, end - start);
    if (part == "." || part == "..") return "a keytab path must not hold . or .. parts";
    start = end + 1;
  }
  return "";
}

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
    out.errors.push_back(
        "sasl.kerberos.kinit.cmd is not supported with a value other than Java's default "
        "(/usr/bin/kinit): connectd runs no kinit, its clients log in from the keytab in the "
        "process");
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
    if (std::string why = PrincipalSyntaxError(principal); !why.empty()) {
      out.errors.push_back("sasl.jaas.config option principal is refused: " + why);
      return;
    }
    if (std::string why = KeytabPathError(keytab); !why.empty()) {
      out.errors.push_back("sasl.jaas.config option keyTab is refused: " + why);
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
  // The ticket cache as the operator keeps it (KRB5CCNAME), renewed by whatever renews it for
  // Java (k5start, a cron'd kinit): connectd never runs kinit.
  if (principal.empty()) return;
  if (std::string why = PrincipalSyntaxError(principal); !why.empty()) {
    out.errors.push_back("sasl.jaas.config option principal is refused: " + why);
    return;
  }
  out.properties["sasl.kerberos.principal"] = principal;
}

}  // namespace connectd::jvm
