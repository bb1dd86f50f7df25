// Baseline and probe for end-to-end worker benchmarks (measured, never asserted):
//   kafka_pipe_bench produce BOOTSTRAP TOPIC SECONDS RECORD_SIZE [key=value ...]
//       a plain librdkafka producer writing RECORD_SIZE-byte records as fast as it can for
//       SECONDS (extra librdkafka properties as key=value); prints acknowledged records/s.
//   kafka_pipe_bench watermark BOOTSTRAP TOPIC SECONDS
//       how fast TOPIC grows (sum of high watermarks over its partitions) over SECONDS.
//   kafka_pipe_bench pipe SRC_BOOTSTRAP SRC_TOPIC DST_BOOTSTRAP DST_TOPIC COUNT [key=value ...]
//       the raw replicator: consume SRC_TOPIC from the beginning (assign, no group) and produce
//       every record (key, value, headers, timestamp, same partition) to DST_TOPIC until COUNT
//       records are acknowledged; prints records/s. Producer properties as key=value, except
//       loops=N: N consume->produce loops on N threads, each with its own consumer (the
//       partitions p % N == i) and producer, as N source tasks would.
//   kafka_pipe_bench until BOOTSTRAP TOPIC COUNT
//       waits until TOPIC holds COUNT records; prints the seconds it took.
// For scripts/bench (each runs until SIGTERM/SIGINT unless said otherwise; lines are flushed):
//   kafka_pipe_bench fill BOOTSTRAP TOPIC COUNT RECORD_SIZE [payload=text] [key=value ...]
//       writes exactly COUNT records (null key, record i to partition i % partitions) and
//       waits for every acknowledgement; prints records/s. Exits non-zero if one failed.
//       Values are RECORD_SIZE 'x' bytes, or with payload=text event-like JSON text that
//       differs from record to record (what a compressed workload should compress: about 2-4x
//       with lz4/zstd rather than the hundredfold of a repeated byte).
//   kafka_pipe_bench watch BOOTSTRAP TOPIC INTERVAL_MS
//       every INTERVAL_MS one line `EPOCH_MS HW0 HW1 ...`: the high watermark of each
//       partition (just `EPOCH_MS` while TOPIC does not exist).
//   kafka_pipe_bench hbwatch BOOTSTRAP TOPIC MATCH
//       waits for TOPIC, reads it from the beginning and prints `hb TIMESTAMP_MS ARRIVAL_MS`
//       for every record whose key contains the bytes MATCH (a heartbeat's key holds its
//       cluster aliases): the record's timestamp and the wall clock when it was consumed.
//   kafka_pipe_bench trickle BOOTSTRAP TOPIC RATE RECORD_SIZE
//       writes about RATE records/s round-robin over TOPIC's partitions.
#include <librdkafka/rdkafka.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

rd_kafka_t* Make(rd_kafka_type_t type, const char* bootstrap, int argc, char** argv, int first_kv,
                 void (*dr)(rd_kafka_t*, const rd_kafka_message_t*, void*), void* opaque) {
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  char err[512];
  rd_kafka_conf_set(conf, "bootstrap.servers", bootstrap, err, sizeof(err));
  // Metadata lookups of a topic that does not exist yet must not create it (a producer's
  // default would, with the broker's num.partitions).
  rd_kafka_conf_set(conf, "allow.auto.create.topics", "false", err, sizeof(err));
  for (int i = first_kv; i < argc; ++i) {
    std::string kv = argv[i];
    size_t eq = kv.find('=');
    if (eq == std::string::npos ||
        rd_kafka_conf_set(conf, kv.substr(0, eq).c_str(), kv.substr(eq + 1).c_str(), err,
                          sizeof(err)) != RD_KAFKA_CONF_OK) {
      std::fprintf(stderr, "bad property %s: %s\n", argv[i], err);
      std::exit(2);
    }
  }
  if (dr) rd_kafka_conf_set_dr_msg_cb(conf, dr);
  rd_kafka_conf_set_opaque(conf, opaque);
  rd_kafka_t* rk = rd_kafka_new(type, conf, err, sizeof(err));
  if (!rk) {
    std::fprintf(stderr, "%s\n", err);
    std::exit(1);
  }
  return rk;
}

