#include "runtime/main/dev_kafka_command.h"

#include <signal.h>

#include <cstdio>
#include <iostream>
#include <memory>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "runtime/kafka/mock_cluster.h"

namespace connectd::main {
namespace {

constexpr char kUsage[] =
    "usage: connectd dev-kafka [--clusters A,B] [--brokers N] [--topic NAME[:PARTITIONS]]...\n"
    "\n"
    "Runs in-memory Kafka clusters (librdkafka's mock cluster) on random loopback ports and\n"
    "prints one line per cluster: `<alias> bootstrap=HOST:PORT[,...]`. Runs until Ctrl-C.\n"
    "The mock cannot create topics through the Admin API: pass --topic to create them.\n"
    "Limits: no configs, ACLs, group listing, compaction or persistence; ~5 MiB per partition.\n";

struct Options {
  std::vector<std::string> clusters{"A"};
  int brokers = 1;
  std::vector<std::pair<std::string, int>> topics;
};

bool ParseOptions(const std::vector<std::string>& args, Options& options, std::string& error) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    auto next = [&]() -> const std::string* {
      if (i + 1 >= args.size()) {
        error = arg + " needs a value";
        return nullptr;
      }
      return &args[++i];
    };
    if (arg == "--clusters") {
      const std::string* value = next();
      if (value == nullptr) return false;
      options.clusters = absl::StrSplit(*value, ',', absl::SkipEmpty());
      if (options.clusters.empty()) {
        error = "--clusters needs at least one alias";
        return false;
      }
    } else if (arg == "--brokers") {
      const std::string* value = next();
      if (value == nullptr) return false;
      if (!absl::SimpleAtoi(*value, &options.brokers) || options.brokers < 1 ||
          options.brokers > 9) {
        error = "--brokers takes a number from 1 to 9";
        return false;
      }
    } else if (arg == "--topic") {
      const std::string* value = next();
      if (value == nullptr) return false;
      std::vector<std::string> parts = absl::StrSplit(*value, ':');
      int partitions = 1;
      if (parts[0].empty() || parts.size() > 2 ||
          (parts.size() == 2 && (!absl::SimpleAtoi(parts[1], &partitions) || partitions < 1))) {
        error = "--topic takes NAME or NAME:PARTITIONS, got '" + *value + "'";
        return false;
      }
      options.topics.emplace_back(parts[0], partitions);
    } else {
      error = "unknown option '" + arg + "'";
      return false;
    }
  }
  return true;
}

}  // namespace

int RunDevKafka(const std::vector<std::string>& args) {
  Options options;
  std::string error;
  if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
    std::cout << kUsage;
    return 0;
  }
  if (!ParseOptions(args, options, error)) {
    std::cerr << "connectd dev-kafka: " << error << "\n\n" << kUsage;
    return 2;
  }

  // Block the stop signals before librdkafka starts its threads, then wait for them here.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  std::vector<std::unique_ptr<kafka::MockKafkaCluster>> clusters;
  for (const std::string& alias : options.clusters) {
    auto cluster = kafka::MockKafkaCluster::Start(options.brokers);
    if (!cluster.ok()) {
      std::cerr << "connectd dev-kafka: cluster " << alias << ": " << cluster.status() << "\n";
      return 1;
    }
    for (const auto& [topic, partitions] : options.topics) {
      absl::Status created = (*cluster)->CreateTopic(topic, partitions, 1);
      if (!created.ok()) {
        std::cerr << "connectd dev-kafka: cluster " << alias << ": " << created << "\n";
        return 1;
      }
    }
    std::cout << alias << " bootstrap=" << (*cluster)->bootstrap_servers() << std::endl;
    clusters.push_back(*std::move(cluster));
  }
  std::cerr << "mock clusters running; Ctrl-C to stop" << std::endl;
  int signal_number = 0;
  sigwait(&stop_signals, &signal_number);
  std::cerr << "stopping mock clusters" << std::endl;
  return 0;
}

}  // namespace connectd::main
