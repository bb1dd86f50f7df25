#include "runtime/main/doctor_command.h"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <iostream>
#include <optional>

#include "absl/strings/str_cat.h"
#include "rest/rest_config.h"
#include "rest/router.h"
#include "runtime/config/properties.h"
#include "runtime/main/get_once.h"

namespace connectd::main {
namespace {

constexpr char kUsage[] =
    "usage: connectd doctor --url http://HOST:PORT [--json] [--flow SOURCE->TARGET]\n"
    "                       [--config FILE]\n"
    "  --url     a worker's REST URL (any worker of the cluster)\n"
    "  --json    print the worker's JSON (GET /mirror/flows) instead of the table\n"
    "  --flow    only this flow, e.g. A->B\n"
    "  --config  properties with the REST client TLS settings (ssl.* or listeners.https.ssl.*)\n"
    "exit status: 0 every flow HEALTHY, 1 a flow is not, 2 usage, 3 the worker cannot be asked\n";

int Usage(const std::string& message) {
  if (!message.empty()) std::cerr << "connectd doctor: " << message << "\n";
  std::cerr << kUsage;
  return 2;
}

std::string Str(const rapidjson::Value& object, const char* key) {
  if (!object.IsObject() || !object.HasMember(key) || !object[key].IsString()) return "";
  return object[key].GetString();
}

// "1.2 s", "-" when null/absent.
std::string Seconds(const rapidjson::Value& object, const char* key) {
  if (!object.IsObject() || !object.HasMember(key) || !object[key].IsNumber()) return "-";
  double ms = object[key].GetDouble();
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f s", ms / 1000.0);
  return buffer;
}

std::string Tasks(const rapidjson::Value& flow) {
  if (!flow.HasMember("tasks") || !flow["tasks"].IsArray()) return "-";
  std::map<std::string, int> by_state;
  int tasks = 0;
  for (const rapidjson::Value& unit : flow["tasks"].GetArray()) {
    if (!unit.HasMember("task") || unit["task"].IsNull()) continue;
    ++tasks;
    ++by_state[Str(unit, "state").empty() ? "NO STATUS" : Str(unit, "state")];
  }
  std::string out = absl::StrCat(by_state["RUNNING"], "/", tasks, " RUNNING");
  for (const auto& [state, count] : by_state) {
    if (state != "RUNNING" && count > 0) absl::StrAppend(&out, ", ", count, " ", state);
  }
  return out;
}

// The flow's "partitions" object, or null.
const rapidjson::Value* Partitions(const rapidjson::Value& flow) {
  if (!flow.HasMember("partitions") || !flow["partitions"].IsObject()) return nullptr;
  return &flow["partitions"];
}

// "1,204" records behind the source's end over the flow's partitions, "+ 3 unreadable".
std::string Behind(const rapidjson::Value& flow) {
  const rapidjson::Value* p = Partitions(flow);
  if (p == nullptr || !p->HasMember("count") || !(*p)["count"].IsInt() ||
      (*p)["count"].GetInt() == 0) {
    return "-";
  }
  std::string out = (*p)["records_behind"].IsInt64()
                        ? std::to_string((*p)["records_behind"].GetInt64())
                        : std::string("?");
  if ((*p)["with_errors"].IsInt() && (*p)["with_errors"].GetInt() > 0) {
    absl::StrAppend(&out, " (", (*p)["with_errors"].GetInt(), " unreadable)");
  }
  return out;
}

void PrintWorstPartitions(const rapidjson::Value& flow) {
  const rapidjson::Value* p = Partitions(flow);
  if (p == nullptr || !p->HasMember("worst") || !(*p)["worst"].IsArray()) return;
  int shown = 0;
  for (const rapidjson::Value& part : (*p)["worst"].GetArray()) {
    const bool error = part.HasMember("error") && part["error"].IsString();
    const int64_t behind = part.HasMember("records_behind") && part["records_behind"].IsInt64()
                               ? part["records_behind"].GetInt64()
                               : 0;
    if ((!error && behind <= 0) || shown == 5) continue;
    if (shown++ == 0) std::cout << "  partitions (worst first):\n";
    std::cout << "    " << Str(part, "source_topic") << "-"
              << (part["partition"].IsInt() ? part["partition"].GetInt() : -1) << ": " << behind
              << " behind";
    if (part.HasMember("oldest_unreplicated_age_ms") &&
        part["oldest_unreplicated_age_ms"].IsInt64() &&
        part["oldest_unreplicated_age_ms"].GetInt64() > 0) {
      std::cout << ", oldest not yet copied written "
                << part["oldest_unreplicated_age_ms"].GetInt64() / 1000 << " s ago";
    }
    if (error) std::cout << ", " << part["error"].GetString();
    std::cout << "\n";
  }
}

void PrintTable(const std::vector<const rapidjson::Value*>& flows) {
  std::vector<std::vector<std::string>> rows = {
      {"FLOW", "VERDICT", "EMIT AGE", "REPL AGE", "LATENCY", "BEHIND", "TASKS", "NEXT STEP"}};
  for (const rapidjson::Value* flow : flows) {
    const rapidjson::Value& legs = (*flow)["legs"];
    rows.push_back(
        {Str(*flow, "flow"), Str(*flow, "verdict"),
         Seconds(legs.IsObject() && legs.HasMember("emit") ? legs["emit"] : legs, "age_ms"),
         Seconds(legs.IsObject() && legs.HasMember("replication") ? legs["replication"] : legs,
                 "age_ms"),
         Seconds(*flow, "latency_ms"), Behind(*flow), Tasks(*flow), Str(*flow, "next_step")});
  }
  std::vector<size_t> width(rows.front().size(), 0);
  for (const auto& row : rows) {
    for (size_t i = 0; i + 1 < row.size(); ++i) {
      // Display width: the verdict's em dash is one column but three bytes.
      size_t n = 0;
      for (unsigned char c : row[i]) n += (c & 0xC0) != 0x80;
      width[i] = std::max(width[i], n);
    }
  }
  for (const auto& row : rows) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 == row.size()) break;
      size_t n = 0;
      for (unsigned char c : row[i]) n += (c & 0xC0) != 0x80;
      line += std::string(width[i] - n + 2, ' ');
    }
    std::cout << line << "\n";
  }
  for (const rapidjson::Value* flow : flows) {
    if (Str(*flow, "verdict") == "HEALTHY") continue;
    std::cout << "\n"
              << Str(*flow, "flow") << ": " << Str(*flow, "verdict") << "\n  "
              << Str(*flow, "summary") << "\n";
    if (flow->HasMember("evidence") && (*flow)["evidence"].IsArray()) {
      for (const rapidjson::Value& line : (*flow)["evidence"].GetArray()) {
        if (line.IsString()) std::cout << "  - " << line.GetString() << "\n";
      }
    }
    PrintWorstPartitions(*flow);
    std::cout << "  next: " << Str(*flow, "next_step") << "\n";
  }
}

}  // namespace

