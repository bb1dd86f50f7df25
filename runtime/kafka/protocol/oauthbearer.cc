#include "runtime/kafka/protocol/oauthbearer.h"

#include <curl/curl.h>

#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_split.h"
#include "jvm/java_oauthbearer_config.h"
#include "jvm/java_text.h"
#include "rapidjson/document.h"
#include "rapidjson/stringbuffer.h"
#include "rapidjson/writer.h"

namespace connectd::kafka::protocol {
namespace {

using Clock = std::chrono::system_clock;

constexpr size_t kMaxTokenResponseBytes = 1 << 20;

std::string Property(const std::map<std::string, std::string>& p, const std::string& key,
                     std::string fallback = "") {
  auto it = p.find(key);
  return it == p.end() || it->second.empty() ? fallback : it->second;
}

std::optional<int64_t> ParseMillis(const std::string& value) {
  char* end = nullptr;
  long long v = std::strtoll(value.c_str(), &end, 10);
  if (value.empty() || *end != '\0' || v < 0) return std::nullopt;
  return v;
}

// Used until 80% of its lifetime, as librdkafka refreshes its clients' tokens.
Clock::time_point RefreshAt(Clock::time_point start, Clock::time_point expires) {
  if (expires <= start) return expires;
  return start + (expires - start) / 10 * 8;
}

// Java's HttpJwtRetriever: a token endpoint's error answer as it quotes it. A JSON object with
// "error" gives {<error> - <error_description>} (each as JSON, strings quoted; a missing one
// empty), with "errorCode" {<errorCode> - <errorSummary>}, other JSON itself, anything else
// {<the text>}, nothing {}. Control characters become spaces (log lines stay one line).
std::string TokenEndpointError(const std::string& body) {
  auto json_text = [](const rapidjson::Value* value) -> std::string {
    if (value == nullptr) return "";
    rapidjson::StringBuffer buffer;
    rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
    value->Accept(writer);
    return buffer.GetString();
  };
  std::string out;
  if (body.find_first_not_of(" \t\r\n") == std::string::npos) {
    out = "{}";
  } else {
    rapidjson::Document json;
    json.Parse(body.data(), body.size());
    auto member = [&json](const char* name) -> const rapidjson::Value* {
      return json.IsObject() && json.HasMember(name) ? &json[name] : nullptr;
    };
    if (json.HasParseError()) {
      out = "{" + body + "}";
    } else if (member("error") != nullptr) {
      out = "{" + json_text(member("error")) + " - " + json_text(member("error_description")) + "}";
    } else if (member("errorCode") != nullptr) {
      out = "{" + json_text(member("errorCode")) + " - " + json_text(member("errorSummary")) + "}";
    } else {
      out = body;
    }
  }
  for (char& c : out) {
    if (static_cast<unsigned char>(c) < 0x20) c = ' ';
  }
  return out;
}

// Java's statuses after which a token request is not tried again.
bool IsUnretryable(long status) {
  return (status >= 400 && status <= 415 && status != 408) || status == 501 || status == 505;
}

// "NAME=value,NAME=value" (sasl.oauthbearer.extensions).
absl::StatusOr<std::map<std::string, std::string>> ParseExtensions(const std::string& list) {
  std::map<std::string, std::string> out;
  for (absl::string_view item : absl::StrSplit(list, ',', absl::SkipWhitespace())) {
    size_t eq = item.find('=');
    if (eq == absl::string_view::npos || eq == 0) {
      return absl::InvalidArgumentError("sasl.oauthbearer.extensions: '" + std::string(item) +
                                        "' is not NAME=value");
    }
    out[std::string(item.substr(0, eq))] = std::string(item.substr(eq + 1));
  }
  return out;
}

class UnsecuredSource : public OAuthBearerTokenSource {
 public:
  UnsecuredSource(std::string principal_claim, std::string principal, std::string scope_claim,
                  std::vector<std::string> scope, std::chrono::seconds lifetime,
                  std::map<std::string, std::string> extensions)
      : principal_claim_(std::move(principal_claim)),
        principal_(std::move(principal)),
        scope_claim_(std::move(scope_claim)),
        scope_(std::move(scope)),
        lifetime_(lifetime) {
    extensions_ = std::move(extensions);
  }

