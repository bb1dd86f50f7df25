// File: flow_report_json.h
//
// The JSON of GET /mirror/flows and GET /mirror/flows/{source}/{target} (and what
// `connectd doctor --json` prints): one object per flow with the verdict, its evidence, the
// next step, the thresholds, per-leg ages and latency, the flow's connectors and task states.
// Field names are documented in runtime/mirror_maker/health/README.md. Connector configs never
// appear, so no secret can.
//
// Threads: pure functions; any thread.
#pragma once

#include <string>
#include <vector>

#include "runtime/mirror_maker/health/flow_verdict.h"

namespace connectd::health {

// One flow object.
std::string FlowReportJson(const FlowReport& report);
// {"worker_id":..., "time_ms":..., "flows":[...]} for GET /mirror/flows.
std::string FlowReportsJson(const std::vector<FlowReport>& reports, const std::string& worker_id,
                            int64_t now_ms);

}  // namespace connectd::health
