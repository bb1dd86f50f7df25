#include "runtime/storage/java_serialization.h"

#include <cmath>
#include <cstdint>
#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "runtime/common/status_macros.h"
#include "runtime/common/strings.h"

namespace connectd::storage {
namespace {

// java.io.ObjectStreamConstants.
constexpr uint16_t kStreamMagic = 0xACED;
constexpr uint16_t kStreamVersion = 5;
constexpr uint8_t kTcNull = 0x70;
constexpr uint8_t kTcReference = 0x71;
constexpr uint8_t kTcClassDesc = 0x72;
constexpr uint8_t kTcObject = 0x73;
constexpr uint8_t kTcString = 0x74;
constexpr uint8_t kTcArray = 0x75;
constexpr uint8_t kTcBlockData = 0x77;
constexpr uint8_t kTcEndBlockData = 0x78;
constexpr uint8_t kTcReset = 0x79;
constexpr uint8_t kTcBlockDataLong = 0x7A;
constexpr uint8_t kTcLongString = 0x7C;
constexpr uint8_t kTcProxyClassDesc = 0x7D;
constexpr uint8_t kScWriteMethod = 0x01;
constexpr uint8_t kScSerializable = 0x02;
constexpr uint8_t kScExternalizable = 0x04;
constexpr uint8_t kScEnum = 0x10;
constexpr uint32_t kBaseWireHandle = 0x7E0000;

constexpr std::string_view kHashMapClass = "java.util.HashMap";
constexpr uint64_t kHashMapSerialVersionUid = 362498820763181265ULL;  // 0x0507DAC1C31660D1
constexpr std::string_view kByteArrayClass = "[B";
constexpr uint64_t kByteArraySerialVersionUid = 0xACF317F8060854E0ULL;
constexpr uint32_t kLoadFactorBits = 0x3F400000;  // 0.75f

// ---- Writer ------------------------------------------------------------------------------------

void PutU8(std::string& out, uint8_t v) { out.push_back(static_cast<char>(v)); }
void PutU16(std::string& out, uint16_t v) {
  PutU8(out, static_cast<uint8_t>(v >> 8));
  PutU8(out, static_cast<uint8_t>(v));
}
void PutU32(std::string& out, uint32_t v) {
  PutU16(out, static_cast<uint16_t>(v >> 16));
  PutU16(out, static_cast<uint16_t>(v));
}
void PutU64(std::string& out, uint64_t v) {
  PutU32(out, static_cast<uint32_t>(v >> 32));
  PutU32(out, static_cast<uint32_t>(v));
}
void PutUtf(std::string& out, std::string_view ascii) {
  PutU16(out, static_cast<uint16_t>(ascii.size()));
  out.append(ascii);
}

// ---- Parser ------------------------------------------------------------------------------------

struct FieldDesc {
  char type = 0;
  std::string name;
};

struct ClassDesc {
  std::string name;
  uint64_t suid = 0;
  uint8_t flags = 0;
  std::vector<FieldDesc> fields;
  int super_handle = -1;  // -1: none
};

// One entry of the handle table.
struct Handle {
  enum class Kind { kClassDesc, kObject, kArray, kString };
  Kind kind;
  ClassDesc desc;     // kClassDesc
  std::string bytes;  // kArray, kString
};

class StreamParser {
 public:
  explicit StreamParser(std::string_view data) : data_(data) {}

  absl::StatusOr<std::vector<JavaByteArrayMapEntry>> Parse() {
    CONNECTD_ASSIGN_OR_RETURN(uint16_t magic, U16("the stream header"));
    CONNECTD_ASSIGN_OR_RETURN(uint16_t version, U16("the stream header"));
    if (magic != kStreamMagic || version != kStreamVersion) {
      return absl::DataLossError(
          absl::StrFormat("not a Java serialization stream (header %04x %04x, expected aced 0005)",
                          magic, version));
    }
    CONNECTD_ASSIGN_OR_RETURN(uint8_t tc, U8("the top-level object"));
    if (tc != kTcObject) return Unexpected(tc, "TC_OBJECT (a java.util.HashMap)");
    CONNECTD_ASSIGN_OR_RETURN(std::vector<JavaByteArrayMapEntry> entries, HashMapObject());
    if (pos_ != data_.size()) {
      return Corrupt(absl::StrCat(data_.size() - pos_, " unexpected bytes after the map"));
    }
    return entries;
  }

 private:
  static constexpr int kMaxClassDepth = 16;

