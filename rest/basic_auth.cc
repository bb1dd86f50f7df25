#include "rest/basic_auth.h"

#include <openssl/crypto.h>

#include <cctype>
#include <fstream>
#include <sstream>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "jvm/java_base64.h"
#include "jvm/java_system_properties.h"
#include "rest/router.h"
#include "runtime/common/logging.h"
#include "runtime/config/properties.h"

namespace connectd::rest {
namespace {

constexpr char kLogger[] = "connectd.rest.BasicAuth";
constexpr char kLoginEntry[] = "KafkaConnect";

// The tokens of a JAAS file: words, quoted strings and the punctuation { } ; =.
class JaasLexer {
 public:
  explicit JaasLexer(std::string_view text) : text_(text) {}

  struct Token {
    enum Kind { kEnd, kWord, kQuoted, kPunct } kind;
    std::string text;
  };

  absl::StatusOr<Token> Next() {
    SkipSpaceAndComments();
    if (pos_ >= text_.size()) return Token{Token::kEnd, ""};
    char c = text_[pos_];
    if (c == '{' || c == '}' || c == ';' || c == '=') {
      ++pos_;
      return Token{Token::kPunct, std::string(1, c)};
    }
    if (c == '"' || c == '\'') {
      size_t end = text_.find(c, pos_ + 1);
      if (end == std::string_view::npos) {
        return absl::InvalidArgumentError("unterminated quoted string");
      }
      Token token{Token::kQuoted, std::string(text_.substr(pos_ + 1, end - pos_ - 1))};
      pos_ = end + 1;
      return token;
    }
    size_t start = pos_;
    while (pos_ < text_.size() && !std::isspace(static_cast<unsigned char>(text_[pos_])) &&
           std::string_view("{};=\"'").find(text_[pos_]) == std::string_view::npos) {
      ++pos_;
    }
    return Token{Token::kWord, std::string(text_.substr(start, pos_ - start))};
  }

 private:
  void SkipSpaceAndComments() {
    while (pos_ < text_.size()) {
      if (std::isspace(static_cast<unsigned char>(text_[pos_]))) {
        ++pos_;
      } else if (text_.substr(pos_, 2) == "//" || text_[pos_] == '#') {
        size_t end = text_.find('\n', pos_);
        pos_ = end == std::string_view::npos ? text_.size() : end + 1;
      } else if (text_.substr(pos_, 2) == "/*") {
        size_t end = text_.find("*/", pos_ + 2);
        pos_ = end == std::string_view::npos ? text_.size() : end + 2;
      } else {
        return;
      }
    }
  }

