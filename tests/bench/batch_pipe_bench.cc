// The pass-through engine's first measure (issue 31), outside the worker: copy every partition
// of a topic from one cluster to another as record batches, never decoding a record.
//   batch_pipe_bench SRC_BOOTSTRAP SRC_TOPIC DST_BOOTSTRAP DST_TOPIC COUNT
// Fetches all of SRC_TOPIC's partitions from the beginning in one Fetch request per round
// (read_committed, 1 MiB per partition), stamps each whole batch for an idempotent producer id
// of the target (record_batch.h) and produces them to the same partitions of DST_TOPIC
// (acks=all; one batch per partition per request, as Kafka requires of an idempotent producer;
// up to 5 requests in flight), the next fetch already in flight; stops once
// COUNT records are acknowledged and prints `records/s CPU-seconds batches`. Single-broker
// clusters only (every partition's leader is the bootstrap broker); control batches are
// skipped, anything else that cannot be copied as bytes (LogAppendTime, offset gaps) aborts.
// Measured, never asserted.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <deque>
#include <future>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/executor_work_guard.hpp>

#include "runtime/kafka/protocol/broker_connection.h"
#include "runtime/kafka/protocol/data_messages.h"
#include "runtime/kafka/protocol/record_batch.h"

namespace kp = connectd::kafka::protocol;