  absl::Status Corrupt(std::string_view message) const {
    return absl::DataLossError(
        absl::StrCat("corrupt Java serialization stream at byte ", pos_, ": ", AsAbsl(message)));
  }
  absl::Status Unexpected(uint8_t tc, std::string_view expected) {
    --pos_;  // report the offset of the type code itself
    return Corrupt(
        absl::StrFormat("unexpected type code 0x%02x, expected %s", tc, AsAbsl(expected)));
  }

  absl::Status Need(uint64_t n, std::string_view what) const {
    if (n > data_.size() - pos_) {
      return absl::DataLossError(absl::StrCat("truncated Java serialization stream: ", n,
                                              " bytes of ", AsAbsl(what), " needed at byte ", pos_,
                                              ", ", data_.size() - pos_, " left"));
    }
    return absl::OkStatus();
  }
  absl::StatusOr<uint64_t> Unsigned(int bytes, std::string_view what) {
    CONNECTD_RETURN_IF_ERROR(Need(bytes, what));
    uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v = (v << 8) | static_cast<unsigned char>(data_[pos_ + i]);
    pos_ += bytes;
    return v;
  }
  absl::StatusOr<uint8_t> U8(std::string_view what) {
    CONNECTD_ASSIGN_OR_RETURN(uint64_t v, Unsigned(1, what));
    return static_cast<uint8_t>(v);
  }
  absl::StatusOr<uint16_t> U16(std::string_view what) {
    CONNECTD_ASSIGN_OR_RETURN(uint64_t v, Unsigned(2, what));
    return static_cast<uint16_t>(v);
  }
  absl::StatusOr<int32_t> I32(std::string_view what) {
    CONNECTD_ASSIGN_OR_RETURN(uint64_t v, Unsigned(4, what));
    return static_cast<int32_t>(static_cast<uint32_t>(v));
  }
  absl::StatusOr<uint64_t> U64(std::string_view what) { return Unsigned(8, what); }
  absl::StatusOr<std::string_view> Bytes(uint64_t n, std::string_view what) {
    CONNECTD_RETURN_IF_ERROR(Need(n, what));
    std::string_view bytes = data_.substr(pos_, n);
    pos_ += n;
    return bytes;
  }
  // A u2-length (modified UTF-8) string such as a class or field name.
  absl::StatusOr<std::string_view> Utf(std::string_view what) {
    CONNECTD_ASSIGN_OR_RETURN(uint16_t length, U16(what));
    return Bytes(length, what);
  }

  absl::StatusOr<const Handle*> Reference(std::string_view what) {
    CONNECTD_ASSIGN_OR_RETURN(int32_t wire, I32(what));
    const uint32_t handle = static_cast<uint32_t>(wire);
    if (handle < kBaseWireHandle || handle - kBaseWireHandle >= handles_.size()) {
      pos_ -= 4;
      return Corrupt(absl::StrFormat("back-reference to unknown handle 0x%x", handle));
    }
    return &handles_[handle - kBaseWireHandle];
  }

  size_t NewHandle(Handle::Kind kind) {
    handles_.push_back(Handle{kind, {}, {}});
    return handles_.size() - 1;
  }

  // classDesc: a new descriptor, a back-reference to one, or TC_NULL (-1).
  absl::StatusOr<int> ClassDescriptor(int depth) {
    if (depth > kMaxClassDepth) return Corrupt("class hierarchy too deep");
    CONNECTD_ASSIGN_OR_RETURN(uint8_t tc, U8("a class descriptor"));
    switch (tc) {
      case kTcNull:
        return -1;
      case kTcReference: {
        CONNECTD_ASSIGN_OR_RETURN(const Handle* handle, Reference("a class descriptor reference"));
        if (handle->kind != Handle::Kind::kClassDesc) {
          return Corrupt("back-reference to a non-class where a class descriptor was expected");
        }
        return static_cast<int>(handle - handles_.data());
      }
      case kTcClassDesc:
        return NewClassDescriptor(depth);
      case kTcProxyClassDesc:
        return Unexpected(tc, "a class descriptor (proxy classes are not supported)");
      default:
        return Unexpected(tc, "a class descriptor");
    }
  }

