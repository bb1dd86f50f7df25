// File: http_types.h
//
// The transport-free request/response model the REST resources work with. The HTTP session
// (http_session.cc) turns Beast messages into RestRequest and a RestResponse back into bytes;
// resources never see Beast.
//
// A Responder delivers exactly one RestResponse for one request. It may be called from any
// thread (herder callbacks arrive on herder threads); only the first call counts, so a request
// timeout and a late herder answer cannot both be sent.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace connectd::rest {

// Query parameters by name, values in the order they appeared (`expand` repeats).
using QueryParams = std::map<std::string, std::vector<std::string>>;

// Response header fields in order; names compare case-insensitively (see SetHeader/AddHeader).
using HeaderList = std::vector<std::pair<std::string, std::string>>;

// Replaces every field named `name` (case-insensitive) with one field.
void SetHeader(HeaderList& headers, std::string_view name, std::string value);
// Appends a field, keeping existing ones of the same name.
void AddHeader(HeaderList& headers, std::string_view name, std::string value);
// The first field named `name`, if any.
std::optional<std::string> FindHeader(const HeaderList& headers, std::string_view name);

struct RestRequest {
  std::string method;                    // upper case: GET, POST, PUT, PATCH, DELETE
  std::vector<std::string> path_params;  // URL-decoded, in the order of `{...}` in the route
  QueryParams query;                     // URL-decoded
  std::string body;
  // "http://host:port" as the client addressed us (Host header), for Location headers.
  std::string base_url;
  // Every request header field in arrival order (Authorization is copied when forwarding; the
  // internal endpoints read their signature headers).
  HeaderList headers;

  // The first value of query parameter `name`, if present.
  std::optional<std::string> Query(std::string_view name) const;
  // JAX-RS Boolean conversion: absent -> `default_value`; else true iff "true" (any case).
  bool QueryBool(std::string_view name, bool default_value) const;
};

struct RestResponse {
  int status = 200;
  std::string body;    // JSON text; empty for no body
  HeaderList headers;  // extra fields (Location, Allow, ...); Content-Type is added centrally
};

// A 200/201/... response carrying JSON text.
RestResponse JsonResponse(int status, std::string json);
// A response without a body (202, 204).
RestResponse EmptyResponse(int status);

class Responder {
 public:
  using Sink = std::function<void(RestResponse)>;

  Responder() = default;
  explicit Responder(Sink sink);

  // Delivers `response` unless a response was already delivered. Thread-safe.
  void operator()(RestResponse response) const;
  // True once a response was delivered.
  bool done() const;

 private:
  struct State {
    std::atomic<bool> done{false};
    Sink sink;
  };
  std::shared_ptr<State> state_;
};

// A route handler. Runs on the session's strand; it may answer inline or later from any thread.
using Handler = std::function<void(RestRequest request, Responder respond)>;

}  // namespace connectd::rest
