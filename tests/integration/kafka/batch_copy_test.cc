// The pass-through data path's pieces (runtime/kafka/protocol: data_messages.h, record_batch.h)
// against two real Kafka 4.4 clusters: records produced to A by librdkafka (the broker
// compresses them with lz4) are fetched from A as batches, stamped for an idempotent producer
// id that B handed out, produced to B as the same bytes, and B holds exactly A's records (keys,
// values, headers, timestamps, offsets) in batches whose record bytes are A's own, still lz4; a
// batch corrupted on the way is refused by B.
#include <algorithm>
#include <atomic>
#include <functional>
#include <future>
#include <map>
#include <thread>

#include <gtest/gtest.h>
#include <boost/asio/executor_work_guard.hpp>

#include <librdkafka/rdkafka.h>

#include "runtime/kafka/batch_copier.h"
#include "runtime/kafka/protocol/broker_connection.h"
#include "runtime/kafka/protocol/data_messages.h"
#include "runtime/kafka/protocol/record_batch.h"
#include "tests/common/kafka_test_clients.h"
#include "tests/common/kafka_test_env.h"

namespace connectd::kafka::protocol {
namespace {

class BatchCopyTest : public ::testing::Test {
 protected:
  void TearDown() override {
    work_.reset();
    io_.stop();
    if (thread_.joinable()) thread_.join();
  }

  std::shared_ptr<BrokerConnection> Connect(const std::string& bootstrap) {
    size_t colon = bootstrap.rfind(':');
    BrokerConnection::Options options;
    options.host = bootstrap.substr(0, colon);
    options.port = static_cast<uint16_t>(std::stoi(bootstrap.substr(colon + 1)));
    options.client_id = "connectd-batch-copy-test";
    options.request_timeout = std::chrono::milliseconds(10000);
    auto connection = BrokerConnection::Create(io_, options);
    std::promise<absl::Status> connected;
    connection->Connect([&connected](absl::Status s) { connected.set_value(s); });
    absl::Status status = connected.get_future().get();
    EXPECT_TRUE(status.ok()) << status;
    return connection;
  }

  // One request and its response body (the version is the only one connectd speaks).
  absl::StatusOr<std::string> Call(BrokerConnection& connection, ApiKey key, std::string body) {
    std::promise<absl::StatusOr<std::string>> done;
    connection.Send(
        key, [body = std::move(body)](int16_t) { return body; },
        [&done](absl::StatusOr<std::string> response, int16_t) {
          done.set_value(std::move(response));
        });
    return done.get_future().get();
  }

  // Produces one stamped batch to partition 0 of `topic`: the partition's answer.
  absl::StatusOr<ProduceResponse::Partition> ProduceOne(BrokerConnection& connection,
                                                        const std::string& topic,
                                                        std::string_view batch) {
    ProduceRequest produce;
    produce.topics = {{topic, {{0, batch}}}};
    absl::StatusOr<std::string> body = Call(connection, ApiKey::kProduce, produce.Encode());
    if (!body.ok()) return body.status();
    absl::StatusOr<ProduceResponse> response = ProduceResponse::Decode(*body);
    if (!response.ok()) return response.status();
    return response->topics.at(0).partitions.at(0);
  }

