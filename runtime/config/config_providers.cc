#include "runtime/config/config_providers.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>
#include <utility>

#include "absl/strings/str_cat.h"
#include "jvm/java_regex.h"
#include "runtime/common/logging.h"
#include "runtime/config/config_def.h"
#include "runtime/config/properties.h"

namespace connectd::config {
namespace {

// One ${provider:[path:]key} reference in a value.
struct Reference {
  size_t begin = 0, end = 0;  // [begin, end) of "${...}" in the value
  std::string provider, key;
  std::optional<std::string> path;
};

// The references in `value`, as Kafka's ConfigTransformer finds them with the pattern
// \$\{([^}]*?):(([^}]*?):)?([^}]*?)\}: from each "${" to the first "}" after it, the text
// before its first ':' is the provider, and the rest is the key, or a path and a key split at
// the rest's first ':'; a "${" with no '}' or ':' after it is no reference, and the search goes
// on from the next "${". A scan, not std::regex: libstdc++'s regex recurses per character, and a
// connector config value of some 200 KB overflowed the stack (a REST call ended the worker).
std::vector<Reference> FindReferences(std::string_view value) {
  std::vector<Reference> out;
  size_t from = 0;
  while (true) {
    const size_t open = value.find("${", from);
    if (open == std::string_view::npos) break;
    const size_t close = value.find('}', open + 2);
    if (close == std::string_view::npos) break;
    const std::string_view inside = value.substr(open + 2, close - open - 2);
    const size_t colon = inside.find(':');
    if (colon == std::string_view::npos) {
      from = open + 1;
      continue;
    }
    Reference ref;
    ref.begin = open;
    ref.end = close + 1;
    ref.provider = std::string(inside.substr(0, colon));
    const std::string_view rest = inside.substr(colon + 1);
    if (const size_t second = rest.find(':'); second != std::string_view::npos) {
      ref.path = std::string(rest.substr(0, second));
      ref.key = std::string(rest.substr(second + 1));
    } else {
      ref.key = std::string(rest);
    }
    out.push_back(std::move(ref));
    from = close + 1;
  }
  return out;
}

constexpr char kLogger[] = "connectd.config.providers";

// allowed.paths (KIP-993) as Java's AllowedPaths reads it: a comma list (entries not trimmed),
// each an absolute path that exists, held with its links resolved; empty allows everything. A
// path asked for is allowed when, links and ".." resolved, it lies under one of them (whole
// components: /a/bc is not under /a/b).
class AllowedPaths {
 public:
  static absl::StatusOr<AllowedPaths> Parse(const std::string& list) {
    AllowedPaths paths;
    if (list.empty()) return paths;
    size_t start = 0;
    while (start <= list.size()) {
      size_t end = list.find(',', start);
      if (end == std::string::npos) end = list.size();
      const std::filesystem::path entry =
          std::filesystem::path(list.substr(start, end - start)).lexically_normal();
      start = end + 1;
      std::error_code ec;
      if (!entry.is_absolute()) {
        return absl::InvalidArgumentError(
            absl::StrCat("Path ", entry.string(), " is not absolute"));
      }
      if (!std::filesystem::exists(entry, ec)) {
        return absl::InvalidArgumentError(absl::StrCat("Path ", entry.string(), " does not exist"));
      }
      std::filesystem::path real = std::filesystem::canonical(entry, ec);
      if (ec) {
        return absl::InvalidArgumentError(
            absl::StrCat("Path ", entry.string(), " could not be resolved: ", ec.message()));
      }
      paths.allowed_.push_back(std::move(real));
    }
    return paths;
  }

  // Whether `path` may be read; a refused one is logged as Java logs it.
  bool Allows(const std::string& path) const {
    if (allowed_.empty()) return true;
    std::error_code ec;
    const std::filesystem::path real = std::filesystem::canonical(path, ec);
    if (!ec) {
      for (const std::filesystem::path& root : allowed_) {
        auto [root_end, real_at] =
            std::mismatch(root.begin(), root.end(), real.begin(), real.end());
        if (root_end == root.end()) return true;
      }
    }
    CONNECTD_LOG(kWarn, kLogger) << "The path " << path << " is not allowed to be accessed";
    return false;
  }