int64_t TopicSize(rd_kafka_t* rk, const char* topic) {
  const rd_kafka_metadata_t* md = nullptr;
  rd_kafka_topic_t* rkt = rd_kafka_topic_new(rk, topic, nullptr);
  if (rd_kafka_metadata(rk, 0, rkt, &md, 10000) != RD_KAFKA_RESP_ERR_NO_ERROR) {
    rd_kafka_topic_destroy(rkt);
    return -1;
  }
  int64_t total = 0;
  for (int t = 0; t < md->topic_cnt; ++t) {
    for (int p = 0; p < md->topics[t].partition_cnt; ++p) {
      int64_t low = 0, high = 0;
      rd_kafka_query_watermark_offsets(rk, topic, md->topics[t].partitions[p].id, &low, &high,
                                       10000);
      total += high;
    }
  }
  rd_kafka_metadata_destroy(md);
  rd_kafka_topic_destroy(rkt);
  return total;
}

std::atomic<bool> g_stop{false};

void OnSignal(int) { g_stop.store(true); }

int64_t EpochMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// The partition ids of `topic` (empty if it does not exist or metadata failed).
std::vector<int32_t> Partitions(rd_kafka_t* rk, const char* topic) {
  std::vector<int32_t> out;
  const rd_kafka_metadata_t* md = nullptr;
  rd_kafka_topic_t* rkt = rd_kafka_topic_new(rk, topic, nullptr);
  if (rd_kafka_metadata(rk, 0, rkt, &md, 5000) == RD_KAFKA_RESP_ERR_NO_ERROR) {
    if (md->topic_cnt == 1 && md->topics[0].err == RD_KAFKA_RESP_ERR_NO_ERROR) {
      for (int p = 0; p < md->topics[0].partition_cnt; ++p) {
        out.push_back(md->topics[0].partitions[p].id);
      }
    }
    rd_kafka_metadata_destroy(md);
  }
  rd_kafka_topic_destroy(rkt);
  std::sort(out.begin(), out.end());
  return out;
}

// Watch: one line of per-partition high watermarks every interval, until a signal.
int Watch(const char* bootstrap, const char* topic, int interval_ms) {
  rd_kafka_t* rk = Make(RD_KAFKA_PRODUCER, bootstrap, 0, nullptr, 0, nullptr, nullptr);
  std::vector<int32_t> parts;
  for (int64_t n = 0; !g_stop.load(); ++n) {
    auto next = Clock::now() + std::chrono::milliseconds(interval_ms);
    if (parts.empty() || n % 20 == 0) {
      std::vector<int32_t> now = Partitions(rk, topic);
      if (!now.empty()) parts = std::move(now);  // keep the last answer over a failed lookup
    }
    std::string line = std::to_string(EpochMs());
    for (int32_t p : parts) {
      int64_t low = 0, high = -1;
      rd_kafka_query_watermark_offsets(rk, topic, p, &low, &high, 5000);
      line += " " + std::to_string(high);
    }
    std::printf("%s\n", line.c_str());
    std::fflush(stdout);
    std::this_thread::sleep_until(next);
  }
  rd_kafka_destroy(rk);
  return 0;
}

