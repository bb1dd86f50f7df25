// The data path's messages (runtime/kafka/protocol/data_messages.h) against kafka-clients 4.4.0's
// generated classes (tests/golden/protocol/data_messages.tsv, GenerateDataMessagesGolden.java):
// requests encode to Java's bytes, responses written by Java decode to the values set there,
// and a fetched batch stamped for the target (record_batch.h) is exactly the batch Java's
// producer puts in its Produce request.
#include "runtime/kafka/protocol/data_messages.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "absl/strings/escaping.h"
#include "runtime/kafka/protocol/messages.h"
#include "runtime/kafka/protocol/record_batch.h"

namespace connectd::kafka::protocol {
namespace {

std::map<std::string, std::string> LoadGolden() {
  std::ifstream in(std::string(CONNECTD_SOURCE_DIR) + "/tests/golden/protocol/data_messages.tsv");
  std::map<std::string, std::string> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string name, version, hex;
    std::getline(fields, name, '\t');
    std::getline(fields, version, '\t');
    std::getline(fields, hex, '\t');
    rows[name + " v" + version] = absl::HexStringToBytes(hex);
  }
  return rows;
}

class DataMessagesTest : public ::testing::Test {
 protected:
  const std::string& Golden(const std::string& key) {
    auto it = golden_.find(key);
    EXPECT_NE(it, golden_.end()) << key;
    static const std::string kEmpty;
    return it == golden_.end() ? kEmpty : it->second;
  }
  static std::string Hex(std::string_view bytes) {
    return absl::BytesToHexString(absl::string_view(bytes.data(), bytes.size()));
  }
  std::map<std::string, std::string> golden_ = LoadGolden();
};

TEST_F(DataMessagesTest, VersionsAreTheOnesEveryKafka4BrokerTakes) {
  EXPECT_EQ(SupportedVersions(ApiKey::kMetadata).max, kMetadataVersion);
  EXPECT_EQ(SupportedVersions(ApiKey::kFetch).max, kFetchVersion);
  EXPECT_EQ(SupportedVersions(ApiKey::kProduce).max, kProduceVersion);
  EXPECT_EQ(SupportedVersions(ApiKey::kInitProducerId).max, kInitProducerIdVersion);
  EXPECT_TRUE(IsFlexible(ApiKey::kFetch, kFetchVersion));
  EXPECT_TRUE(IsFlexible(ApiKey::kProduce, kProduceVersion));
}

TEST_F(DataMessagesTest, Metadata) {
  EXPECT_EQ(Hex(MetadataRequest{{"orders", "payments"}}.Encode()),
            Hex(Golden("MetadataRequest v12")));
  absl::StatusOr<MetadataResponse> m = MetadataResponse::Decode(Golden("MetadataResponse v12"));
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->throttle_time_ms, 4);
  ASSERT_EQ(m->brokers.size(), 2u);
  EXPECT_EQ(m->brokers[0].host, "broker-1.example");
  EXPECT_EQ(m->brokers[0].port, 9092);
  EXPECT_EQ(m->brokers[0].rack, "rack-a");
  EXPECT_EQ(m->brokers[1].node_id, 2);
  EXPECT_EQ(m->brokers[1].rack, std::nullopt);
  EXPECT_EQ(m->cluster_id, "cluster-xyz");
  EXPECT_EQ(m->controller_id, 1);
  ASSERT_EQ(m->topics.size(), 2u);
  const MetadataResponse::Topic& orders = m->topics[0];
  EXPECT_EQ(orders.name, "orders");
  EXPECT_EQ(Hex(orders.topic_id), "0102030405060708090a0b0c0d0e0f10");
  ASSERT_EQ(orders.partitions.size(), 2u);
  EXPECT_EQ(orders.partitions[0].leader_id, 1);
  EXPECT_EQ(orders.partitions[0].leader_epoch, 7);
  EXPECT_EQ(orders.partitions[0].replicas, (std::vector<int32_t>{1, 2}));
  EXPECT_EQ(orders.partitions[1].error_code, 6);  // NOT_LEADER_OR_FOLLOWER
  EXPECT_EQ(orders.partitions[1].leader_id, -1);
  EXPECT_EQ(orders.partitions[1].isr, (std::vector<int32_t>{2}));
  EXPECT_EQ(m->topics[1].error_code, 3);  // UNKNOWN_TOPIC_OR_PARTITION
  EXPECT_EQ(m->topics[1].name, "missing");
}

