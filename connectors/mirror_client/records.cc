#include "connectors/mirror_client/records.h"

#include "jvm/java_text.h"
#include "jvm/utf8.h"

namespace connectd::mirror {
namespace {

// ---- Kafka protocol types -------------------------------------------------------------------

void PutInt16(int16_t v, std::string& out) {
  const uint16_t u = static_cast<uint16_t>(v);
  out.push_back(static_cast<char>(u >> 8));
  out.push_back(static_cast<char>(u & 0xFF));
}

void PutInt32(int32_t v, std::string& out) {
  const uint32_t u = static_cast<uint32_t>(v);
  for (int shift = 24; shift >= 0; shift -= 8)
    out.push_back(static_cast<char>((u >> shift) & 0xFF));
}

void PutInt64(int64_t v, std::string& out) {
  const uint64_t u = static_cast<uint64_t>(v);
  for (int shift = 56; shift >= 0; shift -= 8)
    out.push_back(static_cast<char>((u >> shift) & 0xFF));
}

// Returns false (Java: SchemaException) if `s` is too long for a STRING.
bool PutString(const std::string& s, std::string& out) {
  if (s.size() > kMaxRecordStringBytes) return false;
  PutInt16(static_cast<int16_t>(s.size()), out);
  out.append(s);
  return true;
}

// A bounds-checked big-endian reader over untrusted bytes. Every Read* returns false, leaving
// the output untouched, when the input is too short (Java: BufferUnderflowException or a
// SchemaException for a bad STRING length).
class Reader {
 public:
  explicit Reader(std::string_view bytes) : bytes_(bytes) {}

  bool ReadInt16(int16_t& v) {
    uint64_t u;
    if (!ReadBigEndian(2, u)) return false;
    v = static_cast<int16_t>(static_cast<uint16_t>(u));
    return true;
  }
  bool ReadInt32(int32_t& v) {
    uint64_t u;
    if (!ReadBigEndian(4, u)) return false;
    v = static_cast<int32_t>(static_cast<uint32_t>(u));
    return true;
  }
  bool ReadInt64(int64_t& v) {
    uint64_t u;
    if (!ReadBigEndian(8, u)) return false;
    v = static_cast<int64_t>(u);
    return true;
  }
  bool AtEnd() const { return pos_ == bytes_.size(); }
  bool ReadString(std::string& s) {
    int16_t length;
    if (!ReadInt16(length)) return false;
    if (length < 0) return false;  // "String length -1 cannot be negative"
    if (static_cast<size_t>(length) > bytes_.size() - pos_) return false;
    s.assign(bytes_.substr(pos_, static_cast<size_t>(length)));
    pos_ += static_cast<size_t>(length);
    return true;
  }

 private:
  bool ReadBigEndian(size_t n, uint64_t& v) {
    if (n > bytes_.size() - pos_) return false;
    v = 0;
    for (size_t i = 0; i < n; ++i) v = (v << 8) | static_cast<unsigned char>(bytes_[pos_ + i]);
    pos_ += n;
    return true;
  }

  std::string_view bytes_;
  size_t pos_ = 0;
};

constexpr int16_t kVersion = 0;

// ---- JSON -----------------------------------------------------------------------------------

// A minimal JSON reader with Jackson's leniencies that matter for stored offsets (see
// ParseSourceOffset). Recursion is bounded by kMaxDepth.
class JsonReader {
 public:
  explicit JsonReader(std::string_view text) : s_(text) {}

