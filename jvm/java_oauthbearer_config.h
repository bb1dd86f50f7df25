// File: java_oauthbearer_config.h
//
// A Java client's SASL/OAUTHBEARER settings as librdkafka's, which connectd's own group client
// reads too (runtime/kafka/protocol/oauthbearer.h), so every client gets its tokens alike:
//
//   - OIDC client credentials (KIP-768; sasl.login.callback.handler.class is
//     OAuthBearerLoginCallbackHandler, in either of its packages): sasl.oauthbearer.method=oidc
//     with sasl.oauthbearer.token.endpoint.url (only if listed in
//     org.apache.kafka.sasl.oauthbearer.allowed.urls, as Java 4.x requires), the client id and
//     secret and the scope (4.1's sasl.oauthbearer.client.credentials.client.id/.client.secret and
//     sasl.oauthbearer.scope, else the JAAS options clientId, clientSecret, scope, as Java takes
//     them), extensions from the JAAS options extension_NAME, sasl.oauthbearer.header.urlencode
//     honoured, and the token endpoint's trust store from the JAAS options ssl.truststore.*
//     (https.ca.*).
//   - Unsecured JWTs (no login callback handler, Java's default): the JAAS options
//     unsecuredLoginStringClaim_<principal claim>, unsecuredLoginListClaim_<scope claim> (or a
//     string claim), unsecuredLoginPrincipalClaimName, unsecuredLoginScopeClaimName,
//     unsecuredLoginLifetimeSeconds and unsecuredLoginExtension_NAME as
//     enable.sasl.oauthbearer.unsecure.jwt=true and sasl.oauthbearer.config.
//
// What connectd cannot do stops the client with an error naming the key or option: a token
// file (file: URL), the jwt-bearer grant and client assertions (sasl.oauthbearer.assertion.*,
// JwtBearerJwtRetriever), another retriever or validator class, unsecured claims other than the
// principal and scope. The broker-side keys (jwks.*, expected.*, clock skew) mean nothing to a
// client and are dropped, as Java's clients ignore them; so are the token refresh tuning keys
// (sasl.login.refresh.*: tokens are renewed at 80% of their lifetime).
#pragma once

#include <map>
#include <string>

#include "jvm/java_client_config.h"
#include "jvm/java_jaas_config.h"

namespace connectd::jvm {

// Adds the librdkafka properties (or errors) for sasl.mechanism=OAUTHBEARER to `out`; `jaas`
// is the parsed sasl.jaas.config.
void TranslateOAuthBearer(const std::map<std::string, std::string>& java,
                          const JaasLoginModule& jaas, TranslatedConfig& out);

// Java's allow-list of the URLs a client may fetch OAuth tokens (or keys) from
// (CVE-2025-27817): a system property, a comma list of exact URLs, empty by default, and empty
// allows nothing (Kafka 4.0+). connectd reads it from KAFKA_OPTS (java_system_properties.h).
inline constexpr char kAllowedOAuthUrlsProperty[] =
    "org.apache.kafka.sasl.oauthbearer.allowed.urls";
inline constexpr char kAllowedOAuthUrlsDefault[] = "";

// Java's refusal of `url` as the value of `key` when it is not on that list, or "" when it is.
std::string OAuthUrlRefusal(const std::string& key, const std::string& url);

// Whether a Java client key is one of the sasl.oauthbearer.* / sasl.login.* keys
// TranslateOAuthBearer reads or deliberately drops (so it is not passed on as it is).
bool IsOAuthBearerKey(const std::string& key);

}  // namespace connectd::jvm
