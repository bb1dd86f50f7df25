#include "runtime/mirror_maker/mirror_herder.h"

#include "runtime/common/logging.h"

namespace connectd::mirror_maker {
namespace {

constexpr char kLogger[] = "connectd.mirror.MirrorHerder";

}  // namespace

void MirrorConnectorsWriter::OnRebalance(bool is_leader) {
  if (!is_leader) {
    was_leader_ = false;
    return;
  }
  if (was_leader_) return;
  was_leader_ = true;
  CONNECTD_LOG(kInfo, kLogger) << "This node is now a leader for " << flow_.ToString()
                               << ". Configuring connectors...";
  for (const auto& [name, desired] : desired_) MaybeConfigure(name, desired);
}

void MirrorConnectorsWriter::MaybeConfigure(const std::string& name, const Properties& desired) {
  herder::Herder* herder = herder_;
  const std::string flow = flow_.ToString();
  herder->GetConnectorConfig(
      name, [herder, name, desired, flow](absl::StatusOr<herder::ConfigMap> stored) {
        if (stored.ok() && *stored == desired) {
          CONNECTD_LOG(kInfo, kLogger)
              << "This node is a leader for " << flow << " and configuration for " << name
              << " is already up to date.";
          return;
        }
        herder->PutConnectorConfig(
            name, desired, std::nullopt, /*allow_replace=*/true,
            [name, flow](absl::StatusOr<herder::Created> written) {
              if (written.ok()) {
                CONNECTD_LOG(kInfo, kLogger) << name << " connector configured for " << flow << ".";
              } else if (herder::ForwardTargetOf(written.status()).has_value()) {
                CONNECTD_LOG(kInfo, kLogger)
                    << "This node lost leadership for " << flow
                    << " while trying to update the connector configuration for " << name
                    << ". Using existing connector configuration. (" << written.status().message()
                    << ")";
              } else {
                CONNECTD_LOG(kError, kLogger) << "Failed to configure " << name << " connector for "
                                              << flow << ": " << written.status().message();
              }
            });
      });
}

}  // namespace connectd::mirror_maker
