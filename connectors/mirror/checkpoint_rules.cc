#include "connectors/mirror/checkpoint_rules.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <limits>

namespace connectd::mirror {
namespace {

// ---- A minimal JSON reader for the flat maps of KIP-875 offsets ------------------------------

enum class JsonKind { kString, kInteger, kOther };

struct JsonValue {
  JsonKind kind = JsonKind::kOther;
  std::string text;     // the value as written
  bool fits = true;     // kInteger: fits in int64
  int64_t integer = 0;  // kInteger
};

class FlatJsonReader {
 public:
  explicit FlatJsonReader(std::string_view s) : s_(s) {}

  // The members of a JSON object (nested values are kOther); nullopt if not an object.
  std::optional<std::map<std::string, JsonValue>> Object() {
    std::map<std::string, JsonValue> out;
    Ws();
    if (!Eat('{')) return std::nullopt;
    Ws();
    if (Eat('}')) return End() ? std::optional(out) : std::nullopt;
    while (true) {
      Ws();
      std::optional<std::string> key = String();
      if (!key) return std::nullopt;
      Ws();
      if (!Eat(':')) return std::nullopt;
      Ws();
      size_t begin = i_;
      JsonValue value;
      if (Peek() == '"') {
        if (!String()) return std::nullopt;
        value.kind = JsonKind::kString;
      } else if (Peek() == '-' || std::isdigit(static_cast<unsigned char>(Peek()))) {
        bool integral = true;
        if (!Number(&integral)) return std::nullopt;
        value.kind = integral ? JsonKind::kInteger : JsonKind::kOther;
      } else if (!Skip()) {
        return std::nullopt;
      }
      value.text.assign(s_.substr(begin, i_ - begin));
      if (value.kind == JsonKind::kInteger) {
        errno = 0;
        value.integer = std::strtoll(value.text.c_str(), nullptr, 10);
        value.fits = errno != ERANGE;
      }
      out[*key] = std::move(value);
      Ws();
      if (Eat('}')) break;
      if (!Eat(',')) return std::nullopt;
    }
    return End() ? std::optional(out) : std::nullopt;
  }

 private:
  char Peek() const { return i_ < s_.size() ? s_[i_] : '\0'; }
  bool Eat(char c) {
    if (Peek() != c) return false;
    ++i_;
    return true;
  }
  void Ws() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  bool End() {
    Ws();
    return i_ == s_.size();
  }
  std::optional<std::string> String() {
    if (!Eat('"')) return std::nullopt;
    std::string out;
    while (i_ < s_.size() && s_[i_] != '"') {
      if (s_[i_] == '\\') {
        if (++i_ >= s_.size()) return std::nullopt;
        char e = s_[i_];
        out.push_back(e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e);
        if (e == 'u') i_ += 4;  // kept as-is: only the key names matter here
      } else {
        out.push_back(s_[i_]);
      }
      ++i_;
    }
    if (!Eat('"')) return std::nullopt;
    return out;
  }
  bool Number(bool* integral) {
    size_t begin = i_;
    Eat('-');
    while (std::isdigit(static_cast<unsigned char>(Peek()))) ++i_;
    if (Peek() == '.' || Peek() == 'e' || Peek() == 'E') {
      *integral = false;
      while (std::isdigit(static_cast<unsigned char>(Peek())) || Peek() == '.' || Peek() == 'e' ||
             Peek() == 'E' || Peek() == '+' || Peek() == '-') {
        ++i_;
      }
    }
    return i_ > begin && std::isdigit(static_cast<unsigned char>(s_[i_ - 1]));
  }
  // Skips any other value (literal, object, array).
  bool Skip() {
    if (Peek() == '"') return String().has_value();
    if (Peek() == '{' || Peek() == '[') {
      int depth = 0;
      while (i_ < s_.size()) {
        char c = s_[i_];
        if (c == '"') {
          if (!String()) return false;
          continue;
        }
        if (c == '{' || c == '[') ++depth;
        if (c == '}' || c == ']') --depth;
        ++i_;
        if (depth == 0) return true;
      }
      return false;
    }
    size_t begin = i_;
    while (std::isalpha(static_cast<unsigned char>(Peek()))) ++i_;
    std::string_view word = s_.substr(begin, i_ - begin);
    if (word == "true" || word == "false" || word == "null") return true;
    bool integral = true;
    i_ = begin;
    return Number(&integral);
  }