  absl::StatusOr<int> NewClassDescriptor(int depth) {
    ClassDesc desc;
    CONNECTD_ASSIGN_OR_RETURN(std::string_view name, Utf("a class name"));
    desc.name = std::string(name);
    CONNECTD_ASSIGN_OR_RETURN(desc.suid, U64("a serialVersionUID"));
    const size_t handle = NewHandle(Handle::Kind::kClassDesc);
    CONNECTD_ASSIGN_OR_RETURN(desc.flags, U8("class flags"));
    CONNECTD_ASSIGN_OR_RETURN(uint16_t field_count, U16("a field count"));
    for (uint16_t i = 0; i < field_count; ++i) {
      FieldDesc field;
      CONNECTD_ASSIGN_OR_RETURN(uint8_t type, U8("a field type"));
      field.type = static_cast<char>(type);
      CONNECTD_ASSIGN_OR_RETURN(std::string_view field_name, Utf("a field name"));
      field.name = std::string(field_name);
      switch (field.type) {
        case 'B':
        case 'C':
        case 'D':
        case 'F':
        case 'I':
        case 'J':
        case 'S':
        case 'Z':
          break;
        case '[':
        case 'L': {
          CONNECTD_RETURN_IF_ERROR(StringObject().status());
          break;
        }
        default:
          pos_ -= 3 + field.name.size();
          return Corrupt(absl::StrFormat("invalid field type code 0x%02x", type));
      }
      desc.fields.push_back(std::move(field));
    }
    CONNECTD_RETURN_IF_ERROR(SkipToEndBlock("a class annotation"));
    CONNECTD_ASSIGN_OR_RETURN(desc.super_handle, ClassDescriptor(depth + 1));
    handles_[handle].desc = std::move(desc);
    return static_cast<int>(handle);
  }

  // A field type's class name: TC_STRING, TC_LONGSTRING or a back-reference to a string.
  absl::StatusOr<std::string_view> StringObject() {
    CONNECTD_ASSIGN_OR_RETURN(uint8_t tc, U8("a string"));
    std::string_view text;
    if (tc == kTcString) {
      CONNECTD_ASSIGN_OR_RETURN(text, Utf("a string"));
    } else if (tc == kTcLongString) {
      CONNECTD_ASSIGN_OR_RETURN(uint64_t length, U64("a long string length"));
      CONNECTD_ASSIGN_OR_RETURN(text, Bytes(length, "a long string"));
    } else if (tc == kTcReference) {
      CONNECTD_ASSIGN_OR_RETURN(const Handle* handle, Reference("a string reference"));
      if (handle->kind != Handle::Kind::kString) {
        return Corrupt("back-reference to a non-string where a string was expected");
      }
      return std::string_view(handle->bytes);
    } else {
      return Unexpected(tc, "a string");
    }
    const size_t handle = NewHandle(Handle::Kind::kString);
    handles_[handle].bytes = std::string(text);
    return std::string_view(handles_[handle].bytes);
  }

  // Skips block data segments up to and including TC_ENDBLOCKDATA; objects are not accepted.
  absl::Status SkipToEndBlock(std::string_view what) {
    if (block_remaining_ > 0) {
      CONNECTD_RETURN_IF_ERROR(Bytes(block_remaining_, what).status());
      block_remaining_ = 0;
    }
    for (;;) {
      CONNECTD_ASSIGN_OR_RETURN(uint8_t tc, U8(what));
      if (tc == kTcEndBlockData) return absl::OkStatus();
      if (tc == kTcBlockData || tc == kTcBlockDataLong) {
        CONNECTD_RETURN_IF_ERROR(BlockHeader(tc));
        CONNECTD_RETURN_IF_ERROR(Bytes(block_remaining_, what).status());
        block_remaining_ = 0;
        continue;
      }
      return Unexpected(tc, absl::StrCat("block data or TC_ENDBLOCKDATA ending ", AsAbsl(what)));
    }
  }

  absl::Status BlockHeader(uint8_t tc) {
    if (tc == kTcBlockData) {
      CONNECTD_ASSIGN_OR_RETURN(uint8_t length, U8("a block data length"));
      block_remaining_ = length;
    } else {
      CONNECTD_ASSIGN_OR_RETURN(int32_t length, I32("a block data length"));
      if (length < 0) {
        pos_ -= 4;
        return Corrupt(absl::StrCat("negative block data length ", length));
      }
      block_remaining_ = static_cast<uint32_t>(length);
    }
    return absl::OkStatus();
  }