  // `topic_id` (may be null) receives the last string "topic_id" member, if any.
  std::optional<int64_t> ParseOffsetObject(std::string* topic_id) {
    if (s_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;
    SkipWhitespace();
    if (!Consume('{')) return std::nullopt;
    std::optional<int64_t> offset;
    SkipWhitespace();
    if (Consume('}')) return std::nullopt;
    for (;;) {
      SkipWhitespace();
      std::string key;
      if (!ReadString(&key)) return std::nullopt;
      SkipWhitespace();
      if (!Consume(':')) return std::nullopt;
      SkipWhitespace();
      if (key == "offset") {
        // The last "offset" wins; a value that is not an integer leaves no usable offset.
        offset.reset();
        if (Peek() == '-' || IsDigit(Peek())) {
          bool integral = false;
          uint64_t magnitude = 0;
          bool negative = false;
          if (!ReadNumber(&integral, &magnitude, &negative)) return std::nullopt;
          if (integral) {
            // BigInteger.longValue(): the low 64 bits, two's complement.
            offset = static_cast<int64_t>(negative ? ~magnitude + 1 : magnitude);
          }
        } else if (!SkipValue(0)) {
          return std::nullopt;
        }
      } else if (key == "topic_id" && topic_id != nullptr && Peek() == '"') {
        if (!ReadString(topic_id)) return std::nullopt;
      } else if (!SkipValue(0)) {
        return std::nullopt;
      }
      SkipWhitespace();
      if (Consume('}')) return offset;  // anything after the object is ignored, as Jackson does
      if (!Consume(',')) return std::nullopt;
    }
  }

 private:
  static constexpr int kMaxDepth = 512;

  static bool IsDigit(int c) { return c >= '0' && c <= '9'; }

  int Peek() const { return pos_ < s_.size() ? static_cast<unsigned char>(s_[pos_]) : -1; }

  bool Consume(char c) {
    if (Peek() != static_cast<unsigned char>(c)) return false;
    ++pos_;
    return true;
  }

  void SkipWhitespace() {
    while (Peek() == ' ' || Peek() == '\t' || Peek() == '\n' || Peek() == '\r') ++pos_;
  }

  bool ReadHex4(uint32_t* unit) {
    if (s_.size() - pos_ < 4) return false;
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = s_[pos_++];
      v <<= 4;
      if (c >= '0' && c <= '9') {
        v |= static_cast<uint32_t>(c - '0');
      } else if (c >= 'a' && c <= 'f') {
        v |= static_cast<uint32_t>(c - 'a' + 10);
      } else if (c >= 'A' && c <= 'F') {
        v |= static_cast<uint32_t>(c - 'A' + 10);
      } else {
        return false;
      }
    }
    *unit = v;
    return true;
  }

  // Reads a string; `out` (may be null) receives its UTF-8 value.
  bool ReadString(std::string* out) {
    if (!Consume('"')) return false;
    for (;;) {
      const int c = Peek();
      if (c < 0 || c < 0x20) return false;  // unterminated, or an unescaped control char
      ++pos_;
      if (c == '"') return true;
      if (c != '\\') {
        if (out != nullptr) out->push_back(static_cast<char>(c));
        continue;
      }
      const int e = Peek();
      ++pos_;
      char simple = 0;
      switch (e) {
        case '"':
        case '\\':
        case '/':
          simple = static_cast<char>(e);
          break;
        case 'b':
          simple = '\b';
          break;
        case 'f':
          simple = '\f';
          break;
        case 'n':
          simple = '\n';
          break;
        case 'r':
          simple = '\r';
          break;
        case 't':
          simple = '\t';
          break;
        case 'u': {
          uint32_t unit;
          if (!ReadHex4(&unit)) return false;
          char32_t cp = unit;
          if (unit >= 0xD800 && unit <= 0xDBFF && s_.substr(pos_, 2) == "\\u") {
            const size_t save = pos_;
            pos_ += 2;
            uint32_t low;
            if (ReadHex4(&low) && low >= 0xDC00 && low <= 0xDFFF) {
              cp = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
            } else {
              pos_ = save;
            }
          }
          if (cp >= 0xD800 && cp <= 0xDFFF) cp = 0xFFFD;  // a lone surrogate
          if (out != nullptr) jvm::AppendUtf8(cp, *out);
          continue;
        }
        default:
          return false;
      }
      if (out != nullptr) out->push_back(simple);
    }
  }

