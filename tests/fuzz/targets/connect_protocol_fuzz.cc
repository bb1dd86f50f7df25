// libFuzzer target: Connect's group-protocol payloads (runtime/distributed/connect_protocol.h)
// as other members send them through the broker: the worker metadata in JoinGroup (read by the
// leader) and the assignment in SyncGroup, eager (v0) and incremental (v1 compatible,
// v2 sessioned), any version a newer worker may send.
// Input: a selector byte, then the payload.
// Property: decode -> encode -> decode -> encode reaches a fixed point (the encoder groups a
// connector's tasks, so the first encoding may reorder an input's duplicate connector entries),
// and the decoded assignment holds the same connectors and tasks, in any order.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/distributed/connect_protocol.h"
#include "tests/fuzz/targets/fuzz_check.h"

namespace dist = connectd::distributed;

namespace {

template <typename T>
std::vector<T> Sorted(std::vector<T> v) {
  std::sort(v.begin(), v.end());
  return v;
}

void CheckSameContent(const dist::ConnectAssignment& a, const dist::ConnectAssignment& b) {
  FUZZ_CHECK(a.version == b.version && a.error == b.error && a.leader == b.leader &&
             a.leader_url == b.leader_url && a.config_offset == b.config_offset);
  FUZZ_CHECK(Sorted(a.connectors) == Sorted(b.connectors));
  FUZZ_CHECK(Sorted(a.tasks) == Sorted(b.tasks));
  if (a.version >= dist::kProtocolV1) {
    FUZZ_CHECK(Sorted(a.revoked_connectors) == Sorted(b.revoked_connectors));
    FUZZ_CHECK(Sorted(a.revoked_tasks) == Sorted(b.revoked_tasks));
    FUZZ_CHECK(a.delay_ms == b.delay_ms);
  }
}

void Assignment(std::string_view bytes) {
  absl::StatusOr<dist::ConnectAssignment> first = dist::DecodeAssignment(bytes);
  if (!first.ok()) return;
  FUZZ_CHECK(first->version >= 0);
  std::string encoded = dist::EncodeAssignment(*first);
  absl::StatusOr<dist::ConnectAssignment> second = dist::DecodeAssignment(encoded);
  FUZZ_CHECK(second.ok());
  CheckSameContent(*first, *second);
  FUZZ_CHECK(dist::EncodeAssignment(*second) == encoded);
}

void Metadata(std::string_view bytes) {
  absl::StatusOr<dist::WorkerMetadata> first = dist::DecodeWorkerMetadata(bytes);
  if (!first.ok()) return;
  FUZZ_CHECK(first->version >= 0);
  if (first->allocation) FUZZ_CHECK(first->version >= dist::kProtocolV1);
  std::string encoded = dist::EncodeWorkerMetadata(*first);
  absl::StatusOr<dist::WorkerMetadata> second = dist::DecodeWorkerMetadata(encoded);
  FUZZ_CHECK(second.ok());
  FUZZ_CHECK(second->version == first->version && second->url == first->url &&
             second->config_offset == first->config_offset);
  FUZZ_CHECK(second->allocation.has_value() == first->allocation.has_value());
  if (first->allocation) {
    // The owned assignment is written in the metadata's version.
    dist::ConnectAssignment expected = *first->allocation;
    expected.version = first->version;
    if (first->allocation->version < dist::kProtocolV1) {
      expected.revoked_connectors.clear();
      expected.revoked_tasks.clear();
      expected.delay_ms = 0;
    }
    CheckSameContent(expected, *second->allocation);
  }
  FUZZ_CHECK(dist::EncodeWorkerMetadata(*second) == encoded);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  connectd::fuzz::FuzzInput input(data, size);
  uint8_t which = input.Byte();
  std::string_view bytes = input.Rest();
  if (which % 2 == 0) {
    Metadata(bytes);
  } else {
    Assignment(bytes);
  }
  // Subprotocol names and versions map onto each other.
  for (int16_t version : {dist::kProtocolV0, dist::kProtocolV1, dist::kProtocolV2}) {
    FUZZ_CHECK(dist::SubprotocolVersion(dist::SubprotocolName(version)) == version);
  }
  return 0;
}