  void Get(Callback done) override {
    const Clock::time_point now = Clock::now();
    OAuthBearerToken token;
    token.value = UnsecuredJwt(principal_claim_, principal_, scope_claim_, scope_, now, lifetime_);
    token.principal = principal_;
    token.expires = now + lifetime_;
    token.refresh_at = RefreshAt(now, token.expires);
    done(std::move(token));
  }

 private:
  const std::string principal_claim_, principal_, scope_claim_;
  const std::vector<std::string> scope_;
  const std::chrono::seconds lifetime_;
};

// The client-credentials grant (RFC 6749 4.4) over libcurl, on a thread of the source's own.
class ClientCredentialsSource : public OAuthBearerTokenSource {
 public:
  struct Config {
    std::string url, client_id, client_secret, scope, ca_location, ca_pem;
    std::chrono::milliseconds connect_timeout{10000}, read_timeout{10000};
  };

  ClientCredentialsSource(Config config, std::map<std::string, std::string> extensions)
      : config_(std::move(config)) {
    extensions_ = std::move(extensions);
  }

  ~ClientCredentialsSource() override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
  }

  void Get(Callback done) override {
    std::unique_lock<std::mutex> lock(mu_);
    if (cached_ && Clock::now() < cached_->refresh_at) {
      OAuthBearerToken token = *cached_;
      lock.unlock();
      return done(std::move(token));
    }
    waiters_.push_back(std::move(done));
    if (!thread_.joinable()) thread_ = std::thread([this] { Run(); });
    cv_.notify_one();
  }

 private:
  void Run() {
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
      cv_.wait(lock, [this] { return stop_ || !waiters_.empty(); });
      if (stop_) {
        std::vector<Callback> waiters = std::move(waiters_);
        lock.unlock();
        for (Callback& done : waiters)
          done(absl::CancelledError("OAUTHBEARER token source closed"));
        return;
      }
      lock.unlock();
      absl::StatusOr<OAuthBearerToken> token = Fetch();
      lock.lock();
      if (token.ok()) {
        cached_ = *token;
      } else if (cached_ && Clock::now() < cached_->expires) {
        token = *cached_;  // the endpoint failed; the old token is still good until it expires
      }
      std::vector<Callback> waiters = std::move(waiters_);
      waiters_.clear();
      lock.unlock();
      for (Callback& done : waiters) done(token);
      lock.lock();
    }
  }

  static size_t Append(char* data, size_t size, size_t count, void* user) {
    auto* body = static_cast<std::string*>(user);
    if (body->size() + size * count > kMaxTokenResponseBytes) return 0;  // aborts the transfer
    body->append(data, size * count);
    return size * count;
  }