int RunDoctor(const std::vector<std::string>& args) {
  std::string url, flow, config_path;
  bool json = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    auto value = [&](std::string* out) {
      if (i + 1 >= args.size()) return false;
      *out = args[++i];
      return true;
    };
    if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      return 0;
    } else if (arg == "--json") {
      json = true;
    } else if (arg == "--url") {
      if (!value(&url)) return Usage("--url needs a value");
    } else if (arg.rfind("--url=", 0) == 0) {
      url = arg.substr(6);
    } else if (arg == "--flow") {
      if (!value(&flow)) return Usage("--flow needs a value");
    } else if (arg.rfind("--flow=", 0) == 0) {
      flow = arg.substr(7);
    } else if (arg == "--config") {
      if (!value(&config_path)) return Usage("--config needs a value");
    } else {
      return Usage("unknown argument '" + arg + "'");
    }
  }
  if (url.empty()) return Usage("--url is required");
  if (!rest::ParseHttpUrl(url).ok()) return Usage("--url must be http://HOST:PORT or https://...");
  std::string source, target;
  if (!flow.empty()) {
    size_t arrow = flow.find("->");
    if (arrow == std::string::npos || arrow == 0 || arrow + 2 == flow.size()) {
      return Usage("--flow must be SOURCE->TARGET, e.g. A->B");
    }
    source = flow.substr(0, arrow);
    target = flow.substr(arrow + 2);
  }
  rest::TlsConfig tls;
  if (!config_path.empty()) {
    absl::StatusOr<config::Properties> props = config::LoadPropertiesFile(config_path);
    if (!props.ok()) return Usage(std::string(props.status().message()));
    absl::StatusOr<rest::RestConfig> rest_config =
        rest::ParseRestConfig(std::map<std::string, std::string>(props->begin(), props->end()));
    if (!rest_config.ok()) return Usage(std::string(rest_config.status().message()));
    tls = rest_config->tls;
  }

  std::string base = url;
  while (!base.empty() && base.back() == '/') base.pop_back();
  std::string path = flow.empty() ? "/mirror/flows"
                                  : absl::StrCat("/mirror/flows/", rest::EncodePathSegment(source),
                                                 "/", rest::EncodePathSegment(target));
  absl::StatusOr<rest::HttpClientResponse> response =
      GetOnce(base + path, tls, std::chrono::milliseconds(5000), std::chrono::milliseconds(15000));
  if (!response.ok()) {
    std::cerr << "connectd doctor: cannot reach the worker at " << url << ": "
              << response.status().message() << "\n";
    return 3;
  }
  if (!flow.empty() && response->status == 404) {
    std::cerr << "connectd doctor: no flow " << flow << " on the worker at " << url << "\n";
    return 1;
  }
  if (response->status == 404 && flow.empty()) {
    std::cerr << "connectd doctor: " << url
              << " serves no /mirror/flows (not a connectd worker with flow health?)\n";
    return 3;
  }
  rapidjson::Document doc;
  doc.Parse(response->body.data(), response->body.size());
  if (response->status != 200 || doc.HasParseError() || !doc.IsObject()) {
    std::cerr << "connectd doctor: " << url << path << " answered HTTP " << response->status << ": "
              << response->body.substr(0, 500) << "\n";
    return 3;
  }
  std::vector<const rapidjson::Value*> flows;
  if (flow.empty()) {
    if (!doc.HasMember("flows") || !doc["flows"].IsArray()) {
      std::cerr << "connectd doctor: unexpected answer from " << url << path << "\n";
      return 3;
    }
    for (const rapidjson::Value& f : doc["flows"].GetArray()) {
      if (f.IsObject()) flows.push_back(&f);
    }
  } else {
    flows.push_back(&doc);
  }
  bool healthy = std::all_of(flows.begin(), flows.end(), [](const rapidjson::Value* f) {
    return Str(*f, "verdict") == "HEALTHY";
  });
  if (json) {
    std::cout << response->body << "\n";
  } else if (flows.empty()) {
    std::cout << "No MirrorMaker flows on the worker at " << url << "\n";
  } else {
    PrintTable(flows);
  }
  return healthy ? 0 : 1;
}

}  // namespace connectd::main
