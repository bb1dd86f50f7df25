// The connectd binary: the only code outside a library. It dispatches to one command.
#include <iostream>
#include <string>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "jvm/kerberos_login.h"
#include "runtime/common/logging.h"
#include "runtime/main/dev_kafka_command.h"
#include "runtime/main/distributed_command.h"
#include "runtime/main/doctor_command.h"
#include "runtime/main/health_command.h"
#include "runtime/main/java_options.h"
#include "runtime/main/log_setup.h"
#include "runtime/main/mirror_command.h"
#include "runtime/main/mirror_maker_command.h"
#include "runtime/main/plugins_command.h"
#include "runtime/main/properties_from_env_command.h"
#include "runtime/main/standalone_command.h"
#include "runtime/main/version_command.h"

namespace {

constexpr char kUsage[] =
    "usage: connectd [-Dname=value]... [logging options] <command> [args]\n"
    "\n"
    "commands:\n"
    "  dev-kafka [--clusters A,B]   in-memory Kafka clusters for demos (librdkafka mock)\n"
    "  standalone worker.properties [connector.properties|.json]...\n"
    "                               a standalone worker (as connect-standalone.sh)\n"
    "  distributed worker.properties\n"
    "                               a worker of a distributed cluster (as connect-distributed.sh)\n"
    "  mirror-maker mm2.properties [--clusters A B ...]\n"
    "                               dedicated MirrorMaker 2 (as connect-mirror-maker.sh)\n"
    "  mirror translate-offsets|failover --group G --source A (--config mm2.properties --target B\n"
    "         | --bootstrap-server HOST:PORT [--command-config FILE]) [--dry-run] [--json]\n"
    "                               a consumer group's offsets on the target, from the\n"
    "                               checkpoints there; failover commits them (DR runbook)\n"
    "  plugins [--plugin-path DIRS] list the connector plugins installed, or found on a "
    "plugin.path\n"
    "  doctor --url http://HOST:PORT [--json] [--flow A->B]\n"
    "                               what is wrong with each MirrorMaker flow (flow health)\n"
    "  health [--url URL] [worker.properties]\n"
    "                               GET /health of a worker (exit 0 when it serves)\n"
    "  properties-from-env PREFIX   a properties file from PREFIX* environment variables, as\n"
    "                               Kafka Connect images name them (CONNECT_GROUP_ID -> group.id)\n"
    "  version                      connectd's version and commit, librdkafka's, the plugin ABI\n"
    "  help                         this text\n";

}  // namespace

int main(int argc, char** argv) {
  // Debian builds Abseil with absl::Mutex's deadlock detection on: a lock-order graph updated
  // on every lock, a cost for production, not a check (ThreadSanitizer runs are the check).
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
  std::vector<std::string> args(argv + 1, argv + argc);
  if (absl::Status java = connectd::main::TakeJavaSystemProperties(args); !java.ok()) {
    std::cerr << "connectd: " << java.message() << "\n\n"
              << kUsage << "\n"
              << connectd::main::kJavaOptionsUsage;
    return 2;
  }
  if (absl::Status logging = connectd::main::SetUpLogging(args); !logging.ok()) {
    std::cerr << "connectd: " << logging.message() << "\n\n"
              << kUsage << "\n"
              << connectd::main::kLoggingUsage;
    return 2;
  }
  // A Kerberos login's renewal has nobody to answer to: its failures are logged.
  connectd::jvm::SetKerberosLoginLogSink([](const std::string& message) {
    CONNECTD_LOG(kWarn, "connectd.kafka.kerberos") << message;
  });
  if (args.empty() || args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
    std::cout << kUsage << "\n"
              << connectd::main::kLoggingUsage << "\n"
              << connectd::main::kJavaOptionsUsage;
    return args.empty() ? 2 : 0;
  }
  const std::string command = args[0];
  args.erase(args.begin());
  if (command == "version" || command == "--version") return connectd::main::RunVersion();
  if (command == "dev-kafka") return connectd::main::RunDevKafka(args);
  if (command == "plugins") return connectd::main::RunPlugins(args);
  if (command == "doctor") return connectd::main::RunDoctor(args);
  if (command == "health") return connectd::main::RunHealth(args);
  if (command == "standalone") return connectd::main::RunStandalone(args);
  if (command == "distributed") return connectd::main::RunDistributed(args);
  if (command == "mirror-maker") return connectd::main::RunMirrorMaker(args);
  if (command == "mirror") return connectd::main::RunMirror(args);
  if (command == "properties-from-env") return connectd::main::RunPropertiesFromEnv(args);
  std::cerr << "connectd: unknown command '" << command << "'\n\n" << kUsage;
  return 2;
}
