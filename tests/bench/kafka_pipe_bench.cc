// Baseline and probe for end-to-end worker benchmarks (measured, never asserted):
//   kafka_pipe_bench produce BOOTSTRAP TOPIC SECONDS RECORD_SIZE [key=value ...]
//       a plain librdkafka producer writing RECORD_SIZE-byte records as fast as it can for
//       SECONDS (extra librdkafka properties as key=value); prints acknowledged records/s.
//   kafka_pipe_bench watermark BOOTSTRAP TOPIC SECONDS
//       how fast TOPIC grows (sum of high watermarks over its partitions) over SECONDS.
//   kafka_pipe_bench pipe SRC_BOOTSTRAP SRC_TOPIC DST_BOOTSTRAP DST_TOPIC COUNT [key=value ...]
//       the raw replicator: consume SRC_TOPIC from the beginning (assign, no group) and produce
//       every record (key, value, headers, timestamp, same partition) to DST_TOPIC until COUNT
//       records are acknowledged; prints records/s. Producer properties as key=value.
//   kafka_pipe_bench until BOOTSTRAP TOPIC COUNT
//       waits until TOPIC holds COUNT records; prints the seconds it took.
#include <librdkafka/rdkafka.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

namespace {

using Clock = std::chrono::steady_clock;

rd_kafka_t* Make(rd_kafka_type_t type, const char* bootstrap, int argc, char** argv, int first_kv,
                 void (*dr)(rd_kafka_t*, const rd_kafka_message_t*, void*), void* opaque) {
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  char err[512];
  rd_kafka_conf_set(conf, "bootstrap.servers", bootstrap, err, sizeof(err));
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

}  // namespace

int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: %s produce|watermark BOOTSTRAP TOPIC SECONDS [SIZE k=v...]\n",
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
    while (TopicSize(rk, topic) < target) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    std::printf("%.3f\n", std::chrono::duration<double>(Clock::now() - t0).count());
    rd_kafka_destroy(rk);
    return 0;
  }
  if (mode == "pipe" && argc >= 7) {
    const char* dst_bootstrap = argv[4];
    const char* dst_topic = argv[5];
    int64_t count = std::atoll(argv[6]);
    std::atomic<int64_t> acked{0};
    auto dr = [](rd_kafka_t*, const rd_kafka_message_t* m, void* opaque) {
      if (!m->err) static_cast<std::atomic<int64_t>*>(opaque)->fetch_add(1);
      rd_kafka_message_destroy(static_cast<rd_kafka_message_t*>(m->_private));
    };
    rd_kafka_t* producer = Make(RD_KAFKA_PRODUCER, dst_bootstrap, argc, argv, 7, dr, &acked);
    const char* group_kv[] = {"", "group.id=raw-pipe", "enable.auto.commit=false"};
    rd_kafka_t* consumer = Make(RD_KAFKA_CONSUMER, bootstrap, 3, const_cast<char**>(group_kv), 1,
                                nullptr, nullptr);
    rd_kafka_poll_set_consumer(consumer);
    const rd_kafka_metadata_t* md = nullptr;
    rd_kafka_topic_t* rkt = rd_kafka_topic_new(consumer, topic, nullptr);
    rd_kafka_metadata(consumer, 0, rkt, &md, 10000);
    rd_kafka_topic_destroy(rkt);
    rd_kafka_topic_partition_list_t* parts = rd_kafka_topic_partition_list_new(16);
    for (int p = 0; p < md->topics[0].partition_cnt; ++p) {
      rd_kafka_topic_partition_list_add(parts, topic, md->topics[0].partitions[p].id)->offset =
          RD_KAFKA_OFFSET_BEGINNING;
    }
    rd_kafka_metadata_destroy(md);
    rd_kafka_assign(consumer, parts);
    rd_kafka_topic_partition_list_destroy(parts);
    auto t0 = Clock::now();
    while (acked.load() < count) {
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
    double elapsed = std::chrono::duration<double>(Clock::now() - t0).count();
    std::printf("%.0f\n", count / elapsed);
    rd_kafka_consumer_close(consumer);
    rd_kafka_destroy(consumer);
    rd_kafka_flush(producer, 10000);
    rd_kafka_destroy(producer);
    return 0;
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
