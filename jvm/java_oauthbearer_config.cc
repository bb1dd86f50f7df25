#include "jvm/java_oauthbearer_config.h"

#include <cctype>
#include <optional>
#include <set>
#include <vector>

#include "jvm/java_key_store.h"
#include "jvm/java_split.h"
#include "jvm/java_system_properties.h"
#include "jvm/java_text.h"

namespace connectd::jvm {
namespace {

constexpr char kOidcHandler[] = "OAuthBearerLoginCallbackHandler";
constexpr char kUnsecuredHandler[] = "OAuthBearerUnsecuredLoginCallbackHandler";

std::string Get(const std::map<std::string, std::string>& map, const std::string& key) {
  auto it = map.find(key);
  return it == map.end() ? "" : it->second;
}

bool StartsWith(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

// The simple name of a Java class name.
std::string SimpleName(const std::string& class_name) {
  size_t dot = class_name.rfind('.');
  return dot == std::string::npos ? class_name : class_name.substr(dot + 1);
}

// Java 4.1+ takes the setting from the client config first, else from the JAAS option (deprecated
// there).
std::string ConfigOrJaas(const std::map<std::string, std::string>& java, const std::string& key,
                         const JaasLoginModule& jaas, const std::string& option) {
  std::string value = Get(java, key);
  return value.empty() ? Get(jaas.options, option) : value;
}

// extension_NAME JAAS options (OIDC) or unsecuredLoginExtension_NAME (unsecured).
std::map<std::string, std::string> Extensions(const JaasLoginModule& jaas,
                                              const std::string& prefix) {
  std::map<std::string, std::string> out;
  for (const auto& [name, value] : jaas.options) {
    if (StartsWith(name, prefix) && name.size() > prefix.size()) {
      out[name.substr(prefix.size())] = value;
    }
  }
  return out;
}

// The token endpoint's HTTPS trust, from the JAAS options ssl.truststore.* (Java's login handler
// reads its SSL settings there).
void TranslateTokenEndpointTrust(const JaasLoginModule& jaas, TranslatedConfig& out) {
  for (const auto& [name, value] : jaas.options) {
    if (!StartsWith(name, "ssl.")) continue;
    if (name != "ssl.truststore.location" && name != "ssl.truststore.type" &&
        name != "ssl.truststore.password" && name != "ssl.truststore.certificates" &&
        name != "ssl.protocol" && name != "ssl.endpoint.identification.algorithm") {
      out.errors.push_back("sasl.jaas.config option " + name +
                           " is not supported for the OAUTHBEARER token endpoint (its HTTPS "
                           "trust comes from ssl.truststore.* options only)");
    }
  }
  const std::string algorithm = Get(jaas.options, "ssl.endpoint.identification.algorithm");
  if (jaas.options.count("ssl.endpoint.identification.algorithm") != 0 && algorithm != "https") {
    out.errors.push_back(
        "sasl.jaas.config option ssl.endpoint.identification.algorithm: connectd always "
        "verifies the token endpoint's host name (https)");
  }
  std::string type = Get(jaas.options, "ssl.truststore.type");
  for (char& c : type) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (type.empty()) type = "JKS";
  if (const std::string pem = Get(jaas.options, "ssl.truststore.certificates"); !pem.empty()) {
    out.properties["https.ca.pem"] = pem;
    return;
  }
  const std::string location = Get(jaas.options, "ssl.truststore.location");
  if (location.empty()) return;
  if (type == "PEM") {
    out.properties["https.ca.location"] = location;
    return;
  }
  std::string error;
  std::optional<PemStore> store = ReadJavaKeyStore(
      location, type, StoreUse::kTrust, Get(jaas.options, "ssl.truststore.password"), "", error);
  if (store) {
    out.properties["https.ca.pem"] = store->certificates;
  } else {
    out.errors.push_back("sasl.jaas.config option ssl.truststore.location: " + error);
  }
}

void TranslateClientCredentials(const std::map<std::string, std::string>& java,
                                const JaasLoginModule& jaas, TranslatedConfig& out) {
  const std::string url = Get(java, "sasl.oauthbearer.token.endpoint.url");
  if (url.empty()) {
    out.errors.push_back(
        "sasl.oauthbearer.token.endpoint.url is required by OAuthBearerLoginCallbackHandler");
    return;
  }
  // Java's ConfigurationUtils.validateUrl: the protocol, then the allow-list, before anything
  // is fetched or read.
  const size_t colon = url.find(':');
  std::string scheme = colon == std::string::npos ? "" : url.substr(0, colon);
  for (char& c : scheme) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (scheme.empty()) {
    out.errors.push_back(
        "The OAuth configuration option sasl.oauthbearer.token.endpoint.url contains a URL (" +
        url + ") that is missing the protocol");
    return;
  }
  if (scheme != "http" && scheme != "https" && scheme != "file") {
    out.errors.push_back(
        "The OAuth configuration option sasl.oauthbearer.token.endpoint.url contains a URL (" +
        url + ") that contains an invalid protocol (" + scheme +
        "); only \"http\", \"https\", and \"file\" protocol are supported");
    return;
  }
  if (std::string refusal = OAuthUrlRefusal("sasl.oauthbearer.token.endpoint.url", url);
      !refusal.empty()) {
    out.errors.push_back(refusal);
    return;
  }
  if (scheme == "file") {
    out.errors.push_back("sasl.oauthbearer.token.endpoint.url=" + url +
                         ": reading the token from a file is not supported by connectd; use "
                         "the token endpoint's http(s) URL");
    return;
  }
  const std::string retriever = SimpleName(Get(java, "sasl.oauthbearer.jwt.retriever.class"));
  if (!retriever.empty() && retriever != "DefaultJwtRetriever" &&
      retriever != "ClientCredentialsJwtRetriever") {
    out.errors.push_back("sasl.oauthbearer.jwt.retriever.class=" +
                         Get(java, "sasl.oauthbearer.jwt.retriever.class") +
                         " is not supported: connectd's clients use the client-credentials "
                         "grant (DefaultJwtRetriever, ClientCredentialsJwtRetriever)");
  }
  const std::string validator = SimpleName(Get(java, "sasl.oauthbearer.jwt.validator.class"));
  if (!validator.empty() && validator != "DefaultJwtValidator" &&
      validator != "ClientJwtValidator") {
    out.errors.push_back("sasl.oauthbearer.jwt.validator.class=" +
                         Get(java, "sasl.oauthbearer.jwt.validator.class") +
                         " is not supported (a Java class cannot run in connectd)");
  }
  for (const auto& [key, value] : java) {
    if (StartsWith(key, "sasl.oauthbearer.assertion.") && !value.empty()) {
      out.errors.push_back(key +
                           " is not supported: connectd authenticates to the token endpoint "
                           "with the client id and secret only (no client assertion)");
    }
  }
  std::string client_id =
      ConfigOrJaas(java, "sasl.oauthbearer.client.credentials.client.id", jaas, "clientId");
  std::string secret =
      ConfigOrJaas(java, "sasl.oauthbearer.client.credentials.client.secret", jaas, "clientSecret");
  if (client_id.empty()) {
    out.errors.push_back(
        "sasl.oauthbearer.client.credentials.client.id (or the JAAS option clientId) is "
        "required by the OAUTHBEARER client-credentials login");
  }
  if (secret.empty()) {
    out.errors.push_back(
        "sasl.oauthbearer.client.credentials.client.secret (or the JAAS option clientSecret) is "
        "required by the OAUTHBEARER client-credentials login");
  }
  if (Get(java, "sasl.oauthbearer.header.urlencode") == "true") {
    client_id = JavaUrlEncode(client_id);
    secret = JavaUrlEncode(secret);
  }
  out.properties["sasl.oauthbearer.method"] = "oidc";
  out.properties["sasl.oauthbearer.token.endpoint.url"] = url;
  out.properties["sasl.oauthbearer.client.id"] = client_id;
  out.properties["sasl.oauthbearer.client.secret"] = secret;
  const std::string scope = ConfigOrJaas(java, "sasl.oauthbearer.scope", jaas, "scope");
  if (!scope.empty()) out.properties["sasl.oauthbearer.scope"] = scope;
  std::string extensions;
  for (const auto& [name, value] : Extensions(jaas, "extension_")) {
    extensions += (extensions.empty() ? "" : ",") + name + "=" + value;
  }
  if (!extensions.empty()) out.properties["sasl.oauthbearer.extensions"] = extensions;
  TranslateTokenEndpointTrust(jaas, out);
}

// A Java list claim: the first character is the separator ("|a|b"), as
// OAuthBearerUnsecuredLoginCallbackHandler reads it.
std::vector<std::string> ListClaim(const std::string& value) {
  std::vector<std::string> items;
  if (value.size() < 2) return items;
  const char separator = value[0];
  size_t start = 1;
  while (start <= value.size()) {
    size_t end = value.find(separator, start);
    if (end == std::string::npos) end = value.size();
    if (end > start) items.push_back(value.substr(start, end - start));
    start = end + 1;
  }
  return items;
}

bool HasSpace(const std::string& s) {
  for (unsigned char c : s) {
    if (std::isspace(c)) return true;
  }
  return false;
}

void TranslateUnsecured(const JaasLoginModule& jaas, TranslatedConfig& out) {
  std::string principal_claim = Get(jaas.options, "unsecuredLoginPrincipalClaimName");
  if (principal_claim.empty()) principal_claim = "sub";
  std::string scope_claim = Get(jaas.options, "unsecuredLoginScopeClaimName");
  if (scope_claim.empty()) scope_claim = "scope";
  const std::string principal = Get(jaas.options, "unsecuredLoginStringClaim_" + principal_claim);
  if (principal.empty()) {
    out.errors.push_back(
        "sasl.jaas.config: the unsecured OAUTHBEARER login needs the option "
        "unsecuredLoginStringClaim_" +
        principal_claim + " (the principal)");
    return;
  }
  std::vector<std::string> scope;
  if (jaas.options.count("unsecuredLoginListClaim_" + scope_claim) != 0) {
    scope = ListClaim(Get(jaas.options, "unsecuredLoginListClaim_" + scope_claim));
  } else if (jaas.options.count("unsecuredLoginStringClaim_" + scope_claim) != 0) {
    scope.push_back(Get(jaas.options, "unsecuredLoginStringClaim_" + scope_claim));
  }
  std::string config = "principalClaimName=" + principal_claim + " principal=" + principal +
                       " scopeClaimName=" + scope_claim;
  std::string scope_list;
  for (const std::string& s : scope) {
    if (s.find(',') != std::string::npos || HasSpace(s)) {
      out.errors.push_back(
          "sasl.jaas.config: a scope with ',' or a space cannot be sent in "
          "connectd's unsecured token");
      return;
    }
    scope_list += (scope_list.empty() ? "" : ",") + s;
  }
  if (!scope_list.empty()) config += " scope=" + scope_list;
  for (const auto& [name, value] : jaas.options) {
    if (name == "unsecuredLoginPrincipalClaimName" || name == "unsecuredLoginScopeClaimName" ||
        name == "unsecuredLoginStringClaim_" + principal_claim ||
        name == "unsecuredLoginListClaim_" + scope_claim ||
        name == "unsecuredLoginStringClaim_" + scope_claim ||
        StartsWith(name, "unsecuredLoginExtension_")) {
      continue;
    }
    if (name == "unsecuredLoginLifetimeSeconds") {
      config += " lifeSeconds=" + value;
      continue;
    }
    out.errors.push_back("sasl.jaas.config option " + name +
                         " is not supported: connectd's unsecured token carries the principal, "
                         "the scope, the lifetime and extensions only");
  }
  for (const auto& [name, value] : Extensions(jaas, "unsecuredLoginExtension_")) {
    config += " extension_" + name + "=" + value;
  }
  if (HasSpace(principal) || HasSpace(principal_claim) || HasSpace(scope_claim)) {
    out.errors.push_back(
        "sasl.jaas.config: a principal or claim name with spaces cannot be sent "
        "in connectd's unsecured token");
    return;
  }
  out.properties["enable.sasl.oauthbearer.unsecure.jwt"] = "true";
  out.properties["sasl.oauthbearer.config"] = config;
}

}  // namespace

std::string OAuthUrlRefusal(const std::string& key, const std::string& url) {
  for (const std::string& allowed : JavaCommaList(
           JavaSystemProperty(kAllowedOAuthUrlsProperty).value_or(kAllowedOAuthUrlsDefault))) {
    if (allowed == url) return "";
  }
  return "Invalid value " + url + " for configuration " + key +
         ": The URL cannot be accessed due to restrictions. Update the system property '" +
         kAllowedOAuthUrlsProperty + "' to allow the URL to be accessed.";
}

bool IsOAuthBearerKey(const std::string& key) {
  // Java's keys; librdkafka's own (sasl.oauthbearer.method, .client.id, .config, ...) pass on as
  // they are.
  static const auto* java = new std::set<std::string>{
      "sasl.oauthbearer.token.endpoint.url",
      "sasl.oauthbearer.jwks.endpoint.url",
      "sasl.oauthbearer.jwks.endpoint.refresh.ms",
      "sasl.oauthbearer.jwks.endpoint.retry.backoff.ms",
      "sasl.oauthbearer.jwks.endpoint.retry.backoff.max.ms",
      "sasl.oauthbearer.scope.claim.name",
      "sasl.oauthbearer.sub.claim.name",
      "sasl.oauthbearer.clock.skew.seconds",
      "sasl.oauthbearer.expected.audience",
      "sasl.oauthbearer.expected.issuer",
      "sasl.oauthbearer.allow.unverified.audience",
      "sasl.oauthbearer.allow.unverified.issuer",
      "sasl.oauthbearer.header.urlencode",
      "sasl.oauthbearer.jwt.retriever.class",
      "sasl.oauthbearer.jwt.validator.class",
      "sasl.oauthbearer.scope",
      "sasl.oauthbearer.client.credentials.client.id",
      "sasl.oauthbearer.client.credentials.client.secret",
  };
  return java->count(key) != 0 || StartsWith(key, "sasl.oauthbearer.assertion.") ||
         (StartsWith(key, "sasl.login.") && key != "sasl.login.class" &&
          key != "sasl.login.callback.handler.class");
}

void TranslateOAuthBearer(const std::map<std::string, std::string>& java,
                          const JaasLoginModule& jaas, TranslatedConfig& out) {
  if (!jaas.Is("OAuthBearerLoginModule")) {
    out.errors.push_back(
        "sasl.jaas.config: sasl.mechanism=OAUTHBEARER needs "
        "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule");
    return;
  }
  const std::string handler = SimpleName(Get(java, "sasl.login.callback.handler.class"));
  if (handler == kOidcHandler) {
    TranslateClientCredentials(java, jaas, out);
  } else if (handler.empty() || handler == kUnsecuredHandler) {
    TranslateUnsecured(jaas, out);
  }
  // Any other handler class was refused with the other security keys.
}

}  // namespace connectd::jvm
