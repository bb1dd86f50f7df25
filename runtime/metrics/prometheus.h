// File: prometheus.h
//
// The Prometheus text exposition format (version 0.0.4) of a metrics snapshot, named the way
// the JMX exporter rules commonly used for Kafka name them: `<domain>_<type>_<attribute>`,
// lower-cased, every other character `_`; tags become labels in their order, e.g.
//   kafka_connect_mirror_mirrorsourceconnector_record_count{source="A",target="B",
//       topic="A.orders",partition="0"} 42
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "runtime/metrics/metrics.h"

namespace connectd::metrics {

// `domain`, `group` and `name` joined and sanitised as described above.
std::string PrometheusName(const MetricName& name);

// The exposition text; metrics of one name are grouped under one HELP/TYPE pair.
std::string PrometheusText(const std::vector<MetricValue>& metrics);

}  // namespace connectd::metrics
