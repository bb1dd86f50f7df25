#include "runtime/kafka/protocol/data_messages.h"

#include "runtime/kafka/protocol/wire.h"

namespace connectd::kafka::protocol {
namespace {

std::vector<int32_t> Int32Array(WireReader& r) {
  std::vector<int32_t> out(r.CompactArrayLength());
  for (int32_t& v : out) v = r.Int32();
  return out;
}

std::string Uuid(WireReader& r) {
  WireWriter w;
  w.Int64(r.Int64()).Int64(r.Int64());
  return w.Take();
}

}  // namespace

// ---- Metadata --------------------------------------------------------------------------------

std::string MetadataRequest::Encode() const {
  WireWriter w;
  w.CompactArrayLength(static_cast<int32_t>(topics.size()));
  for (const std::string& name : topics) {
    w.Int64(0).Int64(0);  // topic id: none (by name)
    w.CompactNullableString(name).EmptyTaggedFields();
  }
  w.Bool(false).Bool(false).EmptyTaggedFields();  // no auto-creation, no authorized operations
  return w.Take();
}

absl::StatusOr<MetadataResponse> MetadataResponse::Decode(std::string_view body) {
  WireReader r(body);
  MetadataResponse out;
  out.throttle_time_ms = r.Int32();
  out.brokers.resize(r.CompactArrayLength());
  for (Broker& b : out.brokers) {
    b.node_id = r.Int32();
    b.host = r.CompactString();
    b.port = r.Int32();
    b.rack = r.CompactNullableString();
    r.SkipTaggedFields();
  }
  out.cluster_id = r.CompactNullableString();
  out.controller_id = r.Int32();
  out.topics.resize(r.CompactArrayLength());
  for (Topic& t : out.topics) {
    t.error_code = r.Int16();
    t.name = r.CompactNullableString().value_or("");
    t.topic_id = Uuid(r);
    t.is_internal = r.Bool();
    t.partitions.resize(r.CompactArrayLength());
    for (Partition& p : t.partitions) {
      p.error_code = r.Int16();
      p.partition = r.Int32();
      p.leader_id = r.Int32();
      p.leader_epoch = r.Int32();
      p.replicas = Int32Array(r);
      p.isr = Int32Array(r);
      Int32Array(r);  // offline replicas
      r.SkipTaggedFields();
    }
    r.Int32();  // topic authorized operations
    r.SkipTaggedFields();
  }
  r.SkipTaggedFields();
  if (!r.ok()) return r.status();
  return out;
}

// ---- Fetch -----------------------------------------------------------------------------------

std::string FetchRequest::Encode() const {
  WireWriter w;
  w.Int32(-1);  // replica id: a consumer
  w.Int32(max_wait_ms).Int32(min_bytes).Int32(max_bytes).Int8(isolation_level);
  w.Int32(0).Int32(-1);  // session id and epoch: no fetch session (a full fetch each time)
  w.CompactArrayLength(static_cast<int32_t>(topics.size()));
  for (const Topic& t : topics) {
    w.CompactString(t.name).CompactArrayLength(static_cast<int32_t>(t.partitions.size()));
    for (const Partition& p : t.partitions) {
      w.Int32(p.partition).Int32(p.current_leader_epoch).Int64(p.fetch_offset);
      w.Int32(p.last_fetched_epoch).Int64(-1);  // log start offset: a follower's
      w.Int32(p.partition_max_bytes).EmptyTaggedFields();
    }
    w.EmptyTaggedFields();
  }
  w.CompactArrayLength(0);  // forgotten topics
  w.CompactString("");      // rack id
  w.EmptyTaggedFields();
  return w.Take();
}

namespace {

// A fetched partition's tagged fields: 0 DivergingEpoch, 1 CurrentLeader (others skipped).
void ReadPartitionTags(WireReader& r, FetchResponse::Partition& p) {
  const uint32_t count = r.UnsignedVarint();
  for (uint32_t i = 0; i < count && r.ok(); ++i) {
    const uint32_t tag = r.UnsignedVarint();
    const uint32_t size = r.UnsignedVarint();
    const size_t before = r.remaining();
    if (tag == 0) {
      FetchResponse::EpochEndOffset diverging;
      diverging.epoch = r.Int32();
      diverging.end_offset = r.Int64();
      r.SkipTaggedFields();
      p.diverging_epoch = diverging;
    } else if (tag == 1) {
      FetchResponse::LeaderIdAndEpoch leader;
      leader.leader_id = r.Int32();
      leader.leader_epoch = r.Int32();
      r.SkipTaggedFields();
      p.current_leader = leader;
    } else {
      for (uint32_t k = 0; k < size && r.ok(); ++k) r.Int8();
    }
    if (r.ok() && before - r.remaining() != size) r.Fail("fetch partition tagged field size");
  }
}

}  // namespace

absl::StatusOr<FetchResponse> FetchResponse::Decode(std::string_view body) {
  WireReader r(body);
  FetchResponse out;
  out.throttle_time_ms = r.Int32();
  out.error_code = r.Int16();
  out.session_id = r.Int32();
  out.topics.resize(r.CompactArrayLength());
  for (Topic& t : out.topics) {
    t.name = r.CompactString();
    t.partitions.resize(r.CompactArrayLength());
    for (Partition& p : t.partitions) {
      p.partition = r.Int32();
      p.error_code = r.Int16();
      p.high_watermark = r.Int64();
      p.last_stable_offset = r.Int64();
      p.log_start_offset = r.Int64();
      // A compact nullable array: 0 is null.
      const uint32_t aborted = r.UnsignedVarint();
      if (aborted > 0) {
        p.aborted_transactions.emplace();
        for (uint32_t i = 1; i < aborted && r.ok(); ++i) {
          AbortedTransaction a;
          a.producer_id = r.Int64();
          a.first_offset = r.Int64();
          r.SkipTaggedFields();
          p.aborted_transactions->push_back(a);
        }
      }
      p.preferred_read_replica = r.Int32();
      p.records = r.CompactNullableBytesView();
      ReadPartitionTags(r, p);
    }
    r.SkipTaggedFields();
  }
  r.SkipTaggedFields();
  if (!r.ok()) return r.status();
  return out;
}

// ---- Produce ---------------------------------------------------------------------------------

std::string ProduceRequest::Encode() const { return EncodeGathered().Flatten(); }

GatheredBody ProduceRequest::EncodeGathered() const {
  GatheredBody body;
  WireWriter& w = body.fields();
  w.CompactNullableString(transactional_id).Int16(acks).Int32(timeout_ms);
  w.CompactArrayLength(static_cast<int32_t>(topics.size()));
  for (const Topic& t : topics) {
    w.CompactString(t.name).CompactArrayLength(static_cast<int32_t>(t.partitions.size()));
    for (const Partition& p : t.partitions) {
      // CompactBytes, the bytes as a view.
      w.Int32(p.partition).UnsignedVarint(static_cast<uint32_t>(p.records.size()) + 1);
      body.AppendView(p.records, p.records_owner);
      w.EmptyTaggedFields();
    }
    w.EmptyTaggedFields();
  }
  w.EmptyTaggedFields();
  return body;
}

absl::StatusOr<ProduceResponse> ProduceResponse::Decode(std::string_view body) {
  WireReader r(body);
  ProduceResponse out;
  out.topics.resize(r.CompactArrayLength());
  for (Topic& t : out.topics) {
    t.name = r.CompactString();
    t.partitions.resize(r.CompactArrayLength());
    for (Partition& p : t.partitions) {
      p.partition = r.Int32();
      p.error_code = r.Int16();
      p.base_offset = r.Int64();
      p.log_append_time_ms = r.Int64();
      p.log_start_offset = r.Int64();
      p.record_errors.resize(r.CompactArrayLength());
      for (RecordError& e : p.record_errors) {
        e.batch_index = r.Int32();
        e.message = r.CompactNullableString();
        r.SkipTaggedFields();
      }
      p.error_message = r.CompactNullableString();
      r.SkipTaggedFields();  // current leader (v10+)
    }
    r.SkipTaggedFields();
  }
  out.throttle_time_ms = r.Int32();
  r.SkipTaggedFields();  // node endpoints (v10+)
  if (!r.ok()) return r.status();
  return out;
}

// ---- InitProducerId --------------------------------------------------------------------------

std::string InitProducerIdRequest::Encode() const {
  WireWriter w;
  w.CompactNullableString(transactional_id).Int32(transaction_timeout_ms);
  w.Int64(producer_id).Int16(producer_epoch).EmptyTaggedFields();
  return w.Take();
}

absl::StatusOr<InitProducerIdResponse> InitProducerIdResponse::Decode(std::string_view body) {
  WireReader r(body);
  InitProducerIdResponse out;
  out.throttle_time_ms = r.Int32();
  out.error_code = r.Int16();
  out.producer_id = r.Int64();
  out.producer_epoch = r.Int16();
  r.SkipTaggedFields();
  if (!r.ok()) return r.status();
  return out;
}

}  // namespace connectd::kafka::protocol