  boost::asio::io_context io_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_ =
      boost::asio::make_work_guard(io_);
  std::thread thread_{[this] { io_.run(); }};
};

TEST_F(BatchCopyTest, FetchedBatchesProducedToAnotherClusterArriveWhole) {
  absl::StatusOr<std::string> a = testing::TestKafkaBootstrap("ctest-a");
  absl::StatusOr<std::string> b = testing::TestKafkaBootstrap("ctest-b");
  ASSERT_TRUE(a.ok() && b.ok());
  const std::string source = testing::UniqueName("batch-source");
  const std::string target = testing::UniqueName("batch-target");
  ASSERT_TRUE(testing::CreateTopic(*a, source, 1, {{"compression.type", "lz4"}}).ok());
  ASSERT_TRUE(testing::CreateTopic(*b, target, 1).ok());
  std::vector<testing::TestRecord> sent;
  const int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  for (int i = 0; i < 3000; ++i) {
    sent.push_back({"key-" + std::to_string(i),
                    std::string(100 + i % 50, 'a' + i % 26),
                    {{"seq", std::to_string(i)}},
                    0,
                    now + i,
                    -1});
  }
  // In twelve rounds: several batches.
  for (size_t first = 0; first < sent.size(); first += 250) {
    ASSERT_TRUE(testing::ProduceRecords(*a, source,
                                        std::vector<testing::TestRecord>(
                                            sent.begin() + first, sent.begin() + first + 500))
                    .ok());
  }

  auto from = Connect(*a);
  auto to = Connect(*b);
  EXPECT_EQ(from->VersionOf(ApiKey::kFetch), kFetchVersion);
  EXPECT_EQ(to->VersionOf(ApiKey::kProduce), kProduceVersion);

  // The source partition's leader is the broker we are connected to (one-broker clusters).
  absl::StatusOr<std::string> metadata_body =
      Call(*from, ApiKey::kMetadata, MetadataRequest{{source}}.Encode());
  ASSERT_TRUE(metadata_body.ok()) << metadata_body.status();
  absl::StatusOr<MetadataResponse> metadata = MetadataResponse::Decode(*metadata_body);
  ASSERT_TRUE(metadata.ok()) << metadata.status();
  ASSERT_EQ(metadata->topics.size(), 1u);
  ASSERT_EQ(metadata->topics[0].partitions.size(), 1u);
  EXPECT_EQ(metadata->topics[0].partitions[0].leader_id, metadata->brokers[0].node_id);

  // An idempotent producer id on B (a broker just started answers COORDINATOR_LOAD_IN_PROGRESS
  // or COORDINATOR_NOT_AVAILABLE for a while: retriable).
  absl::StatusOr<InitProducerIdResponse> id = absl::UnavailableError("not asked yet");
  for (int attempt = 0; attempt < 300; ++attempt) {
    absl::StatusOr<std::string> id_body =
        Call(*to, ApiKey::kInitProducerId, InitProducerIdRequest{}.Encode());
    ASSERT_TRUE(id_body.ok()) << id_body.status();
    id = InitProducerIdResponse::Decode(*id_body);
    ASSERT_TRUE(id.ok()) << id.status();
    if (id->error_code != 14 && id->error_code != 15) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_EQ(id->error_code, 0);
  ASSERT_GE(id->producer_id, 0);

  // Fetch A's batches (small fetches: several rounds, cut-off tails) and produce each whole
  // batch to B, stamped with running sequence numbers.
  // A fetch answers with at least one whole batch: one of a byte gives the first batch's size,
  // and the fetches below ask for two and a half of it (two whole batches and a cut-off tail).
  FetchRequest probe;
  probe.topics = {{source, {{0, -1, 0, 1}}}};
  absl::StatusOr<std::string> probe_body = Call(*from, ApiKey::kFetch, probe.Encode());
  ASSERT_TRUE(probe_body.ok()) << probe_body.status();
  absl::StatusOr<FetchResponse> first = FetchResponse::Decode(*probe_body);
  ASSERT_TRUE(first.ok()) << first.status();
  absl::StatusOr<SplitBatches> first_batches =
      SplitRecordBatches(first->topics.at(0).partitions.at(0).records.value_or(""));
  ASSERT_TRUE(first_batches.ok() && first_batches->batches.size() == 1);
  const auto fetch_bytes = static_cast<int32_t>(first_batches->batches[0].size() * 5 / 2);

  int64_t fetch_offset = 0;
  int32_t sequence = 0;
  int fetches = 0;
  size_t most_batches_in_a_fetch = 0;
  std::vector<std::string> source_payloads;
  while (fetch_offset < static_cast<int64_t>(sent.size())) {
    FetchRequest fetch;
    fetch.max_wait_ms = 100;
    fetch.topics = {{source, {{0, -1, fetch_offset, fetch_bytes}}}};
    absl::StatusOr<std::string> fetch_body = Call(*from, ApiKey::kFetch, fetch.Encode());
    ++fetches;
    ASSERT_TRUE(fetch_body.ok()) << fetch_body.status();
    absl::StatusOr<FetchResponse> fetched = FetchResponse::Decode(*fetch_body);
    ASSERT_TRUE(fetched.ok()) << fetched.status();
    const FetchResponse::Partition& partition = fetched->topics.at(0).partitions.at(0);
    ASSERT_EQ(partition.error_code, 0);
    ASSERT_TRUE(partition.records.has_value());
    absl::StatusOr<SplitBatches> split = SplitRecordBatches(*partition.records);
    ASSERT_TRUE(split.ok()) << split.status();
    ASSERT_FALSE(split->batches.empty());
    most_batches_in_a_fetch = std::max(most_batches_in_a_fetch, split->batches.size());
    for (std::string_view batch : split->batches) {
      absl::StatusOr<RecordBatchHeader> header = ParseRecordBatchHeader(batch);
      ASSERT_TRUE(header.ok());
      ASSERT_EQ(header->base_offset, fetch_offset);
      EXPECT_EQ(header->compression(), 3) << "lz4, as the source topic stores it";
      EXPECT_EQ(PassThroughObstacle(*header), std::nullopt);
      std::string stamped(batch);
      StampForProduce(stamped, {id->producer_id, id->producer_epoch, sequence, false});
      source_payloads.emplace_back(batch.substr(kRecordBatchHeaderSize));
      sequence += header->record_count;
      fetch_offset = header->last_offset() + 1;
      // One batch per partition and request: Kafka refuses more from an idempotent producer.
      absl::StatusOr<ProduceResponse::Partition> result = ProduceOne(*to, target, stamped);
      ASSERT_TRUE(result.ok()) << result.status();
      ASSERT_EQ(result->error_code, 0) << result->error_message.value_or("");
      EXPECT_EQ(result->base_offset, header->base_offset) << "B numbers them as A did";
    }
  }
  EXPECT_GE(source_payloads.size(), 4u) << "several batches, over several fetches";
  EXPECT_GE(fetches, 2);
  EXPECT_GE(most_batches_in_a_fetch, 2u);

  // B holds A's records, offset for offset.
  absl::StatusOr<std::vector<testing::TestRecord>> copied =
      testing::ReadTopic(*b, target, sent.size());
  ASSERT_TRUE(copied.ok()) << copied.status();
  absl::StatusOr<std::vector<testing::TestRecord>> original =
      testing::ReadTopic(*a, source, sent.size());
  ASSERT_TRUE(original.ok()) << original.status();
  EXPECT_EQ(*copied, *original);

  // And B stores A's batches: the same record bytes, still lz4.
  FetchRequest check;
  check.topics = {{target, {{0, -1, 0, 8 << 20}}}};
  check.max_bytes = 8 << 20;
  absl::StatusOr<std::string> check_body = Call(*to, ApiKey::kFetch, check.Encode());
  ASSERT_TRUE(check_body.ok());
  absl::StatusOr<FetchResponse> stored = FetchResponse::Decode(*check_body);
  ASSERT_TRUE(stored.ok());
  absl::StatusOr<SplitBatches> stored_batches =
      SplitRecordBatches(stored->topics.at(0).partitions.at(0).records.value_or(""));
  ASSERT_TRUE(stored_batches.ok());
  ASSERT_EQ(stored_batches->batches.size(), source_payloads.size());
  for (size_t i = 0; i < source_payloads.size(); ++i) {
    EXPECT_EQ(stored_batches->batches[i].substr(kRecordBatchHeaderSize), source_payloads[i]) << i;
  }

  // A batch corrupted on the way keeps a wrong CRC through the stamp (which updates it for the
  // stamped fields only), and B refuses it as CORRUPT_MESSAGE: nothing written.
  std::string corrupt(stored_batches->batches.back());
  corrupt[corrupt.size() - 3] ^= 0x20;
  StampForProduce(corrupt, ProducerStamp{});
  EXPECT_FALSE(RecordBatchCrcMatches(corrupt));
  absl::StatusOr<ProduceResponse::Partition> refusal = ProduceOne(*to, target, corrupt);
  ASSERT_TRUE(refusal.ok()) << refusal.status();
  EXPECT_EQ(refusal->error_code, 2) << "CORRUPT_MESSAGE";
  FetchRequest end;
  end.max_wait_ms = 0;
  end.topics = {{target, {{0, -1, static_cast<int64_t>(sent.size()), 1 << 20}}}};
  absl::StatusOr<std::string> end_body = Call(*to, ApiKey::kFetch, end.Encode());
  ASSERT_TRUE(end_body.ok()) << end_body.status();
  absl::StatusOr<FetchResponse> at_end = FetchResponse::Decode(*end_body);
  ASSERT_TRUE(at_end.ok()) << at_end.status();
  EXPECT_EQ(at_end->topics.at(0).partitions.at(0).high_watermark,
            static_cast<int64_t>(sent.size()));
  from->Close();
  to->Close();
}

// One transaction of ten records to partition 0 of `topic` by a transactional producer of its
// own, committed or aborted. Keys "t<txn>-<i>".
absl::Status ProduceTransaction(const std::string& bootstrap, const std::string& topic, int txn,
                                bool commit) {
  char err[512];
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  rd_kafka_conf_set(conf, "bootstrap.servers", bootstrap.c_str(), err, sizeof(err));
  const std::string id = testing::UniqueName("batch-copy-tx");
  rd_kafka_conf_set(conf, "transactional.id", id.c_str(), err, sizeof(err));
  rd_kafka_t* rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, sizeof(err));
  if (rk == nullptr) return absl::InternalError(err);
  auto check = [](rd_kafka_error_t* e) {
    if (e == nullptr) return absl::OkStatus();
    absl::Status s = absl::InternalError(rd_kafka_error_string(e));
    rd_kafka_error_destroy(e);
    return s;
  };
  absl::Status status = check(rd_kafka_init_transactions(rk, 30000));
  if (status.ok()) status = check(rd_kafka_begin_transaction(rk));
  for (int i = 0; i < 10 && status.ok(); ++i) {
    std::string key = "t" + std::to_string(txn) + "-" + std::to_string(i);
    rd_kafka_resp_err_t e = rd_kafka_producev(
        rk, RD_KAFKA_V_TOPIC(topic.c_str()), RD_KAFKA_V_PARTITION(0),
        RD_KAFKA_V_KEY(key.data(), key.size()), RD_KAFKA_V_VALUE(key.data(), key.size()),
        RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_END);
    if (e) status = absl::InternalError(rd_kafka_err2str(e));
  }
  if (status.ok() && !commit) {
    // Delivered first, so that the aborted records are in the log before their marker.
    if (rd_kafka_flush(rk, 30000) != RD_KAFKA_RESP_ERR_NO_ERROR) {
      status = absl::InternalError("the aborted transaction's records were not delivered");
    } else {
      status = check(rd_kafka_abort_transaction(rk, 30000));
    }
  } else if (status.ok()) {
    status = check(rd_kafka_commit_transaction(rk, 30000));
  }
  rd_kafka_destroy(rk);
  return status;
}

TEST_F(BatchCopyTest, AbortedTransactionsAndMarkersAreNotCopied) {
  absl::StatusOr<std::string> a = testing::TestKafkaBootstrap("ctest-a");
  ASSERT_TRUE(a.ok());
  const std::string source = testing::UniqueName("batch-tx-source");
  ASSERT_TRUE(testing::CreateTopic(*a, source, 1).ok());
  for (int txn = 0; txn < 3; ++txn) {
    absl::Status produced = ProduceTransaction(*a, source, txn, /*commit=*/txn != 1);
    ASSERT_TRUE(produced.ok()) << produced;
  }

  auto from = Connect(*a);
  FetchRequest fetch;  // read_committed (the default here)
  fetch.topics = {{source, {{0, -1, 0, 1 << 20}}}};
  // The markers are written after the producer's EndTxn returns: fetch until the last stable
  // offset reached the end (30 records and 3 markers).
  absl::StatusOr<std::string> body;
  absl::StatusOr<FetchResponse> fetched;
  for (int attempt = 0; attempt < 100; ++attempt) {
    body = Call(*from, ApiKey::kFetch, fetch.Encode());
    ASSERT_TRUE(body.ok()) << body.status();
    fetched = FetchResponse::Decode(*body);
    ASSERT_TRUE(fetched.ok()) << fetched.status();
    if (fetched->topics.at(0).partitions.at(0).last_stable_offset == 33) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  const FetchResponse::Partition& p = fetched->topics.at(0).partitions.at(0);
  std::string seen;
  if (absl::StatusOr<SplitBatches> all = SplitRecordBatches(p.records.value_or("")); all.ok()) {
    for (std::string_view batch : all->batches) {
      RecordBatchHeader h = *ParseRecordBatchHeader(batch);
      seen += " [" + std::to_string(h.base_offset) + "+" + std::to_string(h.record_count) +
              (h.control() ? " control" : "") + " pid " + std::to_string(h.producer_id) + "/" +
              std::to_string(h.producer_epoch) + "]";
    }
  }
  ASSERT_EQ(p.last_stable_offset, 33) << "high watermark " << p.high_watermark << seen;
  ASSERT_EQ(p.high_watermark, 33);
  ASSERT_TRUE(p.aborted_transactions.has_value());
  ASSERT_EQ(p.aborted_transactions->size(), 1u) << "the broker lists the aborted one";
  std::vector<ReadCommittedFilter::Aborted> aborted;
  for (const auto& t : *p.aborted_transactions) aborted.push_back({t.producer_id, t.first_offset});
  ReadCommittedFilter filter(std::move(aborted));
  absl::StatusOr<SplitBatches> split = SplitRecordBatches(p.records.value_or(""));
  ASSERT_TRUE(split.ok()) << split.status();
  int copied_records = 0, markers = 0, skipped_records = 0;
  std::vector<int64_t> copied_bases;
  for (std::string_view batch : split->batches) {
    absl::StatusOr<RecordBatchHeader> h = ParseRecordBatchHeader(batch);
    ASSERT_TRUE(h.ok());
    if (h->control()) ++markers;
    if (filter.Copy(*h, batch)) {
      copied_records += h->record_count;
      copied_bases.push_back(h->base_offset);
    } else if (!h->control()) {
      skipped_records += h->record_count;
    }
  }
  EXPECT_EQ(markers, 3);  // COMMIT, ABORT, COMMIT
  EXPECT_EQ(copied_records, 20);
  EXPECT_EQ(skipped_records, 10);
  // The committed transactions: offsets 0-9 and, after the aborted one and two markers, 22-31.
  ASSERT_FALSE(copied_bases.empty());
  EXPECT_EQ(copied_bases.front(), 0);
  EXPECT_EQ(copied_bases.back() >= 22, true);
  from->Close();
}

// ---- BatchCopier (runtime/kafka/batch_copier.h): the copy loop a worker runs for a task ------

struct CopierRun {
  std::vector<BatchCopyEvent> acked;
  std::vector<BatchCopyEvent> returned;
  std::vector<BatchCopyEvent> progress;
  int64_t acked_records = 0;
};

// Takes the copier's events until `done` holds or 60 s passed.
CopierRun Collect(BatchCopier& copier, const std::function<bool(const CopierRun&)>& done) {
  CopierRun run;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!done(run) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    for (BatchCopyEvent& e : copier.TakeEvents()) {
      if (e.kind == BatchCopyEvent::Kind::kAcked) {
        run.acked_records += e.record_count;
        run.acked.push_back(std::move(e));
      } else if (e.kind == BatchCopyEvent::Kind::kReturned) {
        run.returned.push_back(std::move(e));
      } else {
        run.progress.push_back(std::move(e));
      }
    }
  }
  return run;
}

std::unique_ptr<BatchCopier> MakeCopier(
    const std::string& from, const std::string& to,
    std::map<std::string, std::string> source_extra = {},
    std::chrono::milliseconds missing_target = std::chrono::seconds(60)) {
  BatchCopierOptions options;
  options.source = {{"bootstrap.servers", from}, {"client.id", "batch-copier-test"}};
  for (auto& [k, v] : source_extra) options.source[k] = v;
  options.target = {{"bootstrap.servers", to}};
  options.request_timeout = std::chrono::milliseconds(10000);
  options.missing_topic_timeout = missing_target;
  absl::StatusOr<std::unique_ptr<BatchCopier>> copier = BatchCopier::Create(std::move(options));
  EXPECT_TRUE(copier.ok()) << copier.status();
  return copier.ok() ? *std::move(copier) : nullptr;
}

std::vector<testing::TestRecord> Records(int count, int64_t timestamp) {
  std::vector<testing::TestRecord> records;
  for (int i = 0; i < count; ++i) {
    records.push_back({"key-" + std::to_string(i),
                       std::string(200 + i % 70, 'a' + i % 26),
                       {{"seq", std::to_string(i)}},
                       i % 3,
                       timestamp + i,
                       -1});
  }
  return records;
}

TEST_F(BatchCopyTest, CopierCopiesEveryPartitionWithAnExactPairPerBatch) {
  absl::StatusOr<std::string> a = testing::TestKafkaBootstrap("ctest-a");
  absl::StatusOr<std::string> b = testing::TestKafkaBootstrap("ctest-b");
  ASSERT_TRUE(a.ok() && b.ok());
  const std::string source = testing::UniqueName("copier-source");
  const std::string target = testing::UniqueName("copier-target");
  ASSERT_TRUE(testing::CreateTopic(*a, source, 3, {{"compression.type", "lz4"}}).ok());
  ASSERT_TRUE(testing::CreateTopic(*b, target, 3).ok());
  // Timestamps of a minute ago: the brokers delete segments of older records (7-day retention)
  // at their next retention check.
  const int64_t minute_ago = std::chrono::duration_cast<std::chrono::milliseconds>(
                                 std::chrono::system_clock::now().time_since_epoch())
                                 .count() -
                             60000;
  // Something already on the target: downstream offsets differ from upstream ones.
  ASSERT_TRUE(testing::ProduceRecords(*b, target, Records(30, minute_ago - 1000)).ok());
  const std::vector<testing::TestRecord> sent = Records(3000, minute_ago);
  for (size_t first = 0; first < sent.size(); first += 500) {
    ASSERT_TRUE(
        testing::ProduceRecords(*a, source, {sent.begin() + first, sent.begin() + first + 500})
            .ok());
  }

  std::unique_ptr<BatchCopier> copier = MakeCopier(*a, *b);
  ASSERT_NE(copier, nullptr);
  copier->Add({{source, 0, target, 0}, {source, 1, target, 0}, {source, 2, target, 0}});
  CopierRun run = Collect(*copier, [](const CopierRun& r) { return r.acked_records >= 3000; });
  copier->Stop(std::chrono::seconds(5));
  ASSERT_EQ(run.acked_records, 3000);
  EXPECT_TRUE(run.returned.empty());

  // Per partition the acknowledged batches follow each other without a gap, upstream and
  // downstream, from upstream 0 and downstream 10 (the target's 10 earlier records).
  std::map<size_t, std::pair<int64_t, int64_t>> next;  // index -> (upstream, downstream)
  for (size_t i = 0; i < 3; ++i) next[i] = {0, 10};
  for (const BatchCopyEvent& e : run.acked) {
    auto& [upstream, downstream] = next[e.index];
    EXPECT_EQ(e.upstream_first, upstream);
    EXPECT_EQ(e.downstream_base, downstream);
    EXPECT_EQ(e.upstream_last - e.upstream_first + 1, e.record_count);
    EXPECT_EQ(e.position, e.upstream_last + 1);
    EXPECT_GT(e.batch_bytes, 0);
    upstream = e.upstream_last + 1;
    downstream += e.record_count;
  }
  for (size_t i = 0; i < 3; ++i) EXPECT_EQ(next[i].first, 1000) << "partition " << i;

  // Record by record, the target holds the source's records at upstream + 10.
  absl::StatusOr<std::vector<testing::TestRecord>> original = testing::ReadTopic(*a, source, 3000);
  absl::StatusOr<std::vector<testing::TestRecord>> copied = testing::ReadTopic(*b, target, 3030);
  ASSERT_TRUE(original.ok()) << original.status();
  ASSERT_TRUE(copied.ok()) << copied.status();
  std::map<std::pair<int32_t, int64_t>, testing::TestRecord> by_position;
  for (const auto& r : *copied) by_position[{r.partition, r.offset}] = r;
  for (const auto& r : *original) {
    auto it = by_position.find({r.partition, r.offset + 10});
    ASSERT_NE(it, by_position.end()) << r.partition << "@" << r.offset;
    testing::TestRecord expected = r;
    expected.offset += 10;
    EXPECT_EQ(it->second, expected);
  }
}

TEST_F(BatchCopyTest, CopierReturnsWhatNeedsRecords) {
  absl::StatusOr<std::string> a = testing::TestKafkaBootstrap("ctest-a");
  absl::StatusOr<std::string> b = testing::TestKafkaBootstrap("ctest-b");
  ASSERT_TRUE(a.ok() && b.ok());
  const std::string batched = testing::UniqueName("copier-one-batch");
  const std::string log_append = testing::UniqueName("copier-log-append");
  const std::string target = testing::UniqueName("copier-returned-target");
  ASSERT_TRUE(testing::CreateTopic(*a, batched, 1, {{"compression.type", "lz4"}}).ok());
  ASSERT_TRUE(
      testing::CreateTopic(*a, log_append, 1, {{"message.timestamp.type", "LogAppendTime"}}).ok());
  ASSERT_TRUE(testing::CreateTopic(*b, target, 2).ok());
  std::vector<testing::TestRecord> records =
      Records(300, std::chrono::duration_cast<std::chrono::milliseconds>(
                       std::chrono::system_clock::now().time_since_epoch())
                           .count() -
                       60000);
  for (auto& r : records) r.partition = 0;
  ASSERT_TRUE(testing::ProduceRecords(*a, batched, records).ok());  // one lz4 batch
  ASSERT_TRUE(testing::ProduceRecords(*a, log_append, records).ok());

  std::unique_ptr<BatchCopier> copier = MakeCopier(*a, *b);
  ASSERT_NE(copier, nullptr);
  // Offset 120 is inside the first batch; LogAppendTime batches never travel as bytes; a target
  // partition that does not exist is waited for, then returned.
  copier->Add({{batched, 0, target, 120}, {log_append, 0, target, 0}});
  CopierRun run = Collect(*copier, [](const CopierRun& r) { return r.returned.size() >= 2; });
  copier->Stop(std::chrono::seconds(5));
  ASSERT_EQ(run.returned.size(), 2u);
  EXPECT_EQ(run.acked_records, 0);
  for (const BatchCopyEvent& e : run.returned) {
    if (e.index == 0) {
      EXPECT_EQ(e.position, 120);
      EXPECT_GT(e.copy_again_at, 120) << e.reason;
      EXPECT_NE(e.reason.find("inside a source batch"), std::string::npos) << e.reason;
    } else {
      EXPECT_EQ(e.position, 0);
      EXPECT_EQ(e.copy_again_at, -1);
      EXPECT_NE(e.reason.find("LogAppendTime"), std::string::npos) << e.reason;
    }
  }

  // A source topic deleted while it is copied: its partition goes back to the record path
  // (which ends it as the connector's topic refresh says), not retried for ever.
  const std::string doomed = testing::UniqueName("copier-deleted-source");
  ASSERT_TRUE(testing::CreateTopic(*a, doomed, 1).ok());
  ASSERT_TRUE(testing::ProduceRecords(*a, doomed, {records.begin(), records.begin() + 50}).ok());
  std::unique_ptr<BatchCopier> deleted = MakeCopier(*a, *b, {}, std::chrono::seconds(2));
  const std::string deleted_target = testing::UniqueName("copier-deleted-target");
  ASSERT_TRUE(testing::CreateTopic(*b, deleted_target, 1).ok());
  deleted->Add({{doomed, 0, deleted_target, 0}});
  run = Collect(*deleted, [](const CopierRun& r) { return r.acked_records >= 50; });
  ASSERT_EQ(run.acked_records, 50);
  ASSERT_TRUE(testing::DeleteTopic(*a, doomed).ok());
  run = Collect(*deleted, [](const CopierRun& r) { return !r.returned.empty(); });
  deleted->Stop(std::chrono::seconds(1));
  ASSERT_EQ(run.returned.size(), 1u);
  EXPECT_EQ(run.returned[0].error_code, 3);
  EXPECT_EQ(run.returned[0].position, 50);
  EXPECT_NE(run.returned[0].reason.find("the source has no partition 0 of " + doomed),
            std::string::npos)
      << run.returned[0].reason;

  // A target topic that never appears: the partition is returned with Kafka's code 3.
  std::unique_ptr<BatchCopier> missing = MakeCopier(*a, *b, {}, std::chrono::seconds(2));
  missing->Add({{batched, 0, testing::UniqueName("copier-no-such-topic"), 0}});
  run = Collect(*missing, [](const CopierRun& r) { return !r.returned.empty(); });
  missing->Stop(std::chrono::seconds(1));
  ASSERT_EQ(run.returned.size(), 1u);
  EXPECT_EQ(run.returned[0].error_code, 3);
  EXPECT_EQ(run.returned[0].position, 0);
  EXPECT_EQ(run.acked_records, 0);
}

TEST_F(BatchCopyTest, CopierUnderReadCommittedCopiesCommittedTransactionsOnly) {
  absl::StatusOr<std::string> a = testing::TestKafkaBootstrap("ctest-a");
  absl::StatusOr<std::string> b = testing::TestKafkaBootstrap("ctest-b");
  ASSERT_TRUE(a.ok() && b.ok());
  const std::string source = testing::UniqueName("copier-tx-source");
  const std::string target = testing::UniqueName("copier-tx-target");
  ASSERT_TRUE(testing::CreateTopic(*a, source, 1).ok());
  ASSERT_TRUE(testing::CreateTopic(*b, target, 1).ok());
  for (int txn = 0; txn < 3; ++txn) {
    absl::Status produced = ProduceTransaction(*a, source, txn, /*commit=*/txn != 1);
    ASSERT_TRUE(produced.ok()) << produced;
  }
  std::unique_ptr<BatchCopier> copier = MakeCopier(*a, *b, {{"isolation.level", "read_committed"}});
  copier->Add({{source, 0, target, 0}});
  // 20 committed records; then the copy's position passes the last marker: offsets 0-9, COMMIT
  // 10, aborted 11-20, ABORT 21, 22-31, COMMIT 32. A topic that ends in a marker is not one
  // record behind for ever (issue 49).
  CopierRun run = Collect(*copier, [](const CopierRun& r) {
    return r.acked_records >= 20 && !r.progress.empty() && r.progress.back().position >= 33;
  });
  copier->Stop(std::chrono::seconds(5));
  EXPECT_EQ(run.acked_records, 20);
  ASSERT_FALSE(run.progress.empty());
  EXPECT_EQ(run.progress.back().position, 33);
  EXPECT_EQ(run.progress.back().source_end_offset, 33);
  EXPECT_TRUE(run.returned.empty());
  absl::StatusOr<std::vector<testing::TestRecord>> copied = testing::ReadTopic(*b, target, 20);
  ASSERT_TRUE(copied.ok()) << copied.status();
  for (const auto& r : *copied) EXPECT_NE(r.key.substr(0, 3), "t1-") << r.key;
}

// A compression.type the user set for the target producer is honoured (issue 49): batches of
// that codec travel as they are; batches of another codec go to the record path, whose
// producer compresses them.
TEST_F(BatchCopyTest, CopierHonoursTheProducersCompressionType) {
  absl::StatusOr<std::string> a = testing::TestKafkaBootstrap("ctest-a");
  absl::StatusOr<std::string> b = testing::TestKafkaBootstrap("ctest-b");
  ASSERT_TRUE(a.ok() && b.ok());
  const std::string source = testing::UniqueName("copier-lz4");
  const std::string target = testing::UniqueName("copier-codec-target");
  ASSERT_TRUE(testing::CreateTopic(*a, source, 1, {{"compression.type", "lz4"}}).ok());
  ASSERT_TRUE(testing::CreateTopic(*b, target, 1).ok());
  std::vector<testing::TestRecord> records =
      Records(100, std::chrono::duration_cast<std::chrono::milliseconds>(
                       std::chrono::system_clock::now().time_since_epoch())
                           .count() -
                       60000);
  for (auto& r : records) r.partition = 0;
  ASSERT_TRUE(testing::ProduceRecords(*a, source, records).ok());
  auto copier_with = [&](const std::string& codec) {
    BatchCopierOptions options;
    options.source = {{"bootstrap.servers", *a}};
    options.target = {{"bootstrap.servers", *b}, {"compression.type", codec}};
    options.request_timeout = std::chrono::milliseconds(10000);
    absl::StatusOr<std::unique_ptr<BatchCopier>> copier = BatchCopier::Create(std::move(options));
    EXPECT_TRUE(copier.ok()) << copier.status();
    return copier.ok() ? *std::move(copier) : nullptr;
  };

  std::unique_ptr<BatchCopier> zstd = copier_with("zstd");
  ASSERT_NE(zstd, nullptr);
  zstd->Add({{source, 0, target, 0}});
  CopierRun run = Collect(*zstd, [](const CopierRun& r) { return !r.returned.empty(); });
  zstd->Stop(std::chrono::seconds(5));
  ASSERT_EQ(run.returned.size(), 1u);
  EXPECT_EQ(run.acked_records, 0);
  EXPECT_EQ(run.returned[0].position, 0);
  EXPECT_EQ(run.returned[0].copy_again_at, -1);
  EXPECT_NE(
      run.returned[0].reason.find("compression.type is zstd and the source's batches are lz4"),
      std::string::npos)
      << run.returned[0].reason;

  std::unique_ptr<BatchCopier> lz4 = copier_with("lz4");
  ASSERT_NE(lz4, nullptr);
  lz4->Add({{source, 0, target, 0}});
  run = Collect(*lz4, [](const CopierRun& r) { return r.acked_records >= 100; });
  lz4->Stop(std::chrono::seconds(5));
  EXPECT_EQ(run.acked_records, 100);
  EXPECT_TRUE(run.returned.empty());
}

// A batch larger than max.partition.fetch.bytes comes cut off unless it is the first batch of
// the response's first partition (KIP-74); while another partition keeps the first place, the
// copier must still get it whole (before issue 49 the partition made no progress and said
// nothing).
TEST_F(BatchCopyTest, CopierCopiesABatchLargerThanThePartitionFetchSize) {
  absl::StatusOr<std::string> a = testing::TestKafkaBootstrap("ctest-a");
  absl::StatusOr<std::string> b = testing::TestKafkaBootstrap("ctest-b");
  ASSERT_TRUE(a.ok() && b.ok());
  const std::string source = testing::UniqueName("copier-big-batch");
  const std::string target = testing::UniqueName("copier-big-batch-target");
  ASSERT_TRUE(testing::CreateTopic(*a, source, 2).ok());
  ASSERT_TRUE(testing::CreateTopic(*b, target, 2).ok());
  const int64_t minute_ago = std::chrono::duration_cast<std::chrono::milliseconds>(
                                 std::chrono::system_clock::now().time_since_epoch())
                                 .count() -
                             60000;
  std::vector<testing::TestRecord> big = Records(300, minute_ago);  // one ~80 KB batch
  for (auto& r : big) r.partition = 1;
  ASSERT_TRUE(testing::ProduceRecords(*a, source, big).ok());

  // Partition 0 (first in every fetch) gets records all along.
  std::atomic<bool> done{false};
  std::atomic<int> trickled{0};
  std::thread trickle([&] {
    for (int i = 0; !done.load() && i < 600; ++i) {
      std::vector<testing::TestRecord> one = Records(1, minute_ago + 1000 + i);
      one[0].partition = 0;
      if (testing::ProduceRecords(*a, source, one).ok()) ++trickled;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  });
  std::unique_ptr<BatchCopier> copier = MakeCopier(*a, *b, {{"max.partition.fetch.bytes", "4096"}});
  ASSERT_NE(copier, nullptr);
  copier->Add({{source, 0, target, 0}, {source, 1, target, 0}});
  int64_t big_copied = 0;
  CopierRun run = Collect(*copier, [&](const CopierRun& r) {
    big_copied = 0;
    for (const BatchCopyEvent& e : r.acked) {
      if (e.index == 1) big_copied += e.record_count;
    }
    return big_copied >= 300;
  });
  done = true;
  trickle.join();
  copier->Stop(std::chrono::seconds(5));
  EXPECT_EQ(big_copied, 300);
  EXPECT_TRUE(run.returned.empty());
  EXPECT_GT(trickled.load(), 0);
}

}  // namespace
}  // namespace connectd::kafka::protocol