// HbWatch: the arrival of every record whose key contains `match`, from the beginning.
int HbWatch(const char* bootstrap, const char* topic, std::string_view match) {
  const char* kv[] = {"",
                      "group.id=bench-hbwatch",
                      "enable.auto.commit=false",
                      "fetch.wait.max.ms=10",
                      "fetch.error.backoff.ms=50",
                      "auto.offset.reset=earliest",
                      "topic.metadata.refresh.fast.interval.ms=50"};
  rd_kafka_t* rk =
      Make(RD_KAFKA_CONSUMER, bootstrap, 7, const_cast<char**>(kv), 1, nullptr, nullptr);
  rd_kafka_poll_set_consumer(rk);
  std::vector<int32_t> parts;
  while (!g_stop.load() && (parts = Partitions(rk, topic)).empty()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  // Offset 0, not OFFSET_BEGINNING: a topic created a moment ago may have no leader yet, and
  // librdkafka then retries the beginning's offset query only after 500 ms, which a start-up
  // measure would count (auto.offset.reset=earliest covers a topic that no longer starts at 0).
  rd_kafka_topic_partition_list_t* list = rd_kafka_topic_partition_list_new(1);
  for (int32_t p : parts) rd_kafka_topic_partition_list_add(list, topic, p)->offset = 0;
  rd_kafka_assign(rk, list);
  rd_kafka_topic_partition_list_destroy(list);
  while (!g_stop.load()) {
    rd_kafka_message_t* m = rd_kafka_consumer_poll(rk, 100);
    if (m == nullptr) continue;
    int64_t arrival = EpochMs();
    if (!m->err && m->key != nullptr &&
        std::string_view(static_cast<const char*>(m->key), m->key_len).find(match) !=
            std::string_view::npos) {
      std::printf("hb %lld %lld\n", static_cast<long long>(rd_kafka_message_timestamp(m, nullptr)),
                  static_cast<long long>(arrival));
      std::fflush(stdout);
    }
    rd_kafka_message_destroy(m);
  }
  rd_kafka_destroy(rk);
  return 0;
}

// The values fill writes, used round-robin: one of `size` 'x' bytes, or 4096 event-like JSON
// texts of `size` bytes (ids, names, numbers and a hex token drawn from a fixed-seed generator,
// so every run writes the same bytes).
std::vector<std::string> FillPayloads(size_t size, bool text) {
  if (!text) return {std::string(size, 'x')};
  static const char* const kEvents[] = {"page_view", "click", "add_to_cart",
                                        "checkout",  "login", "search"};
  static const char* const kCountries[] = {"DE", "FR", "US", "BR", "IN", "JP", "NG", "SE"};
  uint64_t state = 0x9e3779b97f4a7c15ULL;
  auto next = [&state] {  // xorshift64*
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 0x2545f4914f6cdd1dULL;
  };
  std::vector<std::string> out;
  for (int i = 0; i < 4096; ++i) {
    std::string v;
    while (v.size() < size) {
      char item[256];
      uint64_t r = next();
      std::snprintf(item, sizeof(item),
                    "{\"user_id\":%llu,\"event\":\"%s\",\"country\":\"%s\",\"amount\":%llu.%02llu,"
                    "\"session\":\"%016llx\",\"ts\":%llu}",
                    static_cast<unsigned long long>(r % 1000000), kEvents[(r >> 20) % 6],
                    kCountries[(r >> 24) % 8], static_cast<unsigned long long>((r >> 28) % 500),
                    static_cast<unsigned long long>((r >> 40) % 100),
                    static_cast<unsigned long long>(next()),
                    static_cast<unsigned long long>(1764979200000ULL + (r >> 44) % 86400000));
      v += item;
    }
    v.resize(size);
    out.push_back(std::move(v));
  }
  return out;
}

// Fill: exactly `count` records, partition i % partitions, all acknowledged.
int Fill(const char* bootstrap, const char* topic, int64_t count, size_t size, int argc,
         char** argv) {
  // payload=text (the first property only) is fill's own; the rest configure the producer.
  bool text = false;
  if (argc > 6 && std::strcmp(argv[6], "payload=text") == 0) {
    text = true;
  }
  const int first_kv = text ? 7 : 6;
  struct Acks {
    std::atomic<int64_t> ok{0}, failed{0};
  } acks;
  auto dr = [](rd_kafka_t*, const rd_kafka_message_t* m, void* opaque) {
    auto* a = static_cast<Acks*>(opaque);
    (m->err ? a->failed : a->ok).fetch_add(1);
  };
  rd_kafka_t* rk = Make(RD_KAFKA_PRODUCER, bootstrap, argc, argv, first_kv, dr, &acks);
  // A topic created a moment ago may have no leaders yet: wait up to 30 s for them.
  std::vector<int32_t> parts = Partitions(rk, topic);
  for (auto deadline = Clock::now() + std::chrono::seconds(30);
       parts.empty() && Clock::now() < deadline; parts = Partitions(rk, topic)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  if (parts.empty()) {
    std::fprintf(stderr, "fill: topic %s not found on %s in 30 s\n", topic, bootstrap);
    return 1;
  }
  std::vector<std::string> payloads = FillPayloads(size, text);
  auto t0 = Clock::now();
  for (int64_t i = 0; i < count; ++i) {
    const std::string& payload = payloads[static_cast<size_t>(i) % payloads.size()];
    while (rd_kafka_producev(rk, RD_KAFKA_V_TOPIC(topic),
                             RD_KAFKA_V_PARTITION(parts[static_cast<size_t>(i) % parts.size()]),
                             RD_KAFKA_V_VALUE(const_cast<char*>(payload.data()), payload.size()),
                             RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
                             RD_KAFKA_V_END) == RD_KAFKA_RESP_ERR__QUEUE_FULL) {
      rd_kafka_poll(rk, 10);
    }
    rd_kafka_poll(rk, 0);
  }
  rd_kafka_flush(rk, 120000);
  double elapsed = std::chrono::duration<double>(Clock::now() - t0).count();
  rd_kafka_destroy(rk);
  if (acks.ok.load() != count) {
    std::fprintf(stderr, "fill: %lld of %lld records acknowledged (%lld failed)\n",
                 static_cast<long long>(acks.ok.load()), static_cast<long long>(count),
                 static_cast<long long>(acks.failed.load()));
    return 1;
  }
  std::printf("%.0f\n", count / elapsed);
  return 0;
}

// Trickle: about `rate` records/s round-robin over the partitions, until a signal.
int Trickle(const char* bootstrap, const char* topic, double rate, size_t size) {
  rd_kafka_t* rk = Make(RD_KAFKA_PRODUCER, bootstrap, 0, nullptr, 0, nullptr, nullptr);
  std::vector<int32_t> parts = Partitions(rk, topic);
  if (parts.empty() || rate <= 0) {
    std::fprintf(stderr, "trickle: topic %s not found on %s (or rate <= 0)\n", topic, bootstrap);
    return 1;
  }
  std::string payload(size, 'x');
  auto t0 = Clock::now();
  for (int64_t i = 0; !g_stop.load(); ++i) {
    std::this_thread::sleep_until(t0 + std::chrono::duration<double>(i / rate));
    rd_kafka_producev(rk, RD_KAFKA_V_TOPIC(topic),
                      RD_KAFKA_V_PARTITION(parts[static_cast<size_t>(i) % parts.size()]),
                      RD_KAFKA_V_VALUE(payload.data(), payload.size()),
                      RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_END);
    rd_kafka_poll(rk, 0);
  }
  rd_kafka_flush(rk, 10000);
  rd_kafka_destroy(rk);
  return 0;
}

// One consume->produce loop over the partitions p of `topic` with p % loops == index (assign
// from the beginning, no group), until `acked` (shared by the loops) reaches `count`.
void PipeLoop(int index, int loops, const char* bootstrap, const char* topic,
              const char* dst_bootstrap, const char* dst_topic, int64_t count,
              std::vector<char*> producer_kv, std::atomic<int64_t>* acked) {
  auto dr = [](rd_kafka_t*, const rd_kafka_message_t* m, void* opaque) {
    if (!m->err) static_cast<std::atomic<int64_t>*>(opaque)->fetch_add(1);
    rd_kafka_message_destroy(static_cast<rd_kafka_message_t*>(m->_private));
  };
  rd_kafka_t* producer =
      Make(RD_KAFKA_PRODUCER, dst_bootstrap, static_cast<int>(producer_kv.size()),
           producer_kv.data(), 0, dr, acked);
  const char* group_kv[] = {"group.id=raw-pipe", "enable.auto.commit=false"};
  rd_kafka_t* consumer =
      Make(RD_KAFKA_CONSUMER, bootstrap, 2, const_cast<char**>(group_kv), 0, nullptr, nullptr);
  rd_kafka_poll_set_consumer(consumer);
  rd_kafka_topic_partition_list_t* parts = rd_kafka_topic_partition_list_new(16);
  for (int32_t p : Partitions(consumer, topic)) {
    if (p % loops != index) continue;
    rd_kafka_topic_partition_list_add(parts, topic, p)->offset = RD_KAFKA_OFFSET_BEGINNING;
  }
  rd_kafka_assign(consumer, parts);
  rd_kafka_topic_partition_list_destroy(parts);
  while (acked->load() < count) {
    rd_kafka_message_t* m = rd_kafka_consumer_poll(consumer, 100);
    if (m == nullptr) {
      rd_kafka_poll(producer, 0);
      continue;
    }
    if (m->err) {
      rd_kafka_message_destroy(m);
      continue;
    }
    rd_kafka_headers_t* headers = nullptr;
    rd_kafka_headers_t* copy = nullptr;
    if (rd_kafka_message_headers(m, &headers) == RD_KAFKA_RESP_ERR_NO_ERROR) {
      copy = rd_kafka_headers_copy(headers);
    }
    // No copy of key or value: the consumed message lives until its delivery report.
    while (rd_kafka_producev(producer, RD_KAFKA_V_TOPIC(dst_topic),
                             RD_KAFKA_V_PARTITION(m->partition), RD_KAFKA_V_KEY(m->key, m->key_len),
                             RD_KAFKA_V_VALUE(m->payload, m->len),
                             RD_KAFKA_V_TIMESTAMP(rd_kafka_message_timestamp(m, nullptr)),
                             RD_KAFKA_V_HEADERS(copy), RD_KAFKA_V_OPAQUE(m),
                             RD_KAFKA_V_END) == RD_KAFKA_RESP_ERR__QUEUE_FULL) {
      rd_kafka_poll(producer, 10);
    }
    rd_kafka_poll(producer, 0);
  }
  rd_kafka_consumer_close(consumer);
  rd_kafka_destroy(consumer);
  rd_kafka_flush(producer, 10000);
  rd_kafka_destroy(producer);
}

// Pipe: `loops=N` among the key=value arguments (default 1) runs N loops on N threads, each
// with its own consumer and producer, like N source tasks; the rest are producer properties.
int Pipe(const char* bootstrap, const char* topic, const char* dst_bootstrap, const char* dst_topic,
         int64_t count, int argc, char** argv) {
  int loops = 1;
  std::vector<char*> producer_kv;
  for (int i = 7; i < argc; ++i) {
    if (std::strncmp(argv[i], "loops=", 6) == 0) {
      loops = std::max(1, std::atoi(argv[i] + 6));
    } else {
      producer_kv.push_back(argv[i]);
    }
  }
  std::atomic<int64_t> acked{0};
  auto t0 = Clock::now();
  std::vector<std::thread> threads;
  for (int i = 0; i < loops; ++i) {
    threads.emplace_back(PipeLoop, i, loops, bootstrap, topic, dst_bootstrap, dst_topic, count,
                         producer_kv, &acked);
  }
  for (std::thread& t : threads) t.join();
  double elapsed = std::chrono::duration<double>(Clock::now() - t0).count();
  std::printf("%.0f\n", count / elapsed);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::signal(SIGTERM, OnSignal);
  std::signal(SIGINT, OnSignal);
  if (argc >= 5 && std::strcmp(argv[1], "watch") == 0) {
    return Watch(argv[2], argv[3], std::atoi(argv[4]));
  }
  if (argc >= 5 && std::strcmp(argv[1], "hbwatch") == 0) {
    return HbWatch(argv[2], argv[3], argv[4]);
  }
  if (argc >= 6 && std::strcmp(argv[1], "fill") == 0) {
    return Fill(argv[2], argv[3], std::atoll(argv[4]), static_cast<size_t>(std::atoll(argv[5])),
                argc, argv);
  }
  if (argc >= 6 && std::strcmp(argv[1], "trickle") == 0) {
    return Trickle(argv[2], argv[3], std::atof(argv[4]), static_cast<size_t>(std::atoll(argv[5])));
  }
  if (argc < 5) {
    std::fprintf(stderr,
                 "usage: %s produce|watermark|pipe|until|fill|watch|hbwatch|trickle "
                 "BOOTSTRAP TOPIC ... (see the top of tests/bench/kafka_pipe_bench.cc)\n",
                 argv[0]);
    return 2;
  }
  std::string mode = argv[1];
  const char* bootstrap = argv[2];
  const char* topic = argv[3];
  double seconds = std::atof(argv[4]);
  if (mode == "watermark") {
    rd_kafka_t* rk = Make(RD_KAFKA_PRODUCER, bootstrap, 0, nullptr, 0, nullptr, nullptr);
    int64_t start = TopicSize(rk, topic);
    auto t0 = Clock::now();
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
    int64_t end = TopicSize(rk, topic);
    double elapsed = std::chrono::duration<double>(Clock::now() - t0).count();
    std::printf("%.0f\n", (end - start) / elapsed);
    rd_kafka_destroy(rk);
    return 0;
  }
  if (mode == "until") {
    rd_kafka_t* rk = Make(RD_KAFKA_PRODUCER, bootstrap, 0, nullptr, 0, nullptr, nullptr);
    int64_t target = std::atoll(argv[4]);
    auto t0 = Clock::now();
    while (TopicSize(rk, topic) < target)
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    std::printf("%.3f\n", std::chrono::duration<double>(Clock::now() - t0).count());
    rd_kafka_destroy(rk);
    return 0;
  }
  if (mode == "pipe" && argc >= 7) {
    return Pipe(bootstrap, topic, argv[4], argv[5], std::atoll(argv[6]), argc, argv);
  }
  if (mode != "produce" || argc < 6) return 2;
  size_t size = static_cast<size_t>(std::atoi(argv[5]));
  std::atomic<int64_t> acked{0};
  auto dr = [](rd_kafka_t*, const rd_kafka_message_t* m, void* opaque) {
    if (!m->err) static_cast<std::atomic<int64_t>*>(opaque)->fetch_add(1);
  };
  rd_kafka_t* rk = Make(RD_KAFKA_PRODUCER, bootstrap, argc, argv, 6, dr, &acked);
  std::string payload(size, 'x');
  auto t0 = Clock::now();
  auto deadline = t0 + std::chrono::duration<double>(seconds);
  while (Clock::now() < deadline) {
    rd_kafka_resp_err_t err = rd_kafka_producev(rk, RD_KAFKA_V_TOPIC(topic),
                                                RD_KAFKA_V_VALUE(payload.data(), payload.size()),
                                                RD_KAFKA_V_MSGFLAGS(0), RD_KAFKA_V_END);
    if (err == RD_KAFKA_RESP_ERR__QUEUE_FULL) {
      rd_kafka_poll(rk, 10);
    } else {
      rd_kafka_poll(rk, 0);
    }
  }
  int64_t at_deadline = acked.load();
  double elapsed = std::chrono::duration<double>(Clock::now() - t0).count();
  rd_kafka_purge(rk, RD_KAFKA_PURGE_F_QUEUE);
  rd_kafka_flush(rk, 10000);
  std::printf("%.0f\n", at_deadline / elapsed);
  rd_kafka_destroy(rk);
  return 0;
}