  // An int of custom (writeObject) data, which may span block data segments.
  absl::StatusOr<int32_t> BlockInt(std::string_view what) {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
      while (block_remaining_ == 0) {
        CONNECTD_ASSIGN_OR_RETURN(uint8_t tc, U8(what));
        if (tc == kTcReset) return Unexpected(tc, "block data (TC_RESET is not supported)");
        if (tc != kTcBlockData && tc != kTcBlockDataLong) return Unexpected(tc, "block data");
        CONNECTD_RETURN_IF_ERROR(BlockHeader(tc));
      }
      CONNECTD_ASSIGN_OR_RETURN(uint8_t byte, U8(what));
      --block_remaining_;
      v = (v << 8) | byte;
    }
    return static_cast<int32_t>(v);
  }

  absl::Status CheckHashMapClass(const ClassDesc& desc) {
    if (desc.name != kHashMapClass) {
      return Corrupt(
          absl::StrCat("expected a java.util.HashMap, found an instance of ", desc.name));
    }
    if (desc.suid != kHashMapSerialVersionUid) {
      return Corrupt(absl::StrFormat("java.util.HashMap with serialVersionUID %d, expected %d",
                                     static_cast<int64_t>(desc.suid),
                                     static_cast<int64_t>(kHashMapSerialVersionUid)));
    }
    if ((desc.flags & (kScSerializable | kScWriteMethod)) != (kScSerializable | kScWriteMethod) ||
        (desc.flags & (kScExternalizable | kScEnum)) != 0) {
      return Corrupt(absl::StrFormat("java.util.HashMap with class flags 0x%02x", desc.flags));
    }
    if (desc.super_handle != -1) {
      return Corrupt("java.util.HashMap with a serializable superclass");
    }
    return absl::OkStatus();
  }

  absl::StatusOr<std::vector<JavaByteArrayMapEntry>> HashMapObject() {
    CONNECTD_ASSIGN_OR_RETURN(int desc_handle, ClassDescriptor(0));
    if (desc_handle < 0) return Corrupt("TC_OBJECT without a class");
    NewHandle(Handle::Kind::kObject);
    // Copy: the handle table grows while the object is read.
    const ClassDesc desc = handles_[desc_handle].desc;
    CONNECTD_RETURN_IF_ERROR(CheckHashMapClass(desc));

    // Serializable fields (loadFactor, threshold), in descriptor order.
    for (const FieldDesc& field : desc.fields) {
      int size = 0;
      switch (field.type) {
        case 'B':
        case 'Z':
          size = 1;
          break;
        case 'C':
        case 'S':
          size = 2;
          break;
        case 'F':
        case 'I':
          size = 4;
          break;
        case 'D':
        case 'J':
          size = 8;
          break;
        default:
          return Corrupt(absl::StrCat("java.util.HashMap with an object field ", field.name));
      }
      CONNECTD_ASSIGN_OR_RETURN(uint64_t value, Unsigned(size, field.name));
      if (field.name == "loadFactor" && field.type == 'F') {
        float load_factor;
        const uint32_t bits = static_cast<uint32_t>(value);
        std::memcpy(&load_factor, &bits, sizeof load_factor);
        if (!(load_factor > 0)) {  // as HashMap.readObject: also rejects NaN
          return Corrupt(absl::StrCat("illegal HashMap load factor ", load_factor));
        }
      }
    }

    // writeObject's custom data: bucket count (ignored), mapping count, then the mappings.
    CONNECTD_RETURN_IF_ERROR(BlockInt("the HashMap capacity").status());
    CONNECTD_ASSIGN_OR_RETURN(int32_t size, BlockInt("the HashMap size"));
    if (size < 0) return Corrupt(absl::StrCat("illegal HashMap mappings count ", size));
    std::vector<JavaByteArrayMapEntry> entries;
    for (int32_t i = 0; i < size; ++i) {
      if (i == 0 && block_remaining_ > 0) {
        return Corrupt("unexpected block data before the first HashMap key");
      }
      JavaByteArrayMapEntry entry;
      CONNECTD_ASSIGN_OR_RETURN(entry.first, ByteArrayOrNull("a HashMap key"));
      CONNECTD_ASSIGN_OR_RETURN(entry.second, ByteArrayOrNull("a HashMap value"));
      entries.push_back(std::move(entry));
    }
    CONNECTD_RETURN_IF_ERROR(SkipToEndBlock("the HashMap data"));
    return entries;
  }

