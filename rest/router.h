// File: router.h
//
// Maps (method, path) to a Handler the way Connect's JAX-RS resources match:
//   - a route is a pattern of literal segments and `{param}` segments ("/connectors/{c}/config");
//   - path segments are percent-decoded before matching, so "/connectors/my%20conn" passes
//     "my conn" as the parameter; a single trailing slash is ignored;
//   - a path no route matches is 404; a path some route matches but not with this method is
//     405, with the methods that would match (HEAD follows GET, OPTIONS is always allowed).
//
// Threads: build the table before serving; Find() is const and may run on any thread.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "rest/http_types.h"

namespace connectd::rest {

struct RouteOptions {
  // The resource declares @Consumes(application/json): a request whose Content-Type is another
  // media type gets 415.
  bool consumes_json = true;
  // The resource answers JSON (@Produces(application/json)): a request whose Accept admits no
  // JSON gets 406. Routes that answer another media type set their own Content-Type.
  bool produces_json = true;
};

class Router {
 public:
  struct Route {
    std::string method;
    std::vector<std::string> segments;  // literal, or "{name}" for a parameter
    Handler handler;
    RouteOptions options;
  };

  enum class Outcome { kMatched, kNotFound, kMethodNotAllowed };

  struct Match {
    Outcome outcome = Outcome::kNotFound;
    const Route* route = nullptr;      // when kMatched
    std::vector<std::string> params;   // decoded, when kMatched
    std::vector<std::string> allowed;  // methods the path supports (kMatched/kMethodNotAllowed)
  };

  // Adds a route; `pattern` starts with '/'.
  void Add(std::string method, std::string_view pattern, Handler handler,
           RouteOptions options = {});

  // Looks up `raw_path` (still percent-encoded, without the query). A HEAD request matches GET
  // routes. Fails (kInvalidArgument) only on a malformed percent escape.
  absl::StatusOr<Match> Find(std::string_view method, std::string_view raw_path) const;

 private:
  std::vector<Route> routes_;
};

// Percent-decodes a path segment ('+' stays '+'). kInvalidArgument on a malformed escape.
absl::StatusOr<std::string> DecodePathSegment(std::string_view segment);

// Percent-encodes a path segment as JAX-RS UriBuilder.path() does for a template-free value.
std::string EncodePathSegment(std::string_view segment);

// Parses a query string ("a=1&expand=status&expand=info"): '+' is a space, %XX decoded; a
// malformed escape keeps its text. A name without '=' has the value "".
QueryParams ParseQuery(std::string_view query);

}  // namespace connectd::rest