  static int Progress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
    return static_cast<ClientCredentialsSource*>(user)->stopping() ? 1 : 0;
  }

  bool stopping() {
    std::lock_guard<std::mutex> lock(mu_);
    return stop_;
  }

  absl::StatusOr<OAuthBearerToken> Fetch() {
    static std::once_flag curl_initialized;
    std::call_once(curl_initialized, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
    std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> curl(curl_easy_init(), &curl_easy_cleanup);
    if (!curl) return absl::ResourceExhaustedError("cannot create a libcurl handle");
    const std::string credentials = config_.client_id + ":" + config_.client_secret;
    const std::string authorization = "Authorization: Basic " + absl::Base64Escape(credentials);
    std::string body = "grant_type=client_credentials";
    if (!config_.scope.empty()) body += "&scope=" + jvm::JavaUrlEncode(config_.scope);
    curl_slist* headers = nullptr;
    for (const char* header : {"Accept: application/json", "Cache-Control: no-cache",
                               "Content-Type: application/x-www-form-urlencoded"}) {
      headers = curl_slist_append(headers, header);
    }
    headers = curl_slist_append(headers, authorization.c_str());
    std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> header_list(headers,
                                                                            &curl_slist_free_all);
    std::string response;
    CURL* h = curl.get();
    curl_easy_setopt(h, CURLOPT_URL, config_.url.c_str());
    curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(h, CURLOPT_COPYPOSTFIELDS, body.c_str());
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, &Append);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, &response);
    curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, &Progress);
    curl_easy_setopt(h, CURLOPT_XFERINFODATA, this);
    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS,
                     static_cast<long>(config_.connect_timeout.count()));
    curl_easy_setopt(h, CURLOPT_TIMEOUT_MS,
                     static_cast<long>((config_.connect_timeout + config_.read_timeout).count()));
    if (!config_.ca_location.empty()) {
      curl_easy_setopt(h, CURLOPT_CAINFO, config_.ca_location.c_str());
    } else if (!config_.ca_pem.empty()) {
      curl_blob blob{const_cast<char*>(config_.ca_pem.data()), config_.ca_pem.size(),
                     CURL_BLOB_COPY};
      curl_easy_setopt(h, CURLOPT_CAINFO_BLOB, &blob);
    }
    const Clock::time_point requested = Clock::now();
    CURLcode code = curl_easy_perform(h);
    if (code == CURLE_ABORTED_BY_CALLBACK) {
      return absl::CancelledError("OAUTHBEARER token source closed");
    }
    if (code != CURLE_OK) {
      return absl::UnavailableError("OAUTHBEARER token endpoint " + config_.url +
                                    " could not be reached: " + curl_easy_strerror(code));
    }
    long status = 0;
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
    if (status != 200 && status != 201) {
      // Java's HttpJwtRetriever's words; the token endpoint is one the operator listed in
      // org.apache.kafka.sasl.oauthbearer.allowed.urls (jvm/java_oauthbearer_config.h).
      const std::string where = "OAUTHBEARER token endpoint " + config_.url + ": ";
      const std::string error = TokenEndpointError(response);
      if (IsUnretryable(status)) {
        return absl::UnauthenticatedError(
            where + "The response code " + std::to_string(status) + " and error response " +
            error +
            " was encountered reading the token endpoint response; will not attempt further "
            "retries");
      }
      return absl::UnavailableError(where + "The unexpected response code " +
                                    std::to_string(status) + " and error message " + error +
                                    " was encountered reading the token endpoint response");
    }
    rapidjson::Document json;
    json.Parse(response.data(), response.size());
    if (json.HasParseError() || !json.IsObject() || !json.HasMember("access_token") ||
        !json["access_token"].IsString()) {
      return absl::UnauthenticatedError("OAUTHBEARER token endpoint " + config_.url +
                                        " answered without an access_token");
    }
    absl::StatusOr<OAuthBearerToken> token = ParseJwtClaims(json["access_token"].GetString());
    if (!token.ok()) {
      return absl::UnauthenticatedError(
          "OAUTHBEARER token endpoint " + config_.url +
          " answered with an unusable token: " + std::string(token.status().message()));
    }
    if (token->refresh_at == Clock::time_point())
      token->refresh_at = RefreshAt(requested, token->expires);
    return token;
  }

  const Config config_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;                       // guarded by mu_
  std::optional<OAuthBearerToken> cached_;  // guarded by mu_
  std::vector<Callback> waiters_;           // guarded by mu_
  std::thread thread_;                      // started by the first Get, under mu_
};

void WriteClaim(rapidjson::Writer<rapidjson::StringBuffer>& w, std::string_view name) {
  w.Key(name.data(), static_cast<rapidjson::SizeType>(name.size()));
}

}  // namespace

std::string OAuthBearerInitialResponse(std::string_view token,
                                       const std::map<std::string, std::string>& extensions) {
  std::string out = "n,,\x01";
  out += "auth=Bearer ";
  out.append(token);
  out += '\x01';
  for (const auto& [key, value] : extensions) {
    out += key + "=" + value + '\x01';
  }
  out += '\x01';
  return out;
}

