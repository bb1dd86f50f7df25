#include "runtime/kafka/client_config.h"

#include "absl/strings/str_cat.h"

namespace connectd::kafka {

absl::StatusOr<ConfPtr> MakeConfWithWarnings(const std::map<std::string, std::string>& properties,
                                             std::vector<std::string>& warnings) {
  ConfPtr conf(rd_kafka_conf_new());
  char errstr[512];
  for (const auto& [key, value] : properties) {
    rd_kafka_conf_res_t result =
        rd_kafka_conf_set(conf.get(), key.c_str(), value.c_str(), errstr, sizeof(errstr));
    if (result == RD_KAFKA_CONF_UNKNOWN) {
      warnings.push_back(absl::StrCat("The configuration '", key,
                                      "' was supplied but isn't a known config; ignored"));
    } else if (result != RD_KAFKA_CONF_OK) {
      return absl::InvalidArgumentError(absl::StrCat("Kafka client config '", key, "': ", errstr));
    }
  }
  return conf;
}

}  // namespace connectd::kafka
