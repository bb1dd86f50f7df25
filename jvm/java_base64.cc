#include "jvm/java_base64.h"

#include <cstdint>

namespace connectd::jvm {
namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr int kPad = -2;

// The 6-bit value of a Base64 character; kPad for '=', -1 for anything else.
int Value(unsigned char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  if (c == '=') return kPad;
  return -1;
}

// Integer.toString(b, 16) of a Java (signed) byte: "2d", "-3d".
std::string JavaByteHex(unsigned char c) {
  const int value = static_cast<signed char>(c);
  const char* digits = "0123456789abcdef";
  std::string out;
  int magnitude = value < 0 ? -value : value;
  do {
    out.insert(out.begin(), digits[magnitude % 16]);
    magnitude /= 16;
  } while (magnitude > 0);
  if (value < 0) out.insert(out.begin(), '-');
  return out;
}

std::optional<std::string> Fail(std::string* error, std::string message) {
  *error = std::move(message);
  return std::nullopt;
}

}  // namespace

std::string JavaBase64Encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  auto at = [&](size_t k) { return static_cast<uint32_t>(static_cast<unsigned char>(bytes[k])); };
  for (; i + 3 <= bytes.size(); i += 3) {
    const uint32_t v = (at(i) << 16) | (at(i + 1) << 8) | at(i + 2);
    for (int shift : {18, 12, 6, 0}) out.push_back(kAlphabet[(v >> shift) & 0x3F]);
  }
  if (const size_t rest = bytes.size() - i; rest > 0) {
    uint32_t v = at(i) << 16;
    if (rest == 2) v |= at(i + 1) << 8;
    out.push_back(kAlphabet[(v >> 18) & 0x3F]);
    out.push_back(kAlphabet[(v >> 12) & 0x3F]);
    out.push_back(rest == 2 ? kAlphabet[(v >> 6) & 0x3F] : '=');
    out.push_back('=');
  }
  return out;
}

// The state machine of java.util.Base64.Decoder (RFC 4648, not MIME), with its messages.
std::optional<std::string> JavaBase64Decode(std::string_view text, std::string* error) {
  if (text.empty()) return std::string();
  if (text.size() < 2) {
    return Fail(error, "Input byte[] should at least have 2 bytes for base64 bytes");
  }
  std::string out;
  out.reserve(text.size() / 4 * 3 + 3);
  uint32_t bits = 0;
  int shift = 18;  // position of the next 6 bits in a 4-character unit
  size_t pos = 0;
  while (pos < text.size()) {
    const unsigned char c = static_cast<unsigned char>(text[pos++]);
    const int value = Value(c);
    if (value == kPad) {
      // '=' is allowed after 2 characters of a unit (as "==") or after 3 (as "=").
      if (shift == 18 || (shift == 6 && (pos == text.size() || text[pos++] != '='))) {
        return Fail(error, "Input byte array has wrong 4-byte ending unit");
      }
      break;
    }
    if (value < 0) return Fail(error, "Illegal base64 character " + JavaByteHex(c));
    bits |= static_cast<uint32_t>(value) << shift;
    shift -= 6;
    if (shift < 0) {
      out.push_back(static_cast<char>((bits >> 16) & 0xFF));
      out.push_back(static_cast<char>((bits >> 8) & 0xFF));
      out.push_back(static_cast<char>(bits & 0xFF));
      shift = 18;
      bits = 0;
    }
  }
  if (shift == 6) {
    out.push_back(static_cast<char>((bits >> 16) & 0xFF));
  } else if (shift == 0) {
    out.push_back(static_cast<char>((bits >> 16) & 0xFF));
    out.push_back(static_cast<char>((bits >> 8) & 0xFF));
  } else if (shift == 12) {
    return Fail(error, "Last unit does not have enough valid bits");
  }
  if (pos < text.size()) {
    return Fail(error, "Input byte array has incorrect ending byte at " + std::to_string(pos));
  }
  return out;
}

std::optional<std::string> JacksonBase64Decode(std::string_view text) {
  while (!text.empty() && static_cast<unsigned char>(text.front()) <= ' ') text.remove_prefix(1);
  while (!text.empty() && static_cast<unsigned char>(text.back()) <= ' ') text.remove_suffix(1);
  std::string out;
  size_t pos = 0;
  while (true) {
    unsigned char c;
    do {
      if (pos >= text.size()) return out;
      c = static_cast<unsigned char>(text[pos++]);
    } while (c <= ' ');
    int bits = Value(c);
    if (bits < 0) return std::nullopt;
    uint32_t data = static_cast<uint32_t>(bits);
    if (pos >= text.size()) return std::nullopt;
    bits = Value(static_cast<unsigned char>(text[pos++]));
    if (bits < 0) return std::nullopt;
    data = (data << 6) | static_cast<uint32_t>(bits);
    if (pos >= text.size()) return std::nullopt;
    bits = Value(static_cast<unsigned char>(text[pos++]));
    if (bits < 0) {
      if (bits != kPad || pos >= text.size() || text[pos++] != '=') return std::nullopt;
      out.push_back(static_cast<char>(data >> 4));
      continue;
    }
    data = (data << 6) | static_cast<uint32_t>(bits);
    if (pos >= text.size()) return std::nullopt;
    bits = Value(static_cast<unsigned char>(text[pos++]));
    if (bits < 0) {
      if (bits != kPad) return std::nullopt;
      data >>= 2;
      out.push_back(static_cast<char>(data >> 8));
      out.push_back(static_cast<char>(data & 0xFF));
      continue;
    }
    data = (data << 6) | static_cast<uint32_t>(bits);
    out.push_back(static_cast<char>(data >> 16));
    out.push_back(static_cast<char>((data >> 8) & 0xFF));
    out.push_back(static_cast<char>(data & 0xFF));
  }
}

}  // namespace connectd::jvm
