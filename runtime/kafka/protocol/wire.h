// File: wire.h
//
// The Kafka protocol's primitive types (big-endian integers, varints, strings, bytes, arrays,
// and the compact/flexible forms with tagged fields of KIP-482), for the messages connectd
// speaks itself: the `connect` group membership that librdkafka cannot host.
//
//   WireWriter w;
//   w.Int16(11).Int16(version).Int32(correlation_id).NullableString(client_id);
//   WireReader r(bytes);
//   int16_t error = r.Int16();
//   if (!r.ok()) return r.status();
//
// WireReader never throws and never reads past its input: the first malformed or truncated
// field puts it in a failed state, after which every read returns a zero value; check ok() or
// status() once at the end.
//
// Thread-safety: none; each object belongs to one thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"

namespace connectd::kafka::protocol {

class WireWriter {
 public:
  WireWriter& Int8(int8_t v);
  WireWriter& Int16(int16_t v);
  WireWriter& Int32(int32_t v);
  WireWriter& Int64(int64_t v);
  WireWriter& Bool(bool v) { return Int8(v ? 1 : 0); }
  WireWriter& UnsignedVarint(uint32_t v);
  // `bytes` as they are (no length).
  WireWriter& Raw(std::string_view bytes) {
    out_.append(bytes);
    return *this;
  }

  // Classic forms: INT16 length (-1 null) strings, INT32 length (-1 null) bytes.
  WireWriter& String(std::string_view s);
  WireWriter& NullableString(const std::optional<std::string>& s);
  WireWriter& Bytes(std::string_view b);
  WireWriter& NullableBytes(const std::optional<std::string>& b);
  WireWriter& ArrayLength(int32_t n) { return Int32(n); }

  // Compact forms (flexible versions): unsigned varint length + 1, 0 = null.
  WireWriter& CompactString(std::string_view s);
  WireWriter& CompactNullableString(const std::optional<std::string>& s);
  WireWriter& CompactBytes(std::string_view b);
  WireWriter& CompactArrayLength(int32_t n) { return UnsignedVarint(static_cast<uint32_t>(n) + 1); }
  // An empty tagged-field section (connectd writes no tagged fields).
  WireWriter& EmptyTaggedFields() { return UnsignedVarint(0); }

  // A string field written compact when `flexible`, classic otherwise.
  WireWriter& Str(bool flexible, std::string_view s) {
    return flexible ? CompactString(s) : String(s);
  }
  WireWriter& NullableStr(bool flexible, const std::optional<std::string>& s) {
    return flexible ? CompactNullableString(s) : NullableString(s);
  }
  WireWriter& Blob(bool flexible, std::string_view b) {
    return flexible ? CompactBytes(b) : Bytes(b);
  }
  WireWriter& ArrayLen(bool flexible, int32_t n) {
    return flexible ? CompactArrayLength(n) : ArrayLength(n);
  }
  WireWriter& TaggedFields(bool flexible) { return flexible ? EmptyTaggedFields() : *this; }

  const std::string& data() const { return out_; }
  std::string Take() { return std::move(out_); }

 private:
  std::string out_;
};

class WireReader {
 public:
  explicit WireReader(std::string_view in) : in_(in) {}

  int8_t Int8();
  int16_t Int16();
  int32_t Int32();
  int64_t Int64();
  bool Bool() { return Int8() != 0; }
  uint32_t UnsignedVarint();

  std::string String();
  std::optional<std::string> NullableString();
  std::string Bytes();
  std::optional<std::string> NullableBytes();
  // A classic array's count; -1 (null) reads as 0 unless `nullable`.
  int32_t ArrayLength();

  std::string CompactString();
  std::optional<std::string> CompactNullableString();
  std::string CompactBytes();
  std::optional<std::string> CompactNullableBytes();
  // The same without a copy: a view into the input (record data of a Fetch response).
  std::optional<std::string_view> CompactNullableBytesView();
  int32_t CompactArrayLength();
  // Skips a tagged-field section (unknown tags are ignored, as Kafka's readers do).
  void SkipTaggedFields();

  std::string Str(bool flexible) { return flexible ? CompactString() : String(); }
  std::optional<std::string> NullableStr(bool flexible) {
    return flexible ? CompactNullableString() : NullableString();
  }
  std::string Blob(bool flexible) { return flexible ? CompactBytes() : Bytes(); }
  int32_t ArrayLen(bool flexible) { return flexible ? CompactArrayLength() : ArrayLength(); }
  void TaggedFields(bool flexible) {
    if (flexible) SkipTaggedFields();
  }

  bool ok() const { return error_.empty(); }
  size_t remaining() const { return in_.size(); }
  // OK, or DataLoss naming the first malformed field.
  absl::Status status() const;
  // Marks the input malformed (e.g. a semantic check by the caller).
  void Fail(std::string what);

 private:
  // The next n bytes, or nullptr (and failed) if there are fewer.
  const char* Take(size_t n, const char* what);
  std::string TakeString(size_t n, const char* what);
  // A length that must fit what is left.
  bool CheckLength(int64_t n, const char* what);

  std::string_view in_;
  std::string error_;
};

}  // namespace connectd::kafka::protocol
