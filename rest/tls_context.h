// File: tls_context.h
//
// Builds the OpenSSL server context for HTTPS listeners, and the client context for requests to
// other workers, from a TlsConfig (rest_config.h):
// keystore (PEM file, inline PEM, PKCS12), optional truststore for client authentication (PEM,
// PKCS12; the system CA paths when none is configured), enabled protocols and cipher suites
// (IANA names, as Java takes them, mapped to OpenSSL's).
//
// JKS keystores and truststores are refused with an error naming the key, unless the file is
// really PKCS12 (Java 9+ reads PKCS12 files through the JKS type, so Connect users may have
// such configs).
//
// Threads: call from any thread; the returned context is then shared read-only by sessions.
#pragma once

#include <memory>

#include "absl/status/statusor.h"
#include "rest/rest_config.h"

namespace boost::asio::ssl {
class context;
}  // namespace boost::asio::ssl

namespace connectd::rest {

// kInvalidArgument naming the key on a bad setting, kNotFound for a missing file,
// kUnimplemented for an unsupported store type.
absl::StatusOr<std::shared_ptr<boost::asio::ssl::context>> MakeServerTlsContext(
    const TlsConfig& tls);

// The client side, for requests to other workers (Java's
// SSLUtils.createClientSideSslContextFactory): the peer's certificate is always verified,
// against the truststore if one is configured, else the system CAs; the keystore, if configured
// (location or inline PEM), supplies a client certificate; protocols and cipher suites as for
// the server. `verify_host_name` follows ssl.endpoint.identification.algorithm ("https": the
// caller checks the host name per connection; blank: no check). Errors as MakeServerTlsContext.
struct ClientTlsContext {
  std::shared_ptr<boost::asio::ssl::context> context;
  bool verify_host_name = true;
};
absl::StatusOr<ClientTlsContext> MakeClientTlsContext(const TlsConfig& tls);

}  // namespace connectd::rest
