// File: java_base64.h
//
// Base64 as Java's libraries write and read it, with their errors: java.util.Base64's basic
// encoder and decoder (Connect's session keys on the config topic, KIP-507 request signatures,
// Basic authentication headers) and Jackson's default variant (JsonConverter's BYTES).
//
// Thread safety: all functions are pure.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace connectd::jvm {

// java.util.Base64.getEncoder().encodeToString: standard alphabet, padded.
std::string JavaBase64Encode(std::string_view bytes);

// java.util.Base64.getDecoder().decode: standard alphabet, '=' padding optional but only where
// it may stand, nothing after it, no whitespace. nullopt with *error set to the message of Java's
// IllegalArgumentException ("Illegal base64 character 2d", "Input byte array has wrong 4-byte
// ending unit", ...) otherwise.
std::optional<std::string> JavaBase64Decode(std::string_view text, std::string* error);

// Jackson's TextNode.binaryValue() with its default variant (MIME_NO_LINEFEEDS): padding
// required, whitespace allowed before each quantum, after String.trim(). nullopt if invalid.
std::optional<std::string> JacksonBase64Decode(std::string_view text);

}  // namespace connectd::jvm
