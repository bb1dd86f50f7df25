// exactly_once_probe: a stand-in zombie for the exactly-once e2e tests.
//   exactly_once_probe BOOTSTRAP TRANSACTIONAL_ID TOPIC KEY
// Initializes a transactional producer with TRANSACTIONAL_ID (InitProducerId, fencing whoever
// held it), commits one transaction with one record (KEY, value "-1") and prints "committed".
// Then, for each line "commit" on stdin, tries another such transaction and prints
// "committed" or "failed: <why>"; exits after a failure or at end of input.
#include <iostream>
#include <string>

#include "runtime/kafka/exactly_once.h"

int main(int argc, char** argv) {
  if (argc != 5) {
    std::cerr << "usage: exactly_once_probe BOOTSTRAP TRANSACTIONAL_ID TOPIC KEY\n";
    return 2;
  }
  const std::string topic = argv[3];
  const std::string key = argv[4];
  auto producer = connectd::kafka::TransactionalProducer::Create({{"bootstrap.servers", argv[1]},
                                                                  {"transactional.id", argv[2]},
                                                                  {"enable.idempotence", "true"},
                                                                  {"acks", "all"}},
                                                                 std::chrono::seconds(60));
  if (!producer.ok()) {
    std::cout << "failed: " << producer.status().message() << std::endl;
    return 1;
  }
  auto commit = [&] {
    return (*producer)->SendInTransaction({{topic, key, std::string("-1")}},
                                          std::chrono::seconds(60));
  };
  absl::Status first = commit();
  std::cout << (first.ok() ? "committed" : "failed: " + std::string(first.message())) << std::endl;
  if (!first.ok()) return 1;
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line != "commit") continue;
    absl::Status next = commit();
    std::cout << (next.ok() ? "committed" : "failed: " + std::string(next.message())) << std::endl;
    if (!next.ok()) return 0;
  }
  return 0;
}
