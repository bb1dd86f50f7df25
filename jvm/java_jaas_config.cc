#include "jvm/java_jaas_config.h"

#include <algorithm>
#include <cctype>
#include <vector>

#include "jvm/java_split.h"
#include "jvm/java_system_properties.h"

namespace connectd::jvm {
namespace {

class Reader {
 public:
  explicit Reader(const std::string& text) : text_(text) {}

  void SkipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool AtEnd() {
    SkipSpace();
    return pos_ >= text_.size();
  }
  bool Consume(char c) {
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  // A bare word: up to whitespace, '=', ';' or a quote.
  std::string Word() {
    SkipSpace();
    size_t start = pos_;
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (std::isspace(static_cast<unsigned char>(c)) || c == '=' || c == ';' || c == '"') break;
      ++pos_;
    }
    return text_.substr(start, pos_ - start);
  }
  // A quoted or bare value; nullopt for an unterminated quote.
  std::optional<std::string> Value() {
    SkipSpace();
    if (pos_ >= text_.size() || text_[pos_] != '"') return Word();
    std::string out;
    for (++pos_; pos_ < text_.size(); ++pos_) {
      char c = text_[pos_];
      if (c == '\\' && pos_ + 1 < text_.size()) {
        out += text_[++pos_];
      } else if (c == '"') {
        ++pos_;
        return out;
      } else {
        out += c;
      }
    }
    return std::nullopt;
  }

 private:
  const std::string& text_;
  size_t pos_ = 0;
};

}  // namespace

bool JaasLoginModule::Is(const std::string& simple_name) const {
  return class_name == simple_name ||
         (class_name.size() > simple_name.size() &&
          class_name.compare(class_name.size() - simple_name.size(), simple_name.size(),
                             simple_name) == 0 &&
          class_name[class_name.size() - simple_name.size() - 1] == '.');
}

std::optional<JaasLoginModule> ParseJaasConfig(const std::string& value, std::string& error) {
  Reader reader(value);
  JaasLoginModule module;
  module.class_name = reader.Word();
  if (module.class_name.empty()) {
    error = "sasl.jaas.config does not start with a login module class name";
    return std::nullopt;
  }
  module.flag = reader.Word();
  if (module.flag != "required" && module.flag != "requisite" && module.flag != "sufficient" &&
      module.flag != "optional") {
    error =
        "sasl.jaas.config: the login module's flag must be required, requisite, sufficient "
        "or optional";
    return std::nullopt;
  }
  while (!reader.Consume(';')) {
    if (reader.AtEnd()) {
      error = "sasl.jaas.config does not end its login module with ';'";
      return std::nullopt;
    }
    std::string name = reader.Word();
    if (name.empty() || !reader.Consume('=')) {
      error = "sasl.jaas.config: expected name=value after " +
              (module.options.empty() ? module.flag : "an option");
      return std::nullopt;
    }
    std::optional<std::string> option = reader.Value();
    if (!option) {
      error = "sasl.jaas.config: the value of option " + name + " has no closing quote";
      return std::nullopt;
    }
    module.options[name] = *std::move(option);
  }
  if (!reader.AtEnd()) {
    error = "sasl.jaas.config must hold exactly one login module";
    return std::nullopt;
  }
  return module;
}

std::string LoginModuleRefusal(const std::string& class_name) {
  constexpr char kAllowed[] = "org.apache.kafka.allowed.login.modules";
  constexpr char kDisallowed[] = "org.apache.kafka.disallowed.login.modules";
  constexpr char kDisallowedDefault[] =
      "com.sun.security.auth.module.JndiLoginModule,com.sun.security.auth.module.LdapLoginModule";
  std::string module = class_name;
  module.erase(0, module.find_first_not_of(" \t"));
  module.erase(module.find_last_not_of(" \t") + 1);
  auto listed = [&module](const std::string& list) {
    const std::vector<std::string> items = JavaCommaList(list);
    return std::find(items.begin(), items.end(), module) != items.end();
  };
  if (std::optional<std::string> allowed = JavaSystemProperty(kAllowed)) {
    if (listed(*allowed)) return "";
    return module + " is not allowed. Update System property '" + kAllowed + "' to allow " + module;
  }
  if (!listed(JavaSystemProperty(kDisallowed).value_or(kDisallowedDefault))) return "";
  return module + " is not allowed. The system property '" + kDisallowed +
         "' is deprecated. Use the " + kAllowed + " to allow this module. e.g.,-D" + kAllowed +
         "=" + module;
}

}  // namespace connectd::jvm
