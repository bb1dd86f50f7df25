// File: rest_config.h
//
// The REST server's settings, read from the worker properties with Kafka Connect's keys,
// defaults and error messages (RestServerConfig, SSLUtils):
//
//   listeners                      http://:8083   comma list of http:// and https:// URLs; an
//                                                 empty host binds every interface; port 0 picks
//                                                 a free port (tests)
//   rest.advertised.host.name      -              host given to peers and used in the worker id
//   rest.advertised.port           -              port given to peers
//   rest.advertised.listener       -              http or https: which listener to advertise
//   access.control.allow.origin    ""             CORS origins (blank: CORS off)
//   access.control.allow.methods   ""             CORS methods (blank: GET,POST,HEAD)
//   response.http.headers.config   ""             extra header rules (response_headers.h)
//   admin.listeners                (unset)        unset: /admin/* on `listeners`; blank: /admin/*
//                                                 disabled; a list of http(s) URLs: /admin/* is
//                                                 served there and only there (KIP-495)
//   rest.extension.classes         ""             blank, or Connect's
//   BasicAuthSecurityRestExtension
//                                                 (implemented natively: basic_auth.h)
//   topic.tracking.enable          true           GET .../topics; false -> 403
//   topic.tracking.allow.reset     true           PUT .../topics/reset; false -> 403
//   ssl.client.auth                none           none | requested | required
//   ssl.endpoint.identification.algorithm  https  RestClient host name check (blank: off)
//
// HTTPS listeners, and the RestClient that forwards requests to other workers, read
// `listeners.https.ssl.*` if any such key is set, else `ssl.*` (Connect's all-or-nothing prefix
// rule); HTTPS admin listeners `admin.listeners.https.ssl.*` the same way. Keystores: PEM
// (`ssl.keystore.location` holding the private key and certificate chain, or inline
// `ssl.keystore.key` + `ssl.keystore.certificate.chain`, with `ssl.key.password` for an
// encrypted key), and JKS (Connect's default type) or PKCS12 with `ssl.keystore.password`
// (jvm/java_key_store.h reads them; either type reads either file, as Java's).
//
// Threads: pure functions, any thread.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "rest/basic_auth.h"
#include "rest/response_headers.h"

namespace connectd::rest {

struct ListenerSpec {
  std::string scheme;  // "http" or "https"
  std::string host;    // empty: all interfaces
  int port = 0;        // 0: any free port
  std::string text;    // as configured
};

enum class ClientAuth { kNone, kRequested, kRequired };

struct TlsConfig {
  // Where the keys came from ("listeners.https." or ""), to name keys in error messages.
  std::string prefix;
  std::string keystore_type = "JKS";
  std::optional<std::string> keystore_location;
  std::optional<std::string> keystore_password;
  std::optional<std::string> key_password;
  std::optional<std::string> keystore_certificate_chain;
  std::optional<std::string> keystore_key;
  std::string truststore_type = "JKS";
  std::optional<std::string> truststore_location;
  std::optional<std::string> truststore_password;
  std::optional<std::string> truststore_certificates;
  std::vector<std::string> enabled_protocols = {"TLSv1.2", "TLSv1.3"};
  std::vector<std::string> cipher_suites;  // IANA names, as Java takes them; empty: defaults
  ClientAuth client_auth = ClientAuth::kNone;
  // Client side (RestClient): "https" (Kafka's default) checks the peer's host name against its
  // certificate; blank turns that off.
  std::string endpoint_identification_algorithm = "https";

  // The full property name of `key` ("ssl.keystore.type") as the user wrote it.
  std::string KeyName(const std::string& key) const { return prefix + key; }
};

struct RestConfig {
  std::vector<ListenerSpec> listeners;
  // The `listeners` value as given (nullopt when unset): Connect picks the advertised
  // protocol from it.
  std::optional<std::string> raw_listeners;
  std::optional<std::string> advertised_host_name;
  std::optional<int> advertised_port;
  std::optional<std::string> advertised_listener;  // lower case
  std::string allowed_origins;
  std::string allowed_methods;
  std::vector<HeaderRule> response_headers;
  bool admin_endpoints_enabled = true;
  bool topic_tracking_enabled = true;
  bool topic_tracking_reset_enabled = true;
  TlsConfig tls;  // meaningful when a listener is https
  // admin.listeners as a list (empty: unset or blank, see admin_endpoints_enabled), and their
  // TLS settings (admin.listeners.https.ssl.*, else ssl.*).
  std::vector<ListenerSpec> admin_listeners;
  TlsConfig admin_tls;
  // rest.extension.classes=...BasicAuthSecurityRestExtension (basic_auth.h); null: no auth.
  std::shared_ptr<const BasicAuth> basic_auth;
};

// Reads the REST settings from worker properties. kInvalidArgument with Connect's message
// (naming the key) on a bad value; kUnimplemented for a Connect feature connectd lacks.
absl::StatusOr<RestConfig> ParseRestConfig(const std::map<std::string, std::string>& props);

}  // namespace connectd::rest