  // Reads a JSON number (with leading zeros allowed). `integral` is false when it has a fraction
  // or exponent; otherwise `magnitude` is its absolute value modulo 2^64.
  bool ReadNumber(bool* integral, uint64_t* magnitude, bool* negative) {
    *negative = Consume('-');
    if (!IsDigit(Peek())) return false;
    uint64_t value = 0;
    while (IsDigit(Peek())) value = value * 10 + static_cast<uint64_t>(s_[pos_++] - '0');
    *integral = true;
    if (Consume('.')) {
      *integral = false;
      if (!IsDigit(Peek())) return false;
      while (IsDigit(Peek())) ++pos_;
    }
    if (Peek() == 'e' || Peek() == 'E') {
      *integral = false;
      ++pos_;
      if (Peek() == '+' || Peek() == '-') ++pos_;
      if (!IsDigit(Peek())) return false;
      while (IsDigit(Peek())) ++pos_;
    }
    *magnitude = value;
    return true;
  }

  bool ConsumeWord(std::string_view word) {
    if (s_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  bool SkipValue(int depth) {
    if (depth > kMaxDepth) return false;
    const int c = Peek();
    if (c == '"') return ReadString(nullptr);
    if (c == '-' || IsDigit(c)) {
      bool integral;
      uint64_t magnitude;
      bool negative;
      return ReadNumber(&integral, &magnitude, &negative);
    }
    if (c == 't') return ConsumeWord("true");
    if (c == 'f') return ConsumeWord("false");
    if (c == 'n') return ConsumeWord("null");
    if (c == '[' || c == '{') {
      const bool object = c == '{';
      ++pos_;
      SkipWhitespace();
      if (Consume(object ? '}' : ']')) return true;
      for (;;) {
        SkipWhitespace();
        if (object) {
          if (!ReadString(nullptr)) return false;
          SkipWhitespace();
          if (!Consume(':')) return false;
          SkipWhitespace();
        }
        if (!SkipValue(depth + 1)) return false;
        SkipWhitespace();
        if (Consume(object ? '}' : ']')) return true;
        if (!Consume(',')) return false;
      }
    }
    return false;
  }

  std::string_view s_;
  size_t pos_ = 0;
};

}  // namespace

// ---- Heartbeat ------------------------------------------------------------------------------

std::string EncodeHeartbeatKey(const Heartbeat& heartbeat) {
  std::string out;
  if (!PutString(heartbeat.source_cluster_alias, out) ||
      !PutString(heartbeat.target_cluster_alias, out)) {
    return "";
  }
  return out;
}

std::string EncodeHeartbeatValue(const Heartbeat& heartbeat) {
  std::string out;
  PutInt16(kVersion, out);
  PutInt64(heartbeat.timestamp_ms, out);
  return out;
}

std::optional<Heartbeat> DecodeHeartbeat(std::string_view key, std::string_view value) {
  Heartbeat heartbeat;
  Reader v(value);
  int16_t version;
  if (!v.ReadInt16(version) || !v.ReadInt64(heartbeat.timestamp_ms)) return std::nullopt;
  Reader k(key);
  if (!k.ReadString(heartbeat.source_cluster_alias) ||
      !k.ReadString(heartbeat.target_cluster_alias)) {
    return std::nullopt;
  }
  return heartbeat;
}

// ---- Checkpoint -----------------------------------------------------------------------------

std::string EncodeCheckpointKey(const Checkpoint& checkpoint) {
  std::string out;
  if (!PutString(checkpoint.group, out) || !PutString(checkpoint.topic, out)) return "";
  PutInt32(checkpoint.partition, out);
  return out;
}

std::string EncodeCheckpointValue(const Checkpoint& checkpoint) {
  std::string out;
  PutInt16(kVersion, out);
  PutInt64(checkpoint.upstream_offset, out);
  PutInt64(checkpoint.downstream_offset, out);
  if (!PutString(checkpoint.metadata, out)) return "";
  return out;
}

std::optional<Checkpoint> DecodeCheckpoint(std::string_view key, std::string_view value) {
  Checkpoint checkpoint;
  Reader v(value);
  int16_t version;
  if (!v.ReadInt16(version) || !v.ReadInt64(checkpoint.upstream_offset) ||
      !v.ReadInt64(checkpoint.downstream_offset) || !v.ReadString(checkpoint.metadata)) {
    return std::nullopt;
  }
  Reader k(key);
  if (!k.ReadString(checkpoint.group) || !k.ReadString(checkpoint.topic) ||
      !k.ReadInt32(checkpoint.partition)) {
    return std::nullopt;
  }
  return checkpoint;
}

// ---- OffsetSync -----------------------------------------------------------------------------

std::string EncodeOffsetSyncKey(const OffsetSync& sync) {
  std::string out;
  if (!PutString(sync.topic, out)) return "";
  PutInt32(sync.partition, out);
  return out;
}

std::string EncodeOffsetSyncValue(const OffsetSync& sync) {
  std::string out;
  PutInt64(sync.upstream_offset, out);
  PutInt64(sync.downstream_offset, out);
  return out;
}

std::optional<OffsetSync> DecodeOffsetSync(std::string_view key, std::string_view value) {
  OffsetSync sync;
  Reader k(key);
  if (!k.ReadString(sync.topic) || !k.ReadInt32(sync.partition)) return std::nullopt;
  Reader v(value);
  if (!v.ReadInt64(sync.upstream_offset) || !v.ReadInt64(sync.downstream_offset)) {
    return std::nullopt;
  }
  return sync;
}

// ---- OffsetRunRecord ------------------------------------------------------------------------

std::string EncodeOffsetRunKey(const OffsetRunRecord& run) {
  std::string out;
  if (!PutString(run.topic, out)) return "";
  PutInt32(run.partition, out);
  PutInt64(run.upstream_offset, out);
  return out;
}

std::string EncodeOffsetRunValue(const OffsetRunRecord& run) {
  std::string out;
  PutInt16(kVersion, out);
  PutInt64(run.downstream_offset, out);
  PutInt64(run.count, out);
  return out;
}

std::optional<OffsetRunRecord> DecodeOffsetRun(std::string_view key, std::string_view value) {
  OffsetRunRecord run;
  Reader k(key);
  if (!k.ReadString(run.topic) || !k.ReadInt32(run.partition) ||
      !k.ReadInt64(run.upstream_offset) || !k.AtEnd()) {
    return std::nullopt;
  }
  Reader v(value);
  int16_t version = -1;
  if (!v.ReadInt16(version) || version != kVersion || !v.ReadInt64(run.downstream_offset) ||
      !v.ReadInt64(run.count) || !v.AtEnd()) {
    return std::nullopt;
  }
  if (run.topic.empty() || run.partition < 0 || run.upstream_offset < 0 ||
      run.downstream_offset < 0 || run.count < 1) {
    return std::nullopt;
  }
  return run;
}

// ---- JSON -----------------------------------------------------------------------------------

std::string JsonString(std::string_view s) {
  // Java decodes the bytes into a String (malformed UTF-8 as U+FFFD), then Jackson writes it.
  std::string out;
  out.reserve(s.size() + 2);
  jvm::AppendJacksonString(jvm::ToJavaString(s), out);
  return out;
}

std::string SourcePartitionJson(const std::string& cluster, const std::string& topic,
                                int32_t partition) {
  return "{\"cluster\":" + JsonString(cluster) + ",\"partition\":" + std::to_string(partition) +
         ",\"topic\":" + JsonString(topic) + "}";
}

std::string SourceOffsetJson(int64_t offset) {
  return "{\"offset\":" + std::to_string(offset) + "}";
}

std::string CheckpointPartitionJson(const std::string& group, const std::string& topic,
                                    int32_t partition) {
  return "{\"partition\":" + std::to_string(partition) + ",\"topic\":" + JsonString(topic) +
         ",\"group\":" + JsonString(group) + "}";
}

std::string HeartbeatPartitionJson(const std::string& source_alias,
                                   const std::string& target_alias) {
  return "{\"sourceClusterAlias\":" + JsonString(source_alias) +
         ",\"targetClusterAlias\":" + JsonString(target_alias) + "}";
}

std::optional<int64_t> ParseSourceOffset(std::string_view json) {
  return JsonReader(json).ParseOffsetObject(nullptr);
}

std::optional<int64_t> ParseSourceOffset(std::string_view json, std::string* topic_id) {
  topic_id->clear();
  std::optional<int64_t> offset = JsonReader(json).ParseOffsetObject(topic_id);
  if (!offset) topic_id->clear();
  return offset;
}

}  // namespace connectd::mirror
