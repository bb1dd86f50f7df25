#include "runtime/config/config_providers.h"

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "runtime/config/config_def.h"
#include "runtime/config/properties.h"

namespace connectd::config {
namespace {

// Kafka's ConfigTransformer pattern: ${provider:[path:]key}.
const std::regex& ReferencePattern() {
  static const std::regex* pattern = new std::regex(R"(\$\{([^}]*?):(([^}]*?):)?([^}]*?)\})");
  return *pattern;
}

// allowed.paths: a comma list of directories; empty allows everything.
class AllowedPaths {
 public:
  explicit AllowedPaths(const std::string& list) {
    for (const std::string& p : SplitList(list)) {
      allowed_.push_back(std::filesystem::weakly_canonical(p).string());
    }
  }
  absl::Status Check(const std::string& path) const {
    if (allowed_.empty()) return absl::OkStatus();
    std::string canonical = std::filesystem::weakly_canonical(path).string();
    for (const std::string& root : allowed_) {
      if (canonical == root || canonical.rfind(root + "/", 0) == 0) return absl::OkStatus();
    }
    return absl::PermissionDeniedError(
        absl::StrCat(path, " is not allowed. Supported paths are: ", [&] {
          std::string joined;
          for (const auto& a : allowed_) {
            joined += (joined.empty() ? "" : ", ") + a;
          }
          return joined;
        }()));
  }

 private:
  std::vector<std::string> allowed_;
};

class FileConfigProvider : public ConfigProvider {
 public:
  explicit FileConfigProvider(const std::string& allowed) : allowed_(allowed) {}
  absl::StatusOr<std::optional<std::string>> Get(const std::string& path,
                                                 const std::string& key) const override {
    if (absl::Status ok = allowed_.Check(path); !ok.ok()) return ok;
    absl::StatusOr<Properties> props = LoadPropertiesFile(path);
    if (!props.ok()) return props.status();
    auto it = props->find(key);
    if (it == props->end()) return std::optional<std::string>();
    return std::optional<std::string>(it->second);
  }

 private:
  AllowedPaths allowed_;
};

class DirectoryConfigProvider : public ConfigProvider {
 public:
  explicit DirectoryConfigProvider(const std::string& allowed) : allowed_(allowed) {}
  absl::StatusOr<std::optional<std::string>> Get(const std::string& path,
                                                 const std::string& key) const override {
    if (absl::Status ok = allowed_.Check(path); !ok.ok()) return ok;
    std::filesystem::path file = std::filesystem::path(path) / key;
    std::error_code ec;
    if (key.find('/') != std::string::npos || !std::filesystem::is_regular_file(file, ec)) {
      return std::optional<std::string>();
    }
    std::ifstream in(file, std::ios::binary);
    std::ostringstream content;
    content << in.rdbuf();
    return std::optional<std::string>(content.str());
  }

 private:
  AllowedPaths allowed_;
};

class EnvVarConfigProvider : public ConfigProvider {
 public:
  explicit EnvVarConfigProvider(const std::string& pattern)
      : pattern_(pattern.empty() ? ".*" : pattern) {}
  absl::StatusOr<std::optional<std::string>> Get(const std::string& path,
                                                 const std::string& key) const override {
    if (!path.empty()) {
      return absl::InvalidArgumentError("Path for the env config provider must be empty");
    }
    if (!std::regex_match(key, pattern_)) return std::optional<std::string>();
    const char* value = std::getenv(key.c_str());
    if (value == nullptr) return std::optional<std::string>();
    return std::optional<std::string>(value);
  }

 private:
  std::regex pattern_;
};

}  // namespace

absl::StatusOr<ConfigProviders> ConfigProviders::Create(
    const std::map<std::string, std::string>& worker) {
  ConfigProviders providers;
  auto get = [&](const std::string& key) {
    auto it = worker.find(key);
    return it == worker.end() ? std::string() : it->second;
  };
  auto names = worker.find("config.providers");
  if (names == worker.end()) return providers;
  for (const std::string& name : SplitList(names->second)) {
    std::string prefix = absl::StrCat("config.providers.", name, ".");
    std::string cls = get(prefix + "class");
    std::string allowed = get(prefix + "param.allowed.paths");
    std::shared_ptr<const ConfigProvider> provider;
    if (cls == "org.apache.kafka.common.config.provider.FileConfigProvider") {
      provider = std::make_shared<FileConfigProvider>(allowed);
    } else if (cls == "org.apache.kafka.common.config.provider.DirectoryConfigProvider") {
      provider = std::make_shared<DirectoryConfigProvider>(allowed);
    } else if (cls == "org.apache.kafka.common.config.provider.EnvVarConfigProvider") {
      try {
        provider = std::make_shared<EnvVarConfigProvider>(get(prefix + "param.allowlist.pattern"));
      } catch (const std::regex_error&) {
        return absl::InvalidArgumentError(
            absl::StrCat(prefix, "param.allowlist.pattern is not a valid regular expression"));
      }
    } else if (cls.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("config provider '", name, "' needs ", prefix, "class"));
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("config provider class ", cls,
                       " is not supported; use FileConfigProvider, "
                       "DirectoryConfigProvider or EnvVarConfigProvider"));
    }
    providers.providers_[name] = std::move(provider);
  }
  return providers;
}

bool ConfigProviders::HasReference(const std::string& value) {
  return std::regex_search(value, ReferencePattern());
}

absl::StatusOr<std::map<std::string, std::string>> ConfigProviders::Transform(
    const std::map<std::string, std::string>& config) const {
  std::map<std::string, std::string> out;
  for (const auto& [key, value] : config) {
    std::string result;
    auto begin = std::sregex_iterator(value.begin(), value.end(), ReferencePattern());
    size_t last = 0;
    for (auto it = begin; it != std::sregex_iterator(); ++it) {
      const std::smatch& m = *it;
      result.append(value, last, static_cast<size_t>(m.position(0)) - last);
      last = static_cast<size_t>(m.position(0) + m.length(0));
      auto provider = providers_.find(m[1].str());
      std::optional<std::string> resolved;
      if (provider != providers_.end()) {
        absl::StatusOr<std::optional<std::string>> got =
            provider->second->Get(m[3].matched ? m[3].str() : "", m[4].str());
        if (!got.ok()) {
          return absl::Status(got.status().code(),
                              absl::StrCat("resolving the config provider reference in '", key,
                                           "': ", got.status().message()));
        }
        resolved = *got;
      }
      result += resolved.value_or(m[0].str());
    }
    result.append(value, last, std::string::npos);
    out[key] = std::move(result);
  }
  return out;
}

}  // namespace connectd::config
