#include "runtime/kafka/client/bootstrap.h"

#include <charconv>

namespace connectd::kafka::client {

namespace {

std::string_view Trimmed(std::string_view s) {
  const size_t first = s.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}

}  // namespace

absl::StatusOr<std::vector<BrokerAddress>> ParseBootstrapServers(std::string_view list) {
  std::vector<BrokerAddress> out;
  size_t start = 0;
  while (start <= list.size()) {
    size_t comma = list.find(',', start);
    if (comma == std::string_view::npos) comma = list.size();
    const std::string_view entry = Trimmed(list.substr(start, comma - start));
    start = comma + 1;
    if (entry.empty()) continue;
    std::string_view address = entry;
    if (size_t scheme = address.find("://"); scheme != std::string_view::npos) {
      address.remove_prefix(scheme + 3);
    }
    const size_t colon = address.rfind(':');
    uint32_t port = 0;
    std::string_view host =
        colon == std::string_view::npos ? std::string_view() : address.substr(0, colon);
    if (host.size() > 2 && host.front() == '[' && host.back() == ']') {
      host = host.substr(1, host.size() - 2);
    }
    const std::string_view digits =
        colon == std::string_view::npos ? std::string_view() : address.substr(colon + 1);
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), port);
    if (host.empty() || digits.empty() || error != std::errc() ||
        end != digits.data() + digits.size() || port == 0 || port > 65535 ||
        host.find_first_of(" \t/") != std::string_view::npos) {
      return absl::InvalidArgumentError("Invalid url in bootstrap.servers: " + std::string(entry));
    }
    out.push_back({std::string(host), static_cast<uint16_t>(port)});
  }
  if (out.empty()) {
    return absl::InvalidArgumentError("No resolvable bootstrap urls given in bootstrap.servers");
  }
  return out;
}

}  // namespace connectd::kafka::client
