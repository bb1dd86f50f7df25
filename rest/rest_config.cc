#include "rest/rest_config.h"

#include <cstdlib>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "runtime/common/strings.h"

namespace connectd::rest {
namespace {

using Props = std::map<std::string, std::string>;

constexpr char kListeners[] = "listeners";
constexpr char kListenersDefault[] = "http://:8083";
constexpr char kAdvertisedHostName[] = "rest.advertised.host.name";
constexpr char kAdvertisedPort[] = "rest.advertised.port";
constexpr char kAdvertisedListener[] = "rest.advertised.listener";
constexpr char kAllowOrigin[] = "access.control.allow.origin";
constexpr char kAllowMethods[] = "access.control.allow.methods";
constexpr char kResponseHeaders[] = "response.http.headers.config";
constexpr char kAdminListeners[] = "admin.listeners";
constexpr char kRestExtensions[] = "rest.extension.classes";
constexpr char kTopicTracking[] = "topic.tracking.enable";
constexpr char kTopicTrackingReset[] = "topic.tracking.allow.reset";
constexpr char kClientAuth[] = "ssl.client.auth";
constexpr char kHttpsPrefix[] = "listeners.https.";

std::string JavaTrim(std::string_view s) {
  while (!s.empty() && static_cast<unsigned char>(s.front()) <= ' ') s.remove_prefix(1);
  while (!s.empty() && static_cast<unsigned char>(s.back()) <= ' ') s.remove_suffix(1);
  return std::string(s);
}

std::optional<std::string> Get(const Props& props, const std::string& key) {
  auto it = props.find(key);
  if (it == props.end()) return std::nullopt;
  return it->second;
}

absl::Status InvalidValue(std::string_view value, std::string_view key, std::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat(
      "Invalid value ", AsAbsl(value), " for configuration ", AsAbsl(key), ": ", AsAbsl(why)));
}

// ConfigDef LIST parsing: trimmed, split on commas with surrounding white space; "" -> [].
std::vector<std::string> ParseList(std::string_view value) {
  std::vector<std::string> items;
  std::string trimmed = JavaTrim(value);
  if (trimmed.empty()) return items;
  size_t start = 0;
  while (true) {
    size_t comma = trimmed.find(',', start);
    items.push_back(JavaTrim(std::string_view(trimmed).substr(
        start, comma == std::string::npos ? std::string::npos : comma - start)));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return items;
}

absl::StatusOr<bool> ParseBool(const Props& props, const std::string& key, bool default_value) {
  std::optional<std::string> raw = Get(props, key);
  if (!raw) return default_value;
  std::string trimmed = JavaTrim(*raw);
  if (absl::EqualsIgnoreCase(trimmed, "true")) return true;
  if (absl::EqualsIgnoreCase(trimmed, "false")) return false;
  return InvalidValue(*raw, key, "Expected value to be either true or false");
}

bool IsListenerHostChar(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' ||
         c == '%' || c == '.' || c == '_' || c == ':';
}

absl::StatusOr<ListenerSpec> ParseListener(const std::string& text) {
  // RestServer.LISTENER_PATTERN `^(.*)://\[?([0-9a-zA-Z\-%._:]*)\]?:(-?[0-9]+)`, matched against
  // the whole item. The host part cannot hold '/', so the last "://" ends the protocol and the
  // last ':' starts the port.
  auto bad_format = [&] {
    return absl::InvalidArgumentError(
        absl::StrCat("Listener doesn't have the right format (protocol://hostname:port): ", text));
  };
  size_t separator = text.rfind("://");
  if (separator == std::string::npos) return bad_format();
  std::string_view rest = std::string_view(text).substr(separator + 3);
  size_t colon = rest.rfind(':');
  if (colon == std::string_view::npos) return bad_format();
  std::string_view host = rest.substr(0, colon);
  std::string_view port = rest.substr(colon + 1);
  if (!host.empty() && host.front() == '[') host.remove_prefix(1);
  if (!host.empty() && host.back() == ']') host.remove_suffix(1);
  for (char c : host) {
    if (!IsListenerHostChar(c)) return bad_format();
  }
  std::string_view digits = !port.empty() && port.front() == '-' ? port.substr(1) : port;
  if (digits.empty()) return bad_format();
  for (char c : digits) {
    if (c < '0' || c > '9') return bad_format();
  }

  ListenerSpec spec;
  spec.text = text;
  spec.scheme = absl::AsciiStrToLower(text.substr(0, separator));
  if (spec.scheme != "http" && spec.scheme != "https") {
    return absl::InvalidArgumentError(
        absl::StrCat("Listener protocol must be either \"http\" or \"https\", but is: ", text));
  }
  spec.host = std::string(host);
  if (!absl::SimpleAtoi(AsAbsl(port), &spec.port) || spec.port < 0 || spec.port > 65535) {
    return absl::InvalidArgumentError(
        absl::StrCat("Listener port must be between 0 and 65535: ", text));
  }
  return spec;
}

absl::StatusOr<ClientAuth> ParseClientAuth(std::string_view key, const std::string& value) {
  if (value == "none") return ClientAuth::kNone;
  if (value == "requested") return ClientAuth::kRequested;
  if (value == "required") return ClientAuth::kRequired;
  return InvalidValue(value, key, "String must be one of: required, requested, none");
}

absl::StatusOr<TlsConfig> ParseTls(const Props& props, const std::string& https_prefix) {
  // AbstractConfig.valuesWithPrefixAllOrNothing(https_prefix): any prefixed key means only
  // prefixed keys count.
  bool prefixed = false;
  for (const auto& [key, value] : props) {
    if (absl::StartsWith(key, https_prefix)) {
      prefixed = true;
      break;
    }
  }
  TlsConfig tls;
  tls.prefix = prefixed ? https_prefix : "";
  auto get = [&](const std::string& key) { return Get(props, tls.prefix + key); };

  if (auto v = get("ssl.keystore.type")) tls.keystore_type = JavaTrim(*v);
  tls.keystore_location = get("ssl.keystore.location");
  tls.keystore_password = get("ssl.keystore.password");
  tls.key_password = get("ssl.key.password");
  tls.keystore_certificate_chain = get("ssl.keystore.certificate.chain");
  tls.keystore_key = get("ssl.keystore.key");
  if (auto v = get("ssl.truststore.type")) tls.truststore_type = JavaTrim(*v);
  tls.truststore_location = get("ssl.truststore.location");
  tls.truststore_password = get("ssl.truststore.password");
  tls.truststore_certificates = get("ssl.truststore.certificates");
  if (auto v = get("ssl.enabled.protocols")) tls.enabled_protocols = ParseList(*v);
  if (auto v = get("ssl.cipher.suites")) tls.cipher_suites = ParseList(*v);
  if (auto v = get("ssl.endpoint.identification.algorithm")) {
    tls.endpoint_identification_algorithm = JavaTrim(*v);
  }
  if (auto v = get(kClientAuth)) {
    absl::StatusOr<ClientAuth> auth = ParseClientAuth(tls.KeyName(kClientAuth), JavaTrim(*v));
    if (!auth.ok()) return auth.status();
    tls.client_auth = *auth;
  }
  return tls;
}

}  // namespace

absl::StatusOr<RestConfig> ParseRestConfig(const std::map<std::string, std::string>& props) {
  RestConfig config;

  // listeners (ListenersValidator).
  config.raw_listeners = Get(props, kListeners);
  std::vector<std::string> listeners = ParseList(config.raw_listeners.value_or(kListenersDefault));
  if (listeners.empty()) {
    return absl::InvalidArgumentError(
        "Invalid value for listeners, at least one URL is expected, ex: "
        "http://localhost:8080,https://localhost:8443.");
  }
  for (const std::string& item : listeners) {
    if (item.empty()) {
      return absl::InvalidArgumentError("Empty URL found when parsing listeners list.");
    }
    absl::StatusOr<ListenerSpec> spec = ParseListener(item);
    if (!spec.ok()) return spec.status();
    config.listeners.push_back(std::move(*spec));
  }

  if (auto host = Get(props, kAdvertisedHostName)) config.advertised_host_name = JavaTrim(*host);
  if (auto port = Get(props, kAdvertisedPort)) {
    int value = 0;
    if (!absl::SimpleAtoi(JavaTrim(*port), &value)) {
      return InvalidValue(*port, kAdvertisedPort, "Not a number of type INT");
    }
    config.advertised_port = value;
  }
  if (auto listener = Get(props, kAdvertisedListener)) {
    std::string lower = absl::AsciiStrToLower(JavaTrim(*listener));
    if (lower != "http" && lower != "https") {
      return InvalidValue(*listener, kAdvertisedListener, "must be either http or https");
    }
    config.advertised_listener = lower;
  }

  config.allowed_origins = Get(props, kAllowOrigin).value_or("");
  config.allowed_methods = Get(props, kAllowMethods).value_or("");

  absl::StatusOr<std::vector<HeaderRule>> rules =
      ParseHeaderRules(Get(props, kResponseHeaders).value_or(""));
  if (!rules.ok()) {
    return InvalidValue(Get(props, kResponseHeaders).value_or(""), kResponseHeaders,
                        AsStd(rules.status().message()));
  }
  config.response_headers = std::move(*rules);

  if (auto admin = Get(props, kAdminListeners)) {
    for (const std::string& item : ParseList(*admin)) {
      if (item.empty()) {
        return absl::InvalidArgumentError("Empty URL found when parsing admin.listeners list.");
      }
      absl::StatusOr<ListenerSpec> spec = ParseListener(item);
      if (!spec.ok()) return spec.status();
      config.admin_listeners.push_back(std::move(*spec));
    }
    // Blank: Connect disables the admin endpoints; a list: served on those listeners only.
    config.admin_endpoints_enabled = !config.admin_listeners.empty();
  }
  if (auto extensions = Get(props, kRestExtensions)) {
    const char* kafka_opts = std::getenv("KAFKA_OPTS");
    absl::StatusOr<std::shared_ptr<const BasicAuth>> basic_auth = LoadBasicAuth(
        ParseList(*extensions), JaasConfigPathFromKafkaOpts(kafka_opts ? kafka_opts : ""));
    if (!basic_auth.ok()) return basic_auth.status();
    config.basic_auth = *std::move(basic_auth);
  }

  absl::StatusOr<bool> tracking = ParseBool(props, kTopicTracking, true);
  if (!tracking.ok()) return tracking.status();
  config.topic_tracking_enabled = *tracking;
  absl::StatusOr<bool> reset = ParseBool(props, kTopicTrackingReset, true);
  if (!reset.ok()) return reset.status();
  config.topic_tracking_reset_enabled = *reset;

  // RestServerConfig validates the unprefixed ssl.client.auth even without HTTPS listeners.
  if (auto auth = Get(props, kClientAuth)) {
    absl::StatusOr<ClientAuth> parsed = ParseClientAuth(kClientAuth, JavaTrim(*auth));
    if (!parsed.ok()) return parsed.status();
  }
  absl::StatusOr<TlsConfig> tls = ParseTls(props, kHttpsPrefix);
  if (!tls.ok()) return tls.status();
  config.tls = std::move(*tls);
  absl::StatusOr<TlsConfig> admin_tls = ParseTls(props, "admin.listeners.https.");
  if (!admin_tls.ok()) return admin_tls.status();
  config.admin_tls = std::move(*admin_tls);
  return config;
}

}  // namespace connectd::rest
