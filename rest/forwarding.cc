#include "rest/forwarding.h"

#include <exception>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "rest/error_mapping.h"
#include "rest/json_entities.h"
#include "runtime/common/logging.h"
#include "runtime/common/strings.h"
#include "runtime/herder_api/herder.h"

namespace connectd::rest {
namespace {

constexpr char kLogger[] = "org.apache.kafka.connect.runtime.rest.HerderRequestHandler";

constexpr char kNoLeaderMessage[] =
    "Cannot complete request momentarily due to no known leader URL, likely because a rebalance "
    "was underway.";
constexpr char kTooManyHopsMessage[] =
    "Cannot complete request because of a conflicting operation (e.g. worker rebalance)";
constexpr char kStaleConfigMessage[] =
    "Cannot complete request momentarily due to stale configuration (typically caused by a "
    "concurrent config change)";

// Percent-encodes a query name or value (everything but RFC 3986 unreserved characters).
std::string EncodeQueryComponent(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if (absl::ascii_isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~') {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 0xF]);
    }
  }
  return out;
}

RestResponse IoError(std::string_view detail) {
  return ErrorResponse(500, absl::StrCat("IO Error trying to forward REST request: ",
                                         absl::string_view(detail.data(), detail.size())));
}

// RestClient.httpRequest's handling of the remote answer.
RestResponse Translate(absl::StatusOr<HttpClientResponse> response,
                       const RemoteTranslator& on_remote) {
  if (!response.ok()) {
    std::string_view message(response.status().message().data(),
                             response.status().message().size());
    if (absl::IsFailedPrecondition(response.status())) {
      return ErrorResponse(
          500, absl::StrCat("Failed to start RestClient: ", response.status().message()));
    }
    return IoError(message);
  }
  int status = response->status;
  if (status == 204) return on_remote(status, std::nullopt);
  if (status >= 400) {
    absl::StatusOr<ErrorMessageBody> error = ParseErrorMessage(response->body);
    if (!error.ok()) return IoError(AsStd(error.status().message()));
    return JsonResponse(
        status, ErrorMessageJson(error->error_code.value_or(status), error->message.value_or("")));
  }
  if (status >= 200 && status < 300) {
    if (response->body.empty()) return on_remote(status, std::nullopt);
    if (absl::Status json = CheckJsonDocument(response->body); !json.ok()) {
      return IoError(AsStd(json.message()));
    }
    return on_remote(status, std::move(response->body));
  }
  return ErrorResponse(
      500, absl::StrCat("Unexpected status code when handling forwarded request: ", status));
}

}  // namespace

ForwardOrigin OriginOf(const RestRequest& request) {
  ForwardOrigin origin;
  // JAX-RS Boolean: absent or blank -> null; otherwise true iff "true" (any case).
  std::optional<std::string> forward = request.Query("forward");
  if (forward && !absl::StripAsciiWhitespace(*forward).empty()) {
    origin.forward = request.QueryBool("forward", false);
  }
  origin.authorization = FindHeader(request.headers, "Authorization");
  return origin;
}

RemoteTranslator RemoteBodyAs(int status) {
  return [status](int /*remote_status*/, std::optional<std::string> body) {
    return body ? JsonResponse(status, std::move(*body)) : EmptyResponse(status);
  };
}

std::string ForwardUrl(const std::string& target, const ForwardOrigin& origin,
                       const ForwardRequest& forward) {
  std::string_view base = target;
  while (!base.empty() && base.back() == '/') base.remove_suffix(1);
  // The first worker (no `forward`) allows one more hop; a forwarded request does not.
  std::string url =
      absl::StrCat(AsAbsl(base), forward.path, "?forward=", origin.forward ? "false" : "true");
  for (const auto& [name, value] : forward.query) {
    absl::StrAppend(&url, "&", EncodeQueryComponent(name), "=", EncodeQueryComponent(value));
  }
  return url;
}

void CompleteOrForward(RestClient* client, const absl::Status& error, const ForwardOrigin& origin,
                       ForwardRequest forward, Responder respond, RemoteTranslator on_remote) {
  std::optional<std::string> target = herder::ForwardTargetOf(error);
  if (!target) {
    respond(herder::IsRebalanceNeeded(error) ? ErrorResponse(409, kStaleConfigMessage)
                                             : ErrorResponse(error));
    return;
  }
  if (origin.forward && !*origin.forward) {
    CONNECTD_LOG(kError, kLogger)
        << "Request '" << forward.method << " " << forward.path
        << "' failed because it couldn't find the target Connect worker within two hops "
           "(between workers).";
    respond(ErrorResponse(409, kTooManyHopsMessage));
    return;
  }
  if (target->empty()) {
    respond(ErrorResponse(409, kNoLeaderMessage));
    return;
  }
  if (client == nullptr) {
    respond(IoError("no REST client is configured"));
    return;
  }

  HttpClientRequest request;
  request.method = forward.method;
  request.url = ForwardUrl(*target, origin, forward);
  AddHeader(request.headers, "Accept", "application/json");
  if (origin.authorization) AddHeader(request.headers, "Authorization", *origin.authorization);
  if (forward.body) {
    AddHeader(request.headers, "Content-Type", "application/json");
    request.body = std::move(*forward.body);
  }
  // Never the body: a connector config may hold literal passwords.
  CONNECTD_LOG(kDebug, kLogger) << "Forwarding request " << request.url << " " << request.method
                                << " (" << request.body.size() << " bytes)";
  std::string url = request.url;
  client->Send(std::move(request), [respond, on_remote = std::move(on_remote),
                                    url](absl::StatusOr<HttpClientResponse> response) {
    if (!response.ok()) {
      CONNECTD_LOG(kError, kLogger)
          << "IO error forwarding REST request to " << url << ": " << response.status();
    }
    try {
      respond(Translate(std::move(response), on_remote));
    } catch (const std::exception& e) {
      respond(ErrorResponse(500, e.what()));
    }
  });
}

}  // namespace connectd::rest