std::string UnsecuredJwt(std::string_view principal_claim, std::string_view principal,
                         std::string_view scope_claim, const std::vector<std::string>& scope,
                         Clock::time_point issued, std::chrono::seconds lifetime) {
  const int64_t iat =
      std::chrono::duration_cast<std::chrono::seconds>(issued.time_since_epoch()).count();
  rapidjson::StringBuffer claims;
  rapidjson::Writer<rapidjson::StringBuffer> w(claims);
  w.StartObject();
  w.Key("iat");
  w.Int64(iat);
  w.Key("exp");
  w.Int64(iat + lifetime.count());
  WriteClaim(w, principal_claim);
  w.String(principal.data(), static_cast<rapidjson::SizeType>(principal.size()));
  if (!scope.empty()) {
    WriteClaim(w, scope_claim);
    w.StartArray();
    for (const std::string& s : scope) w.String(s.c_str());
    w.EndArray();
  }
  w.EndObject();
  std::string header, payload;
  absl::WebSafeBase64Escape(R"({"alg":"none"})", &header);
  absl::WebSafeBase64Escape(absl::string_view(claims.GetString(), claims.GetSize()), &payload);
  return header + "." + payload + ".";
}

absl::StatusOr<OAuthBearerToken> ParseJwtClaims(std::string_view jwt,
                                                std::string_view principal_claim) {
  std::vector<absl::string_view> parts =
      absl::StrSplit(absl::string_view(jwt.data(), jwt.size()), '.');
  std::string claims;
  if (parts.size() != 3 || !absl::WebSafeBase64Unescape(parts[1], &claims)) {
    return absl::InvalidArgumentError("not a JWT (header.payload.signature)");
  }
  rapidjson::Document json;
  json.Parse(claims.data(), claims.size());
  if (json.HasParseError() || !json.IsObject()) {
    return absl::InvalidArgumentError("the JWT's payload is not a JSON object");
  }
  // NumericDate seconds, within what the clock can hold (until 2255).
  auto seconds = [&json](const char* name) -> std::optional<Clock::time_point> {
    auto it = json.FindMember(name);
    if (it == json.MemberEnd() || !it->value.IsNumber()) return std::nullopt;
    const double value = it->value.GetDouble();
    if (!(value >= 0 && value < 9e9)) return std::nullopt;
    return Clock::time_point(std::chrono::milliseconds(static_cast<int64_t>(value * 1000)));
  };
  std::optional<Clock::time_point> exp = seconds("exp");
  if (!exp) return absl::InvalidArgumentError("the JWT has no exp claim the clock can hold");
  OAuthBearerToken token;
  token.value = std::string(jwt);
  token.expires = *exp;
  if (std::optional<Clock::time_point> iat = seconds("iat")) {
    token.refresh_at = RefreshAt(*iat, *exp);
  }
  const std::string claim(principal_claim);
  if (auto it = json.FindMember(claim.c_str()); it != json.MemberEnd() && it->value.IsString()) {
    token.principal = it->value.GetString();
  }
  return token;
}