TEST_F(DataMessagesTest, FetchAndItsRecordsAsBatches) {
  FetchRequest request;
  request.topics = {{"orders", {{0, 7, 5000, 1048576, 6}, {3, -1, 0, 65536}}}};
  EXPECT_EQ(Hex(request.Encode()), Hex(Golden("FetchRequest v12")));

  const std::string& body = Golden("FetchResponse v12");
  absl::StatusOr<FetchResponse> f = FetchResponse::Decode(body);
  ASSERT_TRUE(f.ok()) << f.status();
  ASSERT_EQ(f->topics.size(), 1u);
  ASSERT_EQ(f->topics[0].partitions.size(), 2u);
  const FetchResponse::Partition& p0 = f->topics[0].partitions[0];
  EXPECT_EQ(p0.high_watermark, 5003);
  EXPECT_EQ(p0.last_stable_offset, 5002);
  EXPECT_EQ(p0.log_start_offset, 100);
  ASSERT_TRUE(p0.aborted_transactions.has_value());
  ASSERT_EQ(p0.aborted_transactions->size(), 1u);
  EXPECT_EQ((*p0.aborted_transactions)[0].producer_id, 42);
  EXPECT_EQ((*p0.aborted_transactions)[0].first_offset, 4990);
  ASSERT_TRUE(p0.diverging_epoch.has_value());
  EXPECT_EQ(p0.diverging_epoch->epoch, 6);
  EXPECT_EQ(p0.diverging_epoch->end_offset, 4998);
  ASSERT_TRUE(p0.current_leader.has_value());
  EXPECT_EQ(p0.current_leader->leader_id, 2);
  EXPECT_EQ(p0.current_leader->leader_epoch, 9);
  ASSERT_TRUE(p0.records.has_value());
  // A view into the body, not a copy.
  EXPECT_GE(p0.records->data(), body.data());
  EXPECT_LE(p0.records->data() + p0.records->size(), body.data() + body.size());
  absl::StatusOr<SplitBatches> batches = SplitRecordBatches(*p0.records);
  ASSERT_TRUE(batches.ok()) << batches.status();
  ASSERT_EQ(batches->batches.size(), 1u);
  absl::StatusOr<RecordBatchHeader> header = ParseRecordBatchHeader(batches->batches[0]);
  ASSERT_TRUE(header.ok());
  EXPECT_EQ(header->base_offset, 5000);
  EXPECT_EQ(header->record_count, 3);
  const FetchResponse::Partition& p3 = f->topics[0].partitions[1];
  EXPECT_EQ(p3.partition, 3);
  EXPECT_EQ(p3.error_code, 6);
  EXPECT_EQ(p3.aborted_transactions, std::nullopt);
  EXPECT_FALSE(p3.diverging_epoch.has_value());
  ASSERT_TRUE(p3.records.has_value());
  EXPECT_TRUE(p3.records->empty());

  // Copied: the fetched batch, stamped for a producer without idempotence, is the very batch
  // Java's producer sends for the same records.
  std::string stamped(batches->batches[0]);
  StampForProduce(stamped, ProducerStamp{});
  ProduceRequest produce;
  produce.topics = {{"A.orders", {{0, stamped}, {2, stamped}}}};
  EXPECT_EQ(Hex(produce.Encode()), Hex(Golden("ProduceRequest v9")));
  // Gathered, the same bytes with the batches as views of `stamped`, not copies of it.
  GatheredBody gathered = produce.EncodeGathered();
  EXPECT_EQ(Hex(gathered.Flatten()), Hex(Golden("ProduceRequest v9")));
  EXPECT_EQ(gathered.size(), gathered.Flatten().size());
  int views = 0;
  for (std::string_view piece : gathered.Pieces()) {
    if (piece.data() != stamped.data()) continue;
    EXPECT_EQ(piece.size(), stamped.size());
    ++views;
  }
  EXPECT_EQ(views, 2);
}

TEST_F(DataMessagesTest, ProduceResponseAndInitProducerId) {
  absl::StatusOr<ProduceResponse> p = ProduceResponse::Decode(Golden("ProduceResponse v9"));
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->throttle_time_ms, 11);
  ASSERT_EQ(p->topics.size(), 1u);
  ASSERT_EQ(p->topics[0].partitions.size(), 2u);
  EXPECT_EQ(p->topics[0].name, "A.orders");
  EXPECT_EQ(p->topics[0].partitions[0].base_offset, 1200);
  EXPECT_EQ(p->topics[0].partitions[0].error_message, std::nullopt);
  const ProduceResponse::Partition& refused = p->topics[0].partitions[1];
  EXPECT_EQ(refused.error_code, 87);  // INVALID_RECORD
  ASSERT_EQ(refused.record_errors.size(), 1u);
  EXPECT_EQ(refused.record_errors[0].message, "bad record");
  EXPECT_EQ(refused.error_message, "One or more records have been rejected");

  EXPECT_EQ(Hex(InitProducerIdRequest{}.Encode()), Hex(Golden("InitProducerIdRequest v4")));
  absl::StatusOr<InitProducerIdResponse> id =
      InitProducerIdResponse::Decode(Golden("InitProducerIdResponse v4"));
  ASSERT_TRUE(id.ok()) << id.status();
  EXPECT_EQ(id->producer_id, 1000);
  EXPECT_EQ(id->producer_epoch, 3);
}

TEST_F(DataMessagesTest, EveryTruncationIsAnErrorNeverAReadPastTheEnd) {
  for (const char* key : {"MetadataResponse v12", "FetchResponse v12", "ProduceResponse v9",
                          "InitProducerIdResponse v4"}) {
    const std::string& body = Golden(key);
    for (size_t n = 0; n < body.size(); ++n) {
      const std::string cut = body.substr(0, n);
      bool ok = true;
      if (std::string(key).rfind("Metadata", 0) == 0) ok = MetadataResponse::Decode(cut).ok();
      if (std::string(key).rfind("Fetch", 0) == 0) ok = FetchResponse::Decode(cut).ok();
      if (std::string(key).rfind("Produce", 0) == 0) ok = ProduceResponse::Decode(cut).ok();
      if (std::string(key).rfind("InitProducerId", 0) == 0) {
        ok = InitProducerIdResponse::Decode(cut).ok();
      }
      EXPECT_FALSE(ok) << key << " cut at " << n;
    }
  }
}

}  // namespace
}  // namespace connectd::kafka::protocol