namespace {

int Fail(const std::string& what) {
  std::fprintf(stderr, "batch_pipe_bench: %s\n", what.c_str());
  return 1;
}

double CpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec +
         (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

class Broker {
 public:
  Broker(boost::asio::io_context& io, const std::string& bootstrap) {
    const size_t colon = bootstrap.rfind(':');
    kp::BrokerConnection::Options options;
    options.host = bootstrap.substr(0, colon);
    options.port = static_cast<uint16_t>(std::stoi(bootstrap.substr(colon + 1)));
    options.client_id = "connectd-batch-pipe";
    connection_ = kp::BrokerConnection::Create(io, options);
  }
  absl::Status Connect() {
    std::promise<absl::Status> done;
    connection_->Connect([&done](absl::Status s) { done.set_value(s); });
    return done.get_future().get();
  }
  // Sends a request; the body arrives through the future.
  std::future<absl::StatusOr<std::string>> Send(kp::ApiKey key, std::string body) {
    auto done = std::make_shared<std::promise<absl::StatusOr<std::string>>>();
    auto future = done->get_future();
    connection_->Send(
        key, [body = std::move(body)](int16_t) { return body; },
        [done](absl::StatusOr<std::string> response, int16_t) {
          done->set_value(std::move(response));
        });
    return future;
  }
  void Close() { connection_->Close(); }

 private:
  std::shared_ptr<kp::BrokerConnection> connection_;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 6) {
    std::fprintf(stderr,
                 "usage: batch_pipe_bench SRC_BOOTSTRAP SRC_TOPIC DST_BOOTSTRAP DST_TOPIC "
                 "COUNT\n");
    return 2;
  }
  const std::string source_topic = argv[2], target_topic = argv[4];
  const int64_t count = std::atoll(argv[5]);
  boost::asio::io_context io;
  auto work = boost::asio::make_work_guard(io);
  std::thread io_thread([&io] { io.run(); });
  auto finish = [&](int code) {
    work.reset();
    io.stop();
    io_thread.join();
    return code;
  };
  Broker source(io, argv[1]), target(io, argv[3]);
  if (absl::Status s = source.Connect(); !s.ok()) return finish(Fail(std::string(s.message())));
  if (absl::Status s = target.Connect(); !s.ok()) return finish(Fail(std::string(s.message())));

  absl::StatusOr<std::string> body =
      source.Send(kp::ApiKey::kMetadata, kp::MetadataRequest{{source_topic}}.Encode()).get();
  if (!body.ok()) return finish(Fail(std::string(body.status().message())));
  absl::StatusOr<kp::MetadataResponse> metadata = kp::MetadataResponse::Decode(*body);
  if (!metadata.ok() || metadata->topics.empty() || metadata->topics[0].error_code != 0) {
    return finish(Fail("no metadata for " + source_topic));
  }
  const size_t partitions = metadata->topics[0].partitions.size();

  absl::StatusOr<kp::InitProducerIdResponse> id = absl::UnavailableError("not asked");
  for (int attempt = 0; attempt < 300; ++attempt) {
    body = target.Send(kp::ApiKey::kInitProducerId, kp::InitProducerIdRequest{}.Encode()).get();
    if (!body.ok()) return finish(Fail(std::string(body.status().message())));
    id = kp::InitProducerIdResponse::Decode(*body);
    if (!id.ok()) return finish(Fail(std::string(id.status().message())));
    if (id->error_code == 0) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  if (id->error_code != 0)
    return finish(Fail("InitProducerId: error " + std::to_string(id->error_code)));

  std::vector<int64_t> next_offset(partitions, 0);
  std::vector<int32_t> sequence(partitions, 0);
  auto fetch_request = [&] {
    kp::FetchRequest fetch;
    fetch.max_wait_ms = 100;
    fetch.topics = {{source_topic, {}}};
    for (size_t p = 0; p < partitions; ++p) {
      fetch.topics[0].partitions.push_back({static_cast<int32_t>(p), -1, next_offset[p], 1 << 20});
    }
    return source.Send(kp::ApiKey::kFetch, fetch.Encode());
  };

  const auto start = std::chrono::steady_clock::now();
  const double cpu_start = CpuSeconds();
  int64_t fetched_records = 0, acked = 0, batches = 0;
  std::vector<std::future<absl::StatusOr<std::string>>> in_flight;  // produces, oldest first
  std::vector<int64_t> in_flight_records;
  auto await_oldest = [&]() -> absl::Status {
    absl::StatusOr<std::string> response = in_flight.front().get();
    if (!response.ok()) return response.status();
    absl::StatusOr<kp::ProduceResponse> produced = kp::ProduceResponse::Decode(*response);
    if (!produced.ok()) return produced.status();
    for (const auto& t : produced->topics) {
      for (const auto& p : t.partitions) {
        if (p.error_code != 0) {
          std::string why = p.error_message.value_or("");
          for (const auto& e : p.record_errors) {
            why += " [batch record " + std::to_string(e.batch_index) + ": " +
                   e.message.value_or("") + "]";
          }
          return absl::InternalError("produce to partition " + std::to_string(p.partition) +
                                     ": error " + std::to_string(p.error_code) + " " + why);
        }
      }
    }
    acked += in_flight_records.front();
    in_flight.erase(in_flight.begin());
    in_flight_records.erase(in_flight_records.begin());
    return absl::OkStatus();
  };

  // Kafka takes one batch per partition in a Produce request from an idempotent producer: the
  // batches wait per partition, and each request carries the next one of every partition.
  std::vector<std::deque<std::pair<std::string, int32_t>>> queued(partitions);  // batch, records
  size_t queued_batches = 0;
  auto send_produce = [&] {
    kp::ProduceRequest produce;
    produce.topics = {{target_topic, {}}};
    int64_t records = 0;
    for (size_t p = 0; p < partitions; ++p) {
      if (queued[p].empty()) continue;
      records += queued[p].front().second;
      produce.topics[0].partitions.push_back(
          {static_cast<int32_t>(p), std::move(queued[p].front().first)});
      queued[p].pop_front();
      --queued_batches;
    }
    in_flight.push_back(target.Send(kp::ApiKey::kProduce, produce.Encode()));
    in_flight_records.push_back(records);
  };

  auto pending_fetch = fetch_request();
  while (acked < count) {
    // Keep up to 5 produce requests in flight (idempotence keeps them in order per partition).
    while (queued_batches > 0 && in_flight.size() < 5) send_produce();
    if (fetched_records >= count || queued_batches > 4 * partitions) {
      if (in_flight.empty()) return finish(Fail("nothing in flight"));
      if (absl::Status s = await_oldest(); !s.ok()) return finish(Fail(std::string(s.message())));
      continue;
    }
    absl::StatusOr<std::string> fetch_body = pending_fetch.get();
    if (!fetch_body.ok()) return finish(Fail(std::string(fetch_body.status().message())));
    absl::StatusOr<kp::FetchResponse> fetched = kp::FetchResponse::Decode(*fetch_body);
    if (!fetched.ok()) return finish(Fail(std::string(fetched.status().message())));
    for (const auto& p : fetched->topics.at(0).partitions) {
      if (p.error_code != 0) return finish(Fail("fetch error " + std::to_string(p.error_code)));
      if (!p.records || p.records->empty()) continue;
      absl::StatusOr<kp::SplitBatches> split = kp::SplitRecordBatches(*p.records);
      if (!split.ok()) return finish(Fail(std::string(split.status().message())));
      std::vector<kp::ReadCommittedFilter::Aborted> aborted;
      if (p.aborted_transactions) {
        for (const kp::FetchResponse::AbortedTransaction& a : *p.aborted_transactions) {
          aborted.push_back(kp::ReadCommittedFilter::Aborted{a.producer_id, a.first_offset});
        }
      }
      kp::ReadCommittedFilter read_committed(std::move(aborted));
      for (std::string_view batch : split->batches) {
        absl::StatusOr<kp::RecordBatchHeader> h = kp::ParseRecordBatchHeader(batch);
        if (!h.ok()) return finish(Fail(std::string(h.status().message())));
        next_offset[p.partition] = h->last_offset() + 1;
        if (!read_committed.Copy(*h, batch)) continue;  // markers, aborted transactions
        if (auto why = kp::PassThroughObstacle(*h)) return finish(Fail(*why));
        std::string stamped(batch);
        kp::StampForProduce(stamped,
                            {id->producer_id, id->producer_epoch, sequence[p.partition], false});
        sequence[p.partition] += h->record_count;
        queued[p.partition].emplace_back(std::move(stamped), h->record_count);
        ++queued_batches;
        fetched_records += h->record_count;
        ++batches;
      }
    }
    pending_fetch = fetch_request();  // the next fetch overlaps the produces
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double cpu = CpuSeconds() - cpu_start;
  std::printf("%.0f records/s %.3f cpu_s %lld batches %lld records\n", acked / seconds, cpu,
              static_cast<long long>(batches), static_cast<long long>(acked));
  pending_fetch.wait();
  source.Close();
  target.Close();
  return finish(0);
}
