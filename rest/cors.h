// File: cors.h
//
// Cross-origin resource sharing as Connect configures Jetty's CrossOriginFilter: enabled only
// when `access.control.allow.origin` is non-blank, with Jetty's defaults for everything Connect
// does not set (allowed headers X-Requested-With,Content-Type,Accept,Origin; max age 1800 s;
// credentials allowed; preflight requests continue to the resource, which answers OPTIONS).
//
//   - allowed origins: comma list; "*" allows any origin; an entry containing '*' is a
//     wildcard pattern ("https://*.example.com");
//   - allowed methods: `access.control.allow.methods`, default GET,POST,HEAD;
//   - a preflight (OPTIONS with Access-Control-Request-Method) gets Allow-Origin, Allow-Methods,
//     Allow-Headers, Max-Age and Allow-Credentials, but only if the requested method and headers
//     are allowed; any other request from an allowed origin gets Allow-Origin and
//     Allow-Credentials. `Vary: Origin` is added unless every origin is allowed.
//
// Threads: immutable after construction; any thread.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rest/http_types.h"

namespace connectd::rest {

class CorsFilter {
 public:
  CorsFilter(std::string_view allowed_origins, std::string_view allowed_methods);

  bool enabled() const { return enabled_; }

  // The CORS response fields for a request, in Jetty's order; empty when the request is not a
  // CORS request or is not allowed.
  HeaderList HeadersFor(std::string_view method, const std::optional<std::string>& origin,
                        const std::optional<std::string>& request_method,
                        const std::optional<std::string>& request_headers) const;

 private:
  bool OriginMatches(std::string_view origin) const;

  bool enabled_ = false;
  bool any_origin_ = false;
  std::vector<std::string> origins_;
  std::vector<std::string> origin_patterns_;  // containing '*'
  std::vector<std::string> methods_;
  std::vector<std::string> headers_;
};

}  // namespace connectd::rest