absl::StatusOr<std::shared_ptr<OAuthBearerTokenSource>> OAuthBearerTokenSource::FromProperties(
    const std::map<std::string, std::string>& p) {
  absl::StatusOr<std::map<std::string, std::string>> extensions =
      ParseExtensions(Property(p, "sasl.oauthbearer.extensions"));
  if (!extensions.ok()) return extensions.status();
  const std::string method = Property(p, "sasl.oauthbearer.method", "default");
  if (method == "oidc") {
    ClientCredentialsSource::Config config;
    config.url = Property(p, "sasl.oauthbearer.token.endpoint.url");
    config.client_id = Property(p, "sasl.oauthbearer.client.id");
    config.client_secret = Property(p, "sasl.oauthbearer.client.secret");
    config.scope = Property(p, "sasl.oauthbearer.scope");
    config.ca_location = Property(p, "https.ca.location");
    config.ca_pem = Property(p, "https.ca.pem");
    for (const char* key : {"sasl.oauthbearer.token.endpoint.url", "sasl.oauthbearer.client.id",
                            "sasl.oauthbearer.client.secret"}) {
      if (Property(p, key).empty()) {
        return absl::InvalidArgumentError(std::string("sasl.oauthbearer.method=oidc needs ") + key);
      }
    }
    if (config.url.rfind("http://", 0) != 0 && config.url.rfind("https://", 0) != 0) {
      return absl::InvalidArgumentError("sasl.oauthbearer.token.endpoint.url=" + config.url +
                                        " is not an http:// or https:// URL");
    }
    if (std::string refusal =
            jvm::OAuthUrlRefusal("sasl.oauthbearer.token.endpoint.url", config.url);
        !refusal.empty()) {
      return absl::PermissionDeniedError(refusal);
    }
    for (auto [key, field] : {std::pair{"sasl.login.connect.timeout.ms", &config.connect_timeout},
                              std::pair{"sasl.login.read.timeout.ms", &config.read_timeout}}) {
      const std::string value = Property(p, key);
      if (value.empty()) continue;
      std::optional<int64_t> ms = ParseMillis(value);
      if (!ms)
        return absl::InvalidArgumentError(std::string(key) + "=" + value +
                                          " is not a number of ms");
      *field = std::chrono::milliseconds(*ms);
    }
    return std::shared_ptr<OAuthBearerTokenSource>(
        std::make_shared<ClientCredentialsSource>(std::move(config), *std::move(extensions)));
  }
  if (method != "default") {
    return absl::InvalidArgumentError("sasl.oauthbearer.method=" + method +
                                      " is not one of default, oidc");
  }
  if (Property(p, "enable.sasl.oauthbearer.unsecure.jwt") != "true") {
    return absl::InvalidArgumentError(
        "sasl.mechanism=OAUTHBEARER needs a token source: the OIDC client-credentials login "
        "(sasl.login.callback.handler.class=...OAuthBearerLoginCallbackHandler with "
        "sasl.oauthbearer.token.endpoint.url) or an unsecured JWT (OAuthBearerLoginModule "
        "options unsecuredLoginStringClaim_sub=...)");
  }
  std::string principal_claim = "sub", principal, scope_claim = "scope";
  std::vector<std::string> scope;
  std::chrono::seconds lifetime{3600};
  std::map<std::string, std::string> all_extensions = *std::move(extensions);
  for (absl::string_view item :
       absl::StrSplit(Property(p, "sasl.oauthbearer.config"), ' ', absl::SkipWhitespace())) {
    size_t eq = item.find('=');
    std::string name(item.substr(0, eq));
    std::string value(eq == absl::string_view::npos ? "" : item.substr(eq + 1));
    if (name == "principal") {
      principal = value;
    } else if (name == "principalClaimName") {
      principal_claim = value;
    } else if (name == "scope") {
      scope = absl::StrSplit(value, ',', absl::SkipEmpty());
    } else if (name == "scopeClaimName") {
      scope_claim = value;
    } else if (name == "lifeSeconds") {
      std::optional<int64_t> s = ParseMillis(value);
      if (!s || *s == 0 || *s > 100LL * 365 * 24 * 3600) {
        return absl::InvalidArgumentError("sasl.oauthbearer.config: lifeSeconds=" + value +
                                          " is not a positive number");
      }
      lifetime = std::chrono::seconds(*s);
    } else if (name.rfind("extension_", 0) == 0 && name.size() > 10) {
      all_extensions[name.substr(10)] = value;
    } else {
      return absl::InvalidArgumentError("sasl.oauthbearer.config: unknown option '" + name + "'");
    }
  }
  if (principal.empty()) {
    return absl::InvalidArgumentError("sasl.oauthbearer.config has no principal=");
  }
  return std::shared_ptr<OAuthBearerTokenSource>(
      std::make_shared<UnsecuredSource>(principal_claim, principal, scope_claim, std::move(scope),
                                        lifetime, std::move(all_extensions)));
}

}  // namespace connectd::kafka::protocol
