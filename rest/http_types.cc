#include "rest/http_types.h"

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "runtime/common/strings.h"

namespace connectd::rest {
namespace {

bool NameEquals(std::string_view a, std::string_view b) {
  return absl::EqualsIgnoreCase(AsAbsl(a), AsAbsl(b));
}

}  // namespace

void SetHeader(HeaderList& headers, std::string_view name, std::string value) {
  bool replaced = false;
  for (auto it = headers.begin(); it != headers.end();) {
    if (!NameEquals(it->first, name)) {
      ++it;
    } else if (!replaced) {
      it->second = std::move(value);
      replaced = true;
      ++it;
    } else {
      it = headers.erase(it);
    }
  }
  if (!replaced) headers.emplace_back(std::string(name), std::move(value));
}

void AddHeader(HeaderList& headers, std::string_view name, std::string value) {
  headers.emplace_back(std::string(name), std::move(value));
}

std::optional<std::string> FindHeader(const HeaderList& headers, std::string_view name) {
  for (const auto& [field, value] : headers) {
    if (NameEquals(field, name)) return value;
  }
  return std::nullopt;
}

std::optional<std::string> RestRequest::Query(std::string_view name) const {
  auto it = query.find(std::string(name));
  if (it == query.end() || it->second.empty()) return std::nullopt;
  return it->second.front();
}

bool RestRequest::QueryBool(std::string_view name, bool default_value) const {
  std::optional<std::string> value = Query(name);
  if (!value) return default_value;
  return absl::EqualsIgnoreCase(*value, "true");
}

RestResponse JsonResponse(int status, std::string json) {
  RestResponse response;
  response.status = status;
  response.body = std::move(json);
  return response;
}

RestResponse EmptyResponse(int status) {
  RestResponse response;
  response.status = status;
  return response;
}

Responder::Responder(Sink sink) : state_(std::make_shared<State>()) {
  state_->sink = std::move(sink);
}

void Responder::operator()(RestResponse response) const {
  if (!state_) return;
  if (state_->done.exchange(true)) return;
  // The sink runs once; release it afterwards so captured sessions are freed early.
  Sink sink = std::move(state_->sink);
  state_->sink = nullptr;
  if (sink) sink(std::move(response));
}

bool Responder::done() const { return state_ && state_->done.load(); }

}  // namespace connectd::rest