  std::string_view text_;
  size_t pos_ = 0;
};

absl::Status Expect(const JaasLexer::Token& token, std::string_view punct) {
  if (token.kind == JaasLexer::Token::kPunct && token.text == punct) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("expected '", std::string(punct), "' but found '",
                                                 token.text.empty() ? "end of file" : token.text,
                                                 "'"));
}

bool IsControlFlag(std::string flag) {
  absl::AsciiStrToLower(&flag);
  return flag == "required" || flag == "requisite" || flag == "sufficient" || flag == "optional";
}

bool ConstantTimeEquals(const std::string& a, const std::string& b) {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace

absl::StatusOr<std::map<std::string, std::vector<JaasLoginModule>>> ParseJaasConfig(
    std::string_view text) {
  using Token = JaasLexer::Token;
  std::map<std::string, std::vector<JaasLoginModule>> entries;
  JaasLexer lexer(text);
  while (true) {
    absl::StatusOr<Token> name = lexer.Next();
    if (!name.ok()) return name.status();
    if (name->kind == Token::kEnd) break;
    if (name->kind != Token::kWord) {
      return absl::InvalidArgumentError(
          absl::StrCat("expected an entry name, found '", name->text, "'"));
    }
    absl::StatusOr<Token> open = lexer.Next();
    if (!open.ok()) return open.status();
    if (absl::Status s = Expect(*open, "{"); !s.ok()) return s;
    std::vector<JaasLoginModule>& modules = entries[name->text];
    while (true) {
      absl::StatusOr<Token> token = lexer.Next();
      if (!token.ok()) return token.status();
      if (token->kind == Token::kPunct && token->text == "}") break;
      if (token->kind != Token::kWord) {
        return absl::InvalidArgumentError(
            absl::StrCat("entry ", name->text, ": expected a login module class, found '",
                         token->text.empty() ? "end of file" : token->text, "'"));
      }
      JaasLoginModule module;
      module.class_name = token->text;
      absl::StatusOr<Token> flag = lexer.Next();
      if (!flag.ok()) return flag.status();
      if (flag->kind != Token::kWord || !IsControlFlag(flag->text)) {
        return absl::InvalidArgumentError(
            absl::StrCat("entry ", name->text, ": login module ", module.class_name,
                         " needs a control flag (required, requisite, sufficient or optional)"));
      }
      module.flag = absl::AsciiStrToLower(flag->text);
      while (true) {
        absl::StatusOr<Token> option = lexer.Next();
        if (!option.ok()) return option.status();
        if (option->kind == Token::kPunct && option->text == ";") break;
        if (option->kind != Token::kWord) {
          return absl::InvalidArgumentError(
              absl::StrCat("entry ", name->text, ": expected an option or ';', found '",
                           option->text.empty() ? "end of file" : option->text, "'"));
        }
        absl::StatusOr<Token> equals = lexer.Next();
        if (!equals.ok()) return equals.status();
        if (absl::Status s = Expect(*equals, "="); !s.ok()) return s;
        absl::StatusOr<Token> value = lexer.Next();
        if (!value.ok()) return value.status();
        if (value->kind != Token::kWord && value->kind != Token::kQuoted) {
          return absl::InvalidArgumentError(
              absl::StrCat("entry ", name->text, ": option ", option->text, " has no value"));
        }
        module.options[option->text] = value->text;
      }
      modules.push_back(std::move(module));
    }
    absl::StatusOr<Token> semicolon = lexer.Next();
    if (!semicolon.ok()) return semicolon.status();
    if (absl::Status s = Expect(*semicolon, ";"); !s.ok()) return s;
  }
  return entries;
}

std::optional<std::string> JaasConfigPathFromKafkaOpts(std::string_view kafka_opts) {
  std::optional<std::string> path =
      jvm::JavaSystemPropertyIn(kafka_opts, "java.security.auth.login.config");
  if (path && !path->empty() && path->front() == '=') path->erase(0, 1);  // "==PATH": Java's
  return path;                                                            // policy replaced
}

bool BasicAuth::IsInternalRequest(std::string_view method, std::string_view path) {
  if (method != "POST" && method != "PUT") return false;
  // Java matches /?connectors/[^/]+/(tasks|fence)/? against the decoded path.
  std::vector<std::string> segments;
  for (absl::string_view raw : absl::StrSplit(absl::string_view(path.data(), path.size()), '/')) {
    absl::StatusOr<std::string> decoded =
        DecodePathSegment(std::string_view(raw.data(), raw.size()));
    if (!decoded.ok()) return false;
    for (absl::string_view part : absl::StrSplit(*decoded, '/')) segments.emplace_back(part);
  }
  if (!segments.empty() && segments.front().empty()) segments.erase(segments.begin());
  if (!segments.empty() && segments.back().empty()) segments.pop_back();
  if (segments.size() != 3 || segments[0] != "connectors" || segments[1].empty()) return false;
  return (method == "POST" && segments[2] == "tasks") ||
         (method == "PUT" && segments[2] == "fence");
}

BasicAuth::Result BasicAuth::Check(std::string_view method, std::string_view path,
                                   const std::optional<std::string>& authorization) const {
  if (IsInternalRequest(method, path)) return {Outcome::kAllowed, ""};
  std::optional<std::string> username;
  std::string password;
  if (authorization) {
    size_t space = authorization->find(' ');
    if (space != std::string::npos && space > 0 &&
        absl::EqualsIgnoreCase(authorization->substr(0, space), "basic")) {
      std::string error;
      std::optional<std::string> decoded =
          jvm::JavaBase64Decode(std::string_view(*authorization).substr(space + 1), &error);
      if (!decoded) return {Outcome::kMalformed, error};
      size_t colon = decoded->find(':');
      if (colon != std::string::npos && colon > 0) {
        username = decoded->substr(0, colon);
        password = decoded->substr(colon + 1);
      }
    }
  }
  if (credentials_.empty()) return {Outcome::kAllowed, ""};
  if (!username) return {Outcome::kUnauthorized, ""};
  auto it = credentials_.find(*username);
  if (it != credentials_.end() && ConstantTimeEquals(it->second, password)) {
    return {Outcome::kAllowed, ""};
  }
  return {Outcome::kUnauthorized, ""};
}

absl::StatusOr<std::shared_ptr<const BasicAuth>> LoadBasicAuth(
    const std::vector<std::string>& extension_classes,
    const std::optional<std::string>& jaas_config_path) {
  bool basic_auth = false;
  for (const std::string& name : extension_classes) {
    if (name == kBasicAuthExtensionClass) {
      basic_auth = true;
      continue;
    }
    return absl::UnimplementedError(absl::StrCat(
        "rest.extension.classes: ", name,
        " is not supported by connectd: REST extensions are Java classes; connectd implements ",
        kBasicAuthExtensionClass, " natively and no other"));
  }
  if (!basic_auth) return std::shared_ptr<const BasicAuth>();

  if (!jaas_config_path || jaas_config_path->empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        kBasicAuthExtensionClass,
        " needs a JAAS configuration: set KAFKA_OPTS=-Djava.security.auth.login.config=PATH as "
        "for a Java worker"));
  }
  std::ifstream jaas_file(*jaas_config_path);
  if (!jaas_file) {
    return absl::InvalidArgumentError(
        absl::StrCat("Cannot read the JAAS configuration ", *jaas_config_path));
  }
  std::stringstream jaas_text;
  jaas_text << jaas_file.rdbuf();
  absl::StatusOr<std::map<std::string, std::vector<JaasLoginModule>>> entries =
      ParseJaasConfig(jaas_text.str());
  if (!entries.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("JAAS configuration ", *jaas_config_path, ": ", entries.status().message()));
  }
  auto entry = entries->find(kLoginEntry);
  if (entry == entries->end() || entry->second.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("JAAS configuration ", *jaas_config_path, " has no ", kLoginEntry, " entry"));
  }
  if (entry->second.size() != 1 || entry->second[0].class_name != kPropertyFileLoginModuleClass) {
    return absl::InvalidArgumentError(
        absl::StrCat("JAAS configuration ", *jaas_config_path,
                     ": connectd supports exactly one login module in ", kLoginEntry, ", ",
                     kPropertyFileLoginModuleClass));
  }
  const JaasLoginModule& module = entry->second[0];
  auto file = module.options.find("file");
  if (file == module.options.end() || absl::StripAsciiWhitespace(file->second).empty()) {
    return absl::InvalidArgumentError("Property Credentials file must be specified");
  }
  absl::StatusOr<config::Properties> credentials = config::LoadPropertiesFile(file->second);
  if (!credentials.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("Error loading Property Credentials file ",
                                                   file->second, ": ",
                                                   credentials.status().message()));
  }
  std::map<std::string, std::string> users = *std::move(credentials);
  if (users.empty()) {
    CONNECTD_LOG(kWarn, kLogger) << "Credential properties file '" << file->second
                                 << "' is empty; all requests will be permitted";
  }
  return std::shared_ptr<const BasicAuth>(std::make_shared<BasicAuth>(std::move(users)));
}

}  // namespace connectd::rest
