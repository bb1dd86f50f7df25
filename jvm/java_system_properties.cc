#include "jvm/java_system_properties.h"

#include <cstdlib>

namespace connectd::jvm {

std::optional<std::string> JavaSystemPropertyIn(std::string_view kafka_opts,
                                                std::string_view name) {
  std::optional<std::string> value;
  size_t start = 0;
  while (start < kafka_opts.size()) {
    const size_t end = kafka_opts.find_first_of(" \t\n", start);
    const std::string_view option =
        kafka_opts.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    start = end == std::string_view::npos ? kafka_opts.size() : end + 1;
    if (option.size() < 2 + name.size() || option.substr(0, 2) != "-D" ||
        option.substr(2, name.size()) != name) {
      continue;
    }
    const std::string_view rest = option.substr(2 + name.size());
    if (rest.empty()) {
      value = "";
    } else if (rest.front() == '=') {
      value = std::string(rest.substr(1));
    }
  }
  return value;
}

std::optional<std::string> JavaSystemProperty(std::string_view name) {
  const char* kafka_opts = std::getenv("KAFKA_OPTS");
  return JavaSystemPropertyIn(kafka_opts != nullptr ? kafka_opts : "", name);
}

}  // namespace connectd::jvm