  std::string_view s_;
  size_t i_ = 0;
};

}  // namespace

std::vector<std::vector<std::string>> GroupPartitions(const std::vector<std::string>& items,
                                                      int n) {
  std::vector<std::vector<std::string>> chunks(static_cast<size_t>(n));
  const size_t per_chunk = items.size() / static_cast<size_t>(n);
  const size_t leftover = items.size() % static_cast<size_t>(n);
  size_t next = 0;
  for (size_t c = 0; c < chunks.size(); ++c) {
    size_t size = per_chunk + (c < leftover ? 1 : 0);
    chunks[c].assign(items.begin() + static_cast<std::ptrdiff_t>(next),
                     items.begin() + static_cast<std::ptrdiff_t>(next + size));
    next += size;
  }
  return chunks;
}

std::string RenameTopic(const ReplicationPolicy& policy, const std::string& source_alias,
                        const std::string& target_alias, const std::string& topic) {
  std::optional<std::string> source = policy.TopicSource(topic);
  if (source && *source == target_alias) return policy.OriginalTopic(topic);
  return policy.FormatRemoteTopic(source_alias, topic);
}

bool CheckpointIsMoreRecent(const Checkpoint& checkpoint, const Checkpoint* last) {
  if (last == nullptr) return true;
  if (checkpoint.upstream_offset < last->upstream_offset) return true;  // upstream rewind
  return checkpoint.downstream_offset > last->downstream_offset;
}

std::optional<int64_t> CombineTranslations(const std::optional<OffsetTranslation>& index,
                                           std::optional<int64_t> syncs) {
  if (index && index->exact) return index->downstream;
  if (!index) return syncs;
  if (!syncs) return index->downstream;
  return std::max(index->downstream, *syncs);
}

CheckpointStore::GroupCheckpoints CheckpointsForGroup(
    const std::string& group, const GroupOffsets& upstream,
    const std::function<bool(const std::string&)>& should_checkpoint_topic,
    const Translate& translate, const std::function<std::string(const std::string&)>& rename,
    const CheckpointStore::GroupCheckpoints* last) {
  CheckpointStore::GroupCheckpoints out;
  for (const auto& [tp, committed] : upstream) {
    if (!should_checkpoint_topic(tp.topic)) continue;
    if (committed.offset < 0) continue;  // Java's null OffsetAndMetadata
    std::optional<int64_t> downstream = translate(tp.topic, tp.partition, committed.offset);
    if (!downstream || *downstream < 0) continue;
    Checkpoint checkpoint{group,       rename(tp.topic),  tp.partition, committed.offset,
                          *downstream, committed.metadata};
    sdk::TopicPartition renamed{checkpoint.topic, checkpoint.partition};
    const Checkpoint* previous = nullptr;
    if (last != nullptr) {
      auto it = last->find(renamed);
      if (it != last->end()) previous = &it->second;
    }
    if (!CheckpointIsMoreRecent(checkpoint, previous)) continue;
    out.insert_or_assign(renamed, std::move(checkpoint));
  }
  return out;
}

GroupOffsets OffsetsToSync(const GroupOffsets& converted, const GroupOffsets* target_idle) {
  if (target_idle == nullptr) return converted;  // absent or active on the target
  GroupOffsets out;
  for (const auto& [tp, offset] : converted) {
    auto it = target_idle->find(tp);
    if (it != target_idle->end() && it->second.offset >= 0 && it->second.offset >= offset.offset) {
      continue;  // never rewind an idle target group
    }
    out[tp] = offset;
  }
  return out;
}

std::optional<std::string> ValidateCheckpointOffset(std::string_view partition,
                                                    const std::optional<std::string>& offset) {
  if (!offset) return std::nullopt;  // tombstones are always allowed
  const std::string p(partition);
  std::optional<std::map<std::string, JsonValue>> members = FlatJsonReader(partition).Object();
  if (!members) return "Source partition " + p + " must be a JSON object";
  for (const char* key : {"group", "topic"}) {
    auto it = members->find(key);
    if (it == members->end()) {
      return "Source partition " + p + " is missing the '" + key + "' key, which is required";
    }
    if (it->second.kind != JsonKind::kString) {
      return "Source partition " + p + " has an invalid value " + it->second.text + " for the '" +
             key + "' key, which must be a string";
    }
  }
  auto part = members->find("partition");
  if (part == members->end()) {
    return "Source partition " + p + " is missing the 'partition' key, which is required";
  }
  if (part->second.kind != JsonKind::kInteger || !part->second.fits ||
      part->second.integer > std::numeric_limits<int32_t>::max()) {
    return "Source partition " + p + " has an invalid value " + part->second.text +
           " for the 'partition' key, which must be an integer";
  }
  if (part->second.integer < 0) {
    return "Source partition " + p + " has an invalid value " + part->second.text +
           " for the 'partition' key, which cannot be negative";
  }
  std::optional<std::map<std::string, JsonValue>> offset_members = FlatJsonReader(*offset).Object();
  if (!offset_members) return "Source offset " + *offset + " must be a JSON object";
  auto value = offset_members->find("offset");
  if (value == offset_members->end()) {
    return "Source offset " + *offset + " for source partition " + p +
           " is missing the 'offset' key, which is required";
  }
  if (value->second.kind != JsonKind::kInteger || !value->second.fits) {
    return "Source offset " + *offset + " for source partition " + p + " has an invalid value " +
           value->second.text + " for the 'offset' key, which must be an integer";
  }
  if (value->second.integer != 0) {
    return "Source offset " + *offset + " for source partition " + p + " has an invalid value " +
           value->second.text + " for the 'offset' key; the only accepted value is 0";
  }
  return std::nullopt;
}

}  // namespace connectd::mirror