  absl::StatusOr<std::optional<std::string>> ByteArrayOrNull(std::string_view what) {
    CONNECTD_ASSIGN_OR_RETURN(uint8_t tc, U8(what));
    if (tc == kTcNull) return std::optional<std::string>();
    if (tc == kTcReference) {
      CONNECTD_ASSIGN_OR_RETURN(const Handle* handle, Reference(what));
      if (handle->kind != Handle::Kind::kArray) {
        return Corrupt(absl::StrCat("back-reference to a non-byte[] object as ", AsAbsl(what)));
      }
      return std::optional<std::string>(handle->bytes);
    }
    if (tc != kTcArray) {
      return Unexpected(tc, absl::StrCat("a byte[] or null as ", AsAbsl(what)));
    }
    CONNECTD_ASSIGN_OR_RETURN(int desc_handle, ClassDescriptor(0));
    if (desc_handle < 0) return Corrupt("TC_ARRAY without a class");
    const ClassDesc& desc = handles_[desc_handle].desc;
    // Java does not compare serialVersionUIDs of array classes; Java itself writes this one.
    if (desc.name != kByteArrayClass || !desc.fields.empty() || desc.super_handle != -1) {
      return Corrupt(absl::StrCat("expected a byte[] as ", AsAbsl(what),
                                  ", found an array of class ", desc.name));
    }
    const size_t handle = NewHandle(Handle::Kind::kArray);
    CONNECTD_ASSIGN_OR_RETURN(int32_t length, I32("an array length"));
    if (length < 0) {
      pos_ -= 4;
      return Corrupt(absl::StrCat("negative array length ", length));
    }
    CONNECTD_ASSIGN_OR_RETURN(std::string_view bytes, Bytes(static_cast<uint32_t>(length), what));
    handles_[handle].bytes = std::string(bytes);
    return std::optional<std::string>(handles_[handle].bytes);
  }

  const std::string_view data_;
  size_t pos_ = 0;
  uint32_t block_remaining_ = 0;
  std::vector<Handle> handles_;
};

}  // namespace

std::string SerializeJavaByteArrayHashMap(const std::vector<JavaByteArrayMapEntry>& entries) {
  // A HashMap filled by put() from new HashMap<>(): table 16, doubling past 3/4 full; the
  // threshold field stays 0 until the first put allocates the table.
  uint32_t capacity = 16;
  uint32_t threshold = entries.empty() ? 0 : 12;
  while (entries.size() > threshold) {
    capacity *= 2;
    threshold *= 2;
  }

  size_t payload = 0;
  for (const auto& [key, value] : entries) {
    payload += (key ? key->size() + 6 : 1) + (value ? value->size() + 6 : 1);
  }
  std::string out;
  out.reserve(96 + payload);
  PutU16(out, kStreamMagic);
  PutU16(out, kStreamVersion);
  PutU8(out, kTcObject);
  PutU8(out, kTcClassDesc);
  PutUtf(out, kHashMapClass);
  PutU64(out, kHashMapSerialVersionUid);
  PutU8(out, kScSerializable | kScWriteMethod);
  PutU16(out, 2);
  PutU8(out, 'F');
  PutUtf(out, "loadFactor");
  PutU8(out, 'I');
  PutUtf(out, "threshold");
  PutU8(out, kTcEndBlockData);
  PutU8(out, kTcNull);
  // Handles: 0 = the HashMap class descriptor, 1 = the map.
  PutU32(out, kLoadFactorBits);
  PutU32(out, threshold);
  PutU8(out, kTcBlockData);
  PutU8(out, 8);
  PutU32(out, capacity);
  PutU32(out, static_cast<uint32_t>(entries.size()));

  bool byte_array_class_written = false;  // then it is handle 2
  const auto put_array = [&](const std::optional<std::string>& bytes) {
    if (!bytes.has_value()) {
      PutU8(out, kTcNull);
      return;
    }
    PutU8(out, kTcArray);
    if (!byte_array_class_written) {
      PutU8(out, kTcClassDesc);
      PutUtf(out, kByteArrayClass);
      PutU64(out, kByteArraySerialVersionUid);
      PutU8(out, kScSerializable);
      PutU16(out, 0);
      PutU8(out, kTcEndBlockData);
      PutU8(out, kTcNull);
      byte_array_class_written = true;
    } else {
      PutU8(out, kTcReference);
      PutU32(out, kBaseWireHandle + 2);
    }
    PutU32(out, static_cast<uint32_t>(bytes->size()));
    out.append(*bytes);
  };
  for (const auto& [key, value] : entries) {
    put_array(key);
    put_array(value);
  }
  PutU8(out, kTcEndBlockData);
  return out;
}

absl::StatusOr<std::vector<JavaByteArrayMapEntry>> ParseJavaByteArrayHashMap(
    std::string_view stream) {
  return StreamParser(stream).Parse();
}

}  // namespace connectd::storage
