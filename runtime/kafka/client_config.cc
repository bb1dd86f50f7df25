#include "runtime/kafka/client_config.h"

#include "jvm/client_conf.h"

namespace connectd::kafka {

absl::StatusOr<ConfPtr> MakeConfWithWarnings(const std::map<std::string, std::string>& properties,
                                             std::vector<std::string>& warnings) {
  std::string error;
  ConfPtr conf(jvm::MakeClientConf(properties, warnings, error));
  if (!conf) return absl::InvalidArgumentError(error);
  return conf;
}

}  // namespace connectd::kafka
