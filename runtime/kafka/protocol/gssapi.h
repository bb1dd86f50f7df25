// File: gssapi.h
//
// SASL/GSSAPI (Kerberos V5, RFC 4752) for connectd's own protocol client, through MIT's GSS-API
// library directly (librdkafka's clients go through Cyrus SASL instead). It reads the librdkafka
// properties the worker's clients get (what jvm/java_client_config.h makes of Java's
// Krb5LoginModule settings), so the group client authenticates as the same principal:
//   sasl.kerberos.service.name  the broker's service (the target is <service>@<broker host>)
//   sasl.kerberos.keytab        the client's keytab: tickets come from it into a credential
//                               cache private to the process (MIT's client keytab initiation,
//                               renewed by the library as they near expiry); without one, the
//                               default credential cache (KRB5CCNAME) as kinit left it
//   sasl.kerberos.principal     the client's principal (with a keytab: required)
// The Kerberos configuration is MIT's: /etc/krb5.conf, or the file KRB5_CONFIG names (Java's
// -Djava.security.krb5.conf).
//
//   auto kerberos = KerberosClient::FromProperties(properties);          // StatusOr
//   (*kerberos)->Begin("broker1.example.com", [](auto context) {
//     send((*context)->first_token());                                   // then
//     auto reply = (*context)->Next(server_token);   // a token to send, or nullopt: done
//   });
//
// Threads: Begin may be called from any thread; acquiring credentials and the first context
// step talk to the KDC, so they run on the client's own thread, never the caller's. A
// GssapiContext's Next is local computation and may run anywhere (one thread at a time).
// Destroying the client waits for a step in progress and cancels those queued.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/statusor.h"

namespace connectd::kafka::protocol {

// One authentication's security context, from the first token to the security-layer exchange
// (the client takes no security layer: Kafka's brokers offer none but "no layer").
class GssapiContext {
 public:
  virtual ~GssapiContext() = default;
  virtual const std::string& first_token() const = 0;
  // The answer to the server's token, or nullopt when the exchange is complete; an error
  // (kUnauthenticated) when the server's token does not verify or the layer is not acceptable.
  virtual absl::StatusOr<std::optional<std::string>> Next(const std::string& server_token) = 0;
};

class KerberosClient {
 public:
  using Callback = std::function<void(absl::StatusOr<std::unique_ptr<GssapiContext>>)>;

  virtual ~KerberosClient() = default;

  // Starts a context with the broker at `host`; `done` runs on the client's thread.
  // kUnauthenticated with GSS-API's own words when no ticket can be had (unknown principal, bad
  // keytab, KDC unreachable, no ticket for the broker's service).
  virtual void Begin(const std::string& host, Callback done) = 0;

  // kInvalidArgument naming the property for a missing service name or principal.
  static absl::StatusOr<std::shared_ptr<KerberosClient>> FromProperties(
      const std::map<std::string, std::string>& librdkafka_properties);
};

}  // namespace connectd::kafka::protocol
