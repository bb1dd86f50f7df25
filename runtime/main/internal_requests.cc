#include "runtime/main/internal_requests.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "rest/router.h"

namespace connectd::main {

void SendSignedToLeader(rest::RestClient& client, const std::string& leader_url,
                        const std::string& namespace_path, const std::string& connector,
                        const std::string& method, const std::string& suffix, std::string body,
                        const std::optional<storage::SessionKey>& key,
                        const std::string& signature_algorithm,
                        std::function<void(absl::Status)> done) {
  rest::HttpClientRequest request;
  request.method = method;
  std::string base = leader_url;
  while (!base.empty() && base.back() == '/') base.pop_back();
  request.url = absl::StrCat(base, namespace_path, "/connectors/",
                             rest::EncodePathSegment(connector), "/", suffix);
  request.body = std::move(body);
  if (method == "POST") request.headers.push_back({"Content-Type", "application/json"});
  if (key) {
    absl::StatusOr<std::string> signature =
        distributed::Sign(key->key, signature_algorithm, request.body);
    if (!signature.ok()) return done(signature.status());
    request.headers.push_back({std::string(distributed::kSignatureHeader), *signature});
    request.headers.push_back(
        {std::string(distributed::kSignatureAlgorithmHeader), signature_algorithm});
  }
  client.Send(std::move(request),
              [done = std::move(done)](absl::StatusOr<rest::HttpClientResponse> response) {
                if (!response.ok()) return done(response.status());
                if (response->status >= 200 && response->status < 300) {
                  return done(absl::OkStatus());
                }
                done(absl::UnavailableError(
                    absl::StrCat("leader answered ", response->status, ": ", response->body)));
              });
}

}  // namespace connectd::main