 private:
  std::vector<std::filesystem::path> allowed_;
};

// A path not allowed gives no value (Java's providers answer with no data, so the reference
// stays as written).
class FileConfigProvider : public ConfigProvider {
 public:
  explicit FileConfigProvider(AllowedPaths allowed) : allowed_(std::move(allowed)) {}
  absl::StatusOr<std::optional<std::string>> Get(const std::string& path,
                                                 const std::string& key) const override {
    if (!allowed_.Allows(path)) return std::optional<std::string>();
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
  explicit DirectoryConfigProvider(AllowedPaths allowed) : allowed_(std::move(allowed)) {}
  absl::StatusOr<std::optional<std::string>> Get(const std::string& path,
                                                 const std::string& key) const override {
    if (!allowed_.Allows(path)) return std::optional<std::string>();
    std::filesystem::path file = std::filesystem::path(path) / key;
    std::error_code ec;
    if (key.find('/') != std::string::npos || key == ".." ||
        !std::filesystem::is_regular_file(file, ec)) {
      return std::optional<std::string>();
    }
    // A link in an allowed directory must not lead out of the allowed paths (stricter than
    // Java, which checks the directory only).
    if (!allowed_.Allows(file.string())) return std::optional<std::string>();
    std::ifstream in(file, std::ios::binary);
    std::ostringstream content;
    content << in.rdbuf();
    return std::optional<std::string>(content.str());
  }

 private:
  AllowedPaths allowed_;
};

// allowlist.pattern (KIP-887): a Java regular expression a variable's whole name must match,
// ".*" by default; a variable that does not match is absent.
class EnvVarConfigProvider : public ConfigProvider {
 public:
  explicit EnvVarConfigProvider(jvm::JavaRegex pattern) : pattern_(std::move(pattern)) {}
  absl::StatusOr<std::optional<std::string>> Get(const std::string& path,
                                                 const std::string& key) const override {
    if (!path.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Path is not supported for EnvVarConfigProvider, invalid value '", path, "'"));
    }
    if (pattern_.Matches(key) != jvm::JavaRegex::Result::kMatch)
      return std::optional<std::string>();
    const char* value = std::getenv(key.c_str());
    if (value == nullptr) return std::optional<std::string>();
    return std::optional<std::string>(value);
  }

 private:
  jvm::JavaRegex pattern_;
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
    std::shared_ptr<const ConfigProvider> provider;
    if (cls == "org.apache.kafka.common.config.provider.FileConfigProvider" ||
        cls == "org.apache.kafka.common.config.provider.DirectoryConfigProvider") {
      absl::StatusOr<AllowedPaths> allowed =
          AllowedPaths::Parse(get(prefix + "param.allowed.paths"));
      if (!allowed.ok()) {
        return absl::InvalidArgumentError(
            absl::StrCat(prefix, "param.allowed.paths: ", allowed.status().message()));
      }
      if (cls == "org.apache.kafka.common.config.provider.FileConfigProvider") {
        provider = std::make_shared<FileConfigProvider>(*std::move(allowed));
      } else {
        provider = std::make_shared<DirectoryConfigProvider>(*std::move(allowed));
      }
    } else if (cls == "org.apache.kafka.common.config.provider.EnvVarConfigProvider") {
      const std::string pattern = get(prefix + "param.allowlist.pattern");
      std::string error;
      std::optional<jvm::JavaRegex> regex =
          jvm::JavaRegex::Compile(pattern.empty() ? ".*" : pattern, &error);
      if (!regex) {
        return absl::InvalidArgumentError(absl::StrCat(
            prefix, "param.allowlist.pattern is not a valid regular expression: ", error));
      }
      provider = std::make_shared<EnvVarConfigProvider>(*std::move(regex));
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
  return !FindReferences(value).empty();
}

absl::StatusOr<std::map<std::string, std::string>> ConfigProviders::Transform(
    const std::map<std::string, std::string>& config) const {
  std::map<std::string, std::string> out;
  for (const auto& [key, value] : config) {
    std::string result;
    size_t last = 0;
    for (const Reference& ref : FindReferences(value)) {
      result.append(value, last, ref.begin - last);
      last = ref.end;
      auto provider = providers_.find(ref.provider);
      std::optional<std::string> resolved;
      if (provider != providers_.end()) {
        absl::StatusOr<std::optional<std::string>> got =
            provider->second->Get(ref.path.value_or(""), ref.key);
        if (!got.ok()) {
          return absl::Status(got.status().code(),
                              absl::StrCat("resolving the config provider reference in '", key,
                                           "': ", got.status().message()));
        }
        resolved = *got;
      }
      result += resolved.value_or(value.substr(ref.begin, ref.end - ref.begin));
    }
    result.append(value, last, std::string::npos);
    out[key] = std::move(result);
  }
  return out;
}

}  // namespace connectd::config
