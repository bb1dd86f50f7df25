#include "runtime/kafka/protocol/wire.h"

#include <cstring>

namespace connectd::kafka::protocol {
namespace {

template <typename T>
void AppendBigEndian(std::string& out, T v) {
  auto u = static_cast<std::make_unsigned_t<T>>(v);
  for (int shift = (sizeof(T) - 1) * 8; shift >= 0; shift -= 8) {
    out += static_cast<char>((u >> shift) & 0xff);
  }
}

template <typename T>
T ReadBigEndian(const char* p) {
  std::make_unsigned_t<T> u = 0;
  for (size_t i = 0; i < sizeof(T); ++i) u = (u << 8) | static_cast<unsigned char>(p[i]);
  return static_cast<T>(u);
}

}  // namespace

WireWriter& WireWriter::Int8(int8_t v) {
  out_ += static_cast<char>(v);
  return *this;
}
WireWriter& WireWriter::Int16(int16_t v) {
  AppendBigEndian(out_, v);
  return *this;
}
WireWriter& WireWriter::Int32(int32_t v) {
  AppendBigEndian(out_, v);
  return *this;
}
WireWriter& WireWriter::Int64(int64_t v) {
  AppendBigEndian(out_, v);
  return *this;
}

WireWriter& WireWriter::UnsignedVarint(uint32_t v) {
  while (v >= 0x80) {
    out_ += static_cast<char>((v & 0x7f) | 0x80);
    v >>= 7;
  }
  out_ += static_cast<char>(v);
  return *this;
}

WireWriter& WireWriter::String(std::string_view s) {
  Int16(static_cast<int16_t>(s.size()));
  out_.append(s);
  return *this;
}

WireWriter& WireWriter::NullableString(const std::optional<std::string>& s) {
  if (!s) return Int16(-1);
  return String(*s);
}

WireWriter& WireWriter::Bytes(std::string_view b) {
  Int32(static_cast<int32_t>(b.size()));
  out_.append(b);
  return *this;
}

WireWriter& WireWriter::NullableBytes(const std::optional<std::string>& b) {
  if (!b) return Int32(-1);
  return Bytes(*b);
}

WireWriter& WireWriter::CompactString(std::string_view s) {
  UnsignedVarint(static_cast<uint32_t>(s.size()) + 1);
  out_.append(s);
  return *this;
}

WireWriter& WireWriter::CompactNullableString(const std::optional<std::string>& s) {
  if (!s) return UnsignedVarint(0);
  return CompactString(*s);
}

WireWriter& WireWriter::CompactBytes(std::string_view b) { return CompactString(b); }

const char* WireReader::Take(size_t n, const char* what) {
  if (!ok()) return nullptr;
  if (in_.size() < n) {
    Fail(std::string("truncated ") + what);
    return nullptr;
  }
  const char* p = in_.data();
  in_.remove_prefix(n);
  return p;
}

std::string WireReader::TakeString(size_t n, const char* what) {
  const char* p = Take(n, what);
  return p == nullptr || n == 0 ? std::string() : std::string(p, n);
}

bool WireReader::CheckLength(int64_t n, const char* what) {
  if (!ok()) return false;
  if (n < 0 || static_cast<uint64_t>(n) > in_.size()) {
    Fail(std::string("bad length ") + std::to_string(n) + " of " + what);
    return false;
  }
  return true;
}

void WireReader::Fail(std::string what) {
  if (error_.empty()) error_ = std::move(what);
  in_ = {};
}

absl::Status WireReader::status() const {
  return ok() ? absl::OkStatus() : absl::DataLossError("malformed Kafka message: " + error_);
}

int8_t WireReader::Int8() {
  const char* p = Take(1, "int8");
  return p ? static_cast<int8_t>(*p) : 0;
}
int16_t WireReader::Int16() {
  const char* p = Take(2, "int16");
  return p ? ReadBigEndian<int16_t>(p) : 0;
}
int32_t WireReader::Int32() {
  const char* p = Take(4, "int32");
  return p ? ReadBigEndian<int32_t>(p) : 0;
}
int64_t WireReader::Int64() {
  const char* p = Take(8, "int64");
  return p ? ReadBigEndian<int64_t>(p) : 0;
}

uint32_t WireReader::UnsignedVarint() {
  uint32_t value = 0;
  for (int i = 0; i < 5; ++i) {
    const char* p = Take(1, "varint");
    if (p == nullptr) return 0;
    auto byte = static_cast<unsigned char>(*p);
    if (i == 4 && byte > 0x0f) break;
    value |= static_cast<uint32_t>(byte & 0x7f) << (7 * i);
    if ((byte & 0x80) == 0) return value;
  }
  Fail("varint longer than 32 bits");
  return 0;
}

std::string WireReader::String() {
  int16_t n = Int16();
  if (!CheckLength(n, "string")) return {};
  return TakeString(static_cast<size_t>(n), "string");
}

std::optional<std::string> WireReader::NullableString() {
  int16_t n = Int16();
  if (n == -1) return std::nullopt;
  if (!CheckLength(n, "string")) return std::nullopt;
  return TakeString(static_cast<size_t>(n), "string");
}

std::string WireReader::Bytes() {
  int32_t n = Int32();
  if (!CheckLength(n, "bytes")) return {};
  return TakeString(static_cast<size_t>(n), "bytes");
}

std::optional<std::string> WireReader::NullableBytes() {
  int32_t n = Int32();
  if (n == -1) return std::nullopt;
  if (!CheckLength(n, "bytes")) return std::nullopt;
  return TakeString(static_cast<size_t>(n), "bytes");
}

int32_t WireReader::ArrayLength() {
  int32_t n = Int32();
  if (n == -1) return 0;
  // Every element takes at least one byte.
  return CheckLength(n, "array") ? n : 0;
}

std::optional<std::string> WireReader::CompactNullableString() {
  uint32_t n = UnsignedVarint();
  if (!ok() || n == 0) return std::nullopt;
  if (!CheckLength(static_cast<int64_t>(n) - 1, "compact string")) return std::nullopt;
  return TakeString(n - 1, "compact string");
}

std::string WireReader::CompactString() {
  if (!ok()) return {};
  std::optional<std::string> s = CompactNullableString();
  if (!s && ok()) Fail("null compact string");
  return s.value_or("");
}

std::optional<std::string> WireReader::CompactNullableBytes() { return CompactNullableString(); }

std::optional<std::string_view> WireReader::CompactNullableBytesView() {
  uint32_t n = UnsignedVarint();
  if (!ok() || n == 0) return std::nullopt;
  if (!CheckLength(static_cast<int64_t>(n) - 1, "compact bytes")) return std::nullopt;
  if (n == 1) return std::string_view();
  const char* p = Take(n - 1, "compact bytes");
  if (p == nullptr) return std::nullopt;
  return std::string_view(p, n - 1);
}

std::string WireReader::CompactBytes() {
  if (!ok()) return {};
  std::optional<std::string> b = CompactNullableString();
  if (!b && ok()) Fail("null compact bytes");
  return b.value_or("");
}

int32_t WireReader::CompactArrayLength() {
  uint32_t n = UnsignedVarint();
  if (!ok() || n == 0) return 0;
  return CheckLength(static_cast<int64_t>(n) - 1, "compact array") ? static_cast<int32_t>(n - 1) : 0;
}

void WireReader::SkipTaggedFields() {
  uint32_t count = UnsignedVarint();
  for (uint32_t i = 0; i < count && ok(); ++i) {
    UnsignedVarint();  // tag
    uint32_t size = UnsignedVarint();
    if (CheckLength(size, "tagged field")) Take(size, "tagged field");
  }
}

}  // namespace connectd::kafka::protocol
