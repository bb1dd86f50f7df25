// File: oauthbearer.h
//
// SASL/OAUTHBEARER for connectd's own protocol client: where its tokens come from and the
// client's first message (RFC 7628, as Kafka's OAuthBearerSaslClient sends it).
//
// Tokens come from the same librdkafka properties the worker's librdkafka clients get (what
// jvm/java_client_config.h makes of a Java OAUTHBEARER configuration), so the group client
// authenticates as the same principal:
//   - sasl.oauthbearer.method=oidc: the OAuth 2 client-credentials grant against
//     sasl.oauthbearer.token.endpoint.url with sasl.oauthbearer.client.id/.client.secret
//     (HTTP Basic) and sasl.oauthbearer.scope; HTTPS verified with https.ca.location or
//     https.ca.pem, else the system's CAs. sasl.login.connect.timeout.ms and
//     sasl.login.read.timeout.ms bound the request (10 s each by default).
//   - enable.sasl.oauthbearer.unsecure.jwt=true: an unsigned JWT ("alg":"none") made locally
//     from sasl.oauthbearer.config (principal=, principalClaimName=, scope=, scopeClaimName=,
//     lifeSeconds=, extension_NAME=), for brokers that validate with Kafka's unsecured
//     validator (tests and development only).
// sasl.oauthbearer.extensions (NAME=value,...) are sent with either.
//
//   auto source = OAuthBearerTokenSource::FromProperties(properties);   // StatusOr
//   (*source)->Get([](absl::StatusOr<OAuthBearerToken> token) { ... });
//
// A token is used until 80% of its lifetime (from the JWT's iat, else from when it was fetched
// to its exp), as librdkafka's clients refresh theirs; then the next Get fetches a new one.
// The client secret never appears in a status message.
//
// Threads: Get may be called from any thread. A cached or locally made token is handed to
// `done` inside the call; a fetched one on the source's own fetch thread, so a caller on an
// event loop never waits for the token endpoint. Destroying the source cancels a fetch in
// progress (its waiters get kCancelled) and joins the thread.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace connectd::kafka::protocol {

struct OAuthBearerToken {
  std::string value;  // the compact JWT
  std::string principal;
  std::chrono::system_clock::time_point expires;
  std::chrono::system_clock::time_point refresh_at;
};

// The client's first SASL message: GS2 header "n,,", then auth=Bearer <token> and each
// extension as key=value, every item closed by 0x01, and a final 0x01.
std::string OAuthBearerInitialResponse(std::string_view token,
                                       const std::map<std::string, std::string>& extensions);

// An unsigned JWT: {"alg":"none"} and the claims iat, exp, the principal claim and (when
// `scope` is not empty) the scope claim as a list; the signature part is empty.
std::string UnsecuredJwt(std::string_view principal_claim, std::string_view principal,
                         std::string_view scope_claim, const std::vector<std::string>& scope,
                         std::chrono::system_clock::time_point issued,
                         std::chrono::seconds lifetime);

// What a JWT says about itself: its `sub` (or `principal_claim`), `iat` and `exp` claims, read
// without checking the signature (the broker does that). kInvalidArgument when it is not a
// JWT or has no exp between 1970 and 2255 (an iat outside that is ignored).
absl::StatusOr<OAuthBearerToken> ParseJwtClaims(std::string_view jwt,
                                                std::string_view principal_claim = "sub");

class OAuthBearerTokenSource {
 public:
  using Callback = std::function<void(absl::StatusOr<OAuthBearerToken>)>;

  virtual ~OAuthBearerTokenSource() = default;

  // A token not yet due for refresh, or why none could be had (kUnauthenticated when the token
  // endpoint refused the credentials, kUnavailable when it could not be reached).
  virtual void Get(Callback done) = 0;

  const std::map<std::string, std::string>& extensions() const { return extensions_; }

  // The source the properties describe (see above); kInvalidArgument naming the property when
  // they describe none or an incomplete one.
  static absl::StatusOr<std::shared_ptr<OAuthBearerTokenSource>> FromProperties(
      const std::map<std::string, std::string>& librdkafka_properties);

 protected:
  std::map<std::string, std::string> extensions_;
};

}  // namespace connectd::kafka::protocol
