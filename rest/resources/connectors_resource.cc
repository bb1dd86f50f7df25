// ConnectorsResource: every /connectors endpoint of Kafka's ConnectorsResource (the internal
// task-config and fencing endpoints are in internal_resource.cc).
#include <algorithm>
#include <cstdint>
#include <memory>
#include <mutex>
#include <set>

#include "absl/strings/str_cat.h"
#include "rest/json_entities.h"
#include "rest/resources/resources.h"
#include "runtime/common/logging.h"
#include "runtime/common/strings.h"

namespace connectd::rest {
namespace {

constexpr char kLogger[] = "org.apache.kafka.connect.runtime.rest.resources.ConnectorsResource";

// Java's String.trim(): strips every character <= ' ' at both ends.
std::string JavaTrim(std::string_view s) {
  while (!s.empty() && static_cast<unsigned char>(s.front()) <= ' ') s.remove_prefix(1);
  while (!s.empty() && static_cast<unsigned char>(s.back()) <= ' ') s.remove_suffix(1);
  return std::string(s);
}

// Integer.valueOf for a path parameter; nullopt -> JAX-RS answers 404.
std::optional<int> ParseTaskNumber(std::string_view text) {
  if (text.empty()) return std::nullopt;
  size_t i = (text[0] == '-' || text[0] == '+') ? 1 : 0;
  if (i == text.size()) return std::nullopt;
  int64_t value = 0;
  for (; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return std::nullopt;
    value = value * 10 + (text[i] - '0');
    if (value > (int64_t{1} << 31)) return std::nullopt;
  }
  if (text[0] == '-') value = -value;
  if (value > INT32_MAX || value < INT32_MIN) return std::nullopt;
  return static_cast<int>(value);
}

RestResponse NotFound() { return ErrorResponse(404, kNotFoundMessage); }

std::string LocationFor(const RestRequest& request, const std::string& connector) {
  return absl::StrCat(request.base_url, "/connectors/", EncodePathSegment(connector));
}

// "/connectors/{connector}{suffix}", encoded: the path a request is forwarded to.
std::string ConnectorPath(const std::string& connector, std::string_view suffix = "") {
  return absl::StrCat("/connectors/", EncodePathSegment(connector), AsAbsl(suffix));
}

// A 201 with a Location header, or 200, carrying ConnectorInfo JSON text (or nothing).
RestResponse CreatedOrUpdated(bool created, std::optional<std::string> json,
                              const std::string& location) {
  int status = created ? 201 : 200;
  RestResponse response = json ? JsonResponse(status, std::move(*json)) : EmptyResponse(status);
  if (created) SetHeader(response.headers, "Location", location);
  return response;
}

// ConnectorsResource.checkAndPutConnectorConfigName.
absl::Status CheckAndPutConnectorConfigName(const std::string& name, herder::ConfigMap& config) {
  auto it = config.find("name");
  if (it == config.end()) {
    config["name"] = name;
  } else if (it->second != name) {
    return absl::InvalidArgumentError(absl::StrCat("Connector name configuration (", it->second,
                                                   ") doesn't match connector name in the URL (",
                                                   name, ")"));
  }
  return absl::OkStatus();
}

RestResponse TopicTrackingDisabled() { return ErrorResponse(403, "Topic tracking is disabled."); }

// ---- GET /connectors?expand=... -------------------------------------------------------------

struct ExpandState {
  std::mutex mu;
  std::vector<ExpandedConnector> connectors;  // guarded by mu
  std::vector<bool> omitted;                  // guarded by mu
  int pending = 1;                            // guarded by mu; 1 until every call is issued
  bool failed = false;                        // guarded by mu
  Responder respond;
};

// Drops one pending unit; the last one answers.
void FinishOne(const std::shared_ptr<ExpandState>& state) {
  std::vector<ExpandedConnector> result;
  {
    std::lock_guard lock(state->mu);
    if (--state->pending > 0 || state->failed) return;
    for (size_t i = 0; i < state->connectors.size(); ++i) {
      if (!state->omitted[i]) result.push_back(std::move(state->connectors[i]));
    }
  }
  state->respond(JsonResponse(200, ExpandedConnectorsJson(result)));
}

void ExpandConnectors(ResourceContext& ctx, const std::vector<std::string>& names,
                      const std::vector<std::string>& requested, Responder respond) {
  // A HashMap keeps the first position of a repeated key; unknown expansions are ignored.
  std::vector<std::string> expansions;
  for (const std::string& e : requested) {
    if (e != "status" && e != "info") {
      CONNECTD_LOG(kInfo, kLogger) << "Ignoring unknown expansion type " << e;
      continue;
    }
    if (std::find(expansions.begin(), expansions.end(), e) == expansions.end()) {
      expansions.push_back(e);
    }
  }

  auto state = std::make_shared<ExpandState>();
  state->respond = std::move(respond);
  std::vector<std::pair<size_t, size_t>> info_calls;  // (connector index, expansion index)
  for (const std::string& name : names) {
    ExpandedConnector connector{name, {}};
    bool omit = false;
    for (const std::string& expansion : expansions) {
      if (expansion == "status") {
        absl::StatusOr<herder::ConnectorStateInfo> status = ctx.herder.ConnectorStatus(name);
        if (absl::IsNotFound(status.status())) {
          // Removed while we looked (or no status yet): Connect leaves the connector out.
          omit = true;
          break;
        }
        if (!status.ok()) {
          state->respond(ErrorResponse(status.status()));
          return;
        }
        connector.expansions.emplace_back("status", ConnectorStateInfoJson(*status));
      } else {
        info_calls.emplace_back(state->connectors.size(), connector.expansions.size());
        connector.expansions.emplace_back("info", std::nullopt);
      }
    }
    if (omit) {
      while (!info_calls.empty() && info_calls.back().first == state->connectors.size()) {
        info_calls.pop_back();
      }
    }
    state->connectors.push_back(std::move(connector));
    state->omitted.push_back(omit);
  }

  {
    std::lock_guard lock(state->mu);
    state->pending += static_cast<int>(info_calls.size());
  }
  for (auto [connector_index, expansion_index] : info_calls) {
    std::string name = state->connectors[connector_index].name;
    ctx.herder.GetConnectorInfo(name, [state, connector_index, expansion_index](
                                          absl::StatusOr<herder::ConnectorInfo> info) {
      {
        std::lock_guard lock(state->mu);
        if (state->failed) return;
        if (info.ok()) {
          state->connectors[connector_index].expansions[expansion_index].second =
              ConnectorInfoJson(*info);
        } else if (!absl::IsNotFound(info.status())) {
          state->failed = true;
        }
        // Not found: the connector vanished meanwhile; Connect renders "info": null.
      }
      if (!info.ok() && !absl::IsNotFound(info.status())) {
        state->respond(ErrorResponse(info.status()));
        return;
      }
      FinishOne(state);
    });
  }
  FinishOne(state);
}

void ListConnectors(ResourceContext& ctx, RestRequest request, Responder respond) {
  auto expand = request.query.find("expand");
  if (expand == request.query.end()) {
    ctx.herder.ListConnectors(Reply<std::vector<std::string>>(
        std::move(respond),
        [](std::vector<std::string> names) { return JsonResponse(200, StringArrayJson(names)); }));
    return;
  }
  std::vector<std::string> expansions = expand->second;
  ctx.herder.ListConnectors(
      [&ctx, expansions, respond](absl::StatusOr<std::vector<std::string>> names) {
        if (!names.ok()) {
          respond(ErrorResponse(names.status()));
          return;
        }
        // Leave the herder's thread before calling the herder again.
        ctx.scheduler.Post([&ctx, names = std::move(*names), expansions, respond] {
          ExpandConnectors(ctx, names, expansions, respond);
        });
      });
}

// ---- Create / update ------------------------------------------------------------------------

void CreateConnector(ResourceContext& ctx, RestRequest request, Responder respond) {
  absl::StatusOr<CreateConnectorRequest> parsed = ParseCreateConnectorRequest(request.body);
  if (!parsed.ok()) {
    respond(ErrorResponse(parsed.status()));
    return;
  }
  if (!parsed->config) {
    respond(ErrorResponse(400, "The request body must contain the connector's \"config\" object"));
    return;
  }
  // A missing name becomes "" and fails the herder's validation, as in Connect.
  std::string name = JavaTrim(parsed->name.value_or(""));
  herder::ConfigMap config = std::move(*parsed->config);
  if (absl::Status s = CheckAndPutConnectorConfigName(name, config); !s.ok()) {
    respond(ErrorResponse(s));
    return;
  }
  std::string location = LocationFor(request, name);
  // Connect forwards the request it parsed, "name" now in its config; a forwarded create always
  // answers 201 (the remote status only decides Herder.Created, which createConnector ignores).
  CreateConnectorRequest forwarded{parsed->name, config, parsed->initial_state};
  ForwardRequest forward{"POST", "/connectors", {}, CreateConnectorRequestJson(forwarded)};
  ctx.herder.PutConnectorConfig(name, config, parsed->initial_state, /*allow_replace=*/false,
                                ReplyOrForward<herder::Created>(
                                    ctx, request, std::move(forward), std::move(respond),
                                    [location](herder::Created created) {
                                      return CreatedOrUpdated(true, ConnectorInfoJson(created.info),
                                                              location);
                                    },
                                    [location](int, std::optional<std::string> body) {
                                      return CreatedOrUpdated(true, std::move(body), location);
                                    }));
}

void PutConnectorConfig(ResourceContext& ctx, RestRequest request, Responder respond) {
  const std::string& name = request.path_params[0];
  absl::StatusOr<herder::ConfigMap> config = ParseConfigMap(request.body);
  if (!config.ok()) {
    respond(ErrorResponse(config.status()));
    return;
  }
  if (absl::Status s = CheckAndPutConnectorConfigName(name, *config); !s.ok()) {
    respond(ErrorResponse(s));
    return;
  }
  std::string location = LocationFor(request, name);
  ForwardRequest forward{"PUT", ConnectorPath(name, "/config"), {}, ConfigMapJson(*config)};
  ctx.herder.PutConnectorConfig(
      name, *config, std::nullopt, /*allow_replace=*/true,
      ReplyOrForward<herder::Created>(
          ctx, request, std::move(forward), std::move(respond),
          [location](herder::Created created) {
            return CreatedOrUpdated(created.created, ConnectorInfoJson(created.info), location);
          },
          // Forwarded: created iff the remote worker answered 201.
          [location](int status, std::optional<std::string> body) {
            return CreatedOrUpdated(status == 201, std::move(body), location);
          }));
}

void PatchConnectorConfig(ResourceContext& ctx, RestRequest request, Responder respond) {
  absl::StatusOr<std::map<std::string, std::optional<std::string>>> patch =
      ParseConfigPatch(request.body);
  if (!patch.ok()) {
    respond(ErrorResponse(patch.status()));
    return;
  }
  const std::string& name = request.path_params[0];
  ForwardRequest forward{"PATCH", ConnectorPath(name, "/config"), {}, ConfigPatchJson(*patch)};
  ctx.herder.PatchConnectorConfig(
      name, *patch,
      ReplyOrForward<herder::ConnectorInfo>(
          ctx, request, std::move(forward), std::move(respond),
          [](herder::ConnectorInfo info) { return JsonResponse(200, ConnectorInfoJson(info)); },
          RemoteBodyAs(200)));
}

// ---- Restart --------------------------------------------------------------------------------

void RestartConnector(ResourceContext& ctx, RestRequest request, Responder respond) {
  herder::RestartRequest restart;
  restart.connector = request.path_params[0];
  restart.include_tasks = request.QueryBool("includeTasks", false);
  restart.only_failed = request.QueryBool("onlyFailed", false);
  ForwardRequest forward{"POST", ConnectorPath(restart.connector, "/restart"), {}, std::nullopt};
  if (!restart.include_tasks && !restart.only_failed) {
    // Legacy: the connector instance only, synchronously, no body.
    ctx.herder.RestartConnector(
        restart.connector,
        ReplyEmptyOrForward(ctx, request, std::move(forward), std::move(respond), 204));
    return;
  }
  forward.query = {{"includeTasks", restart.include_tasks ? "true" : "false"},
                   {"onlyFailed", restart.only_failed ? "true" : "false"}};
  ctx.herder.Restart(restart, ReplyOrForward<herder::ConnectorStateInfo>(
                                  ctx, request, std::move(forward), std::move(respond),
                                  [](herder::ConnectorStateInfo plan) {
                                    return JsonResponse(202, ConnectorStateInfoJson(plan));
                                  },
                                  RemoteBodyAs(202)));
}

// ---- Offsets --------------------------------------------------------------------------------

void AlterOffsets(ResourceContext& ctx, RestRequest request, Responder respond) {
  absl::StatusOr<herder::ConnectorOffsets> offsets = ParseConnectorOffsets(request.body);
  if (!offsets.ok()) {
    respond(ErrorResponse(offsets.status()));
    return;
  }
  if (offsets->offsets.empty()) {
    respond(ErrorResponse(400,
                          "Partitions / offsets need to be provided for an alter offsets request"));
    return;
  }
  const std::string& name = request.path_params[0];
  ForwardRequest forward{
      "PATCH", ConnectorPath(name, "/offsets"), {}, ConnectorOffsetsJson(*offsets)};
  ctx.herder.AlterConnectorOffsets(
      name, *offsets,
      ReplyOrForward<std::string>(
          ctx, request, std::move(forward), std::move(respond),
          [](std::string message) { return JsonResponse(200, MessageJson(message)); },
          RemoteBodyAs(200)));
}

}  // namespace

void AddConnectorsResource(Router& router, ResourceContext& ctx) {
  herder::Herder& herder = ctx.herder;

  router.Add("GET", "/connectors", [&ctx](RestRequest request, Responder respond) {
    ListConnectors(ctx, std::move(request), std::move(respond));
  });
  router.Add("POST", "/connectors", [&ctx](RestRequest request, Responder respond) {
    CreateConnector(ctx, std::move(request), std::move(respond));
  });
  router.Add("GET", "/connectors/{connector}", [&herder](RestRequest request, Responder respond) {
    herder.GetConnectorInfo(request.path_params[0],
                            Reply<herder::ConnectorInfo>(respond, [](herder::ConnectorInfo info) {
                              return JsonResponse(200, ConnectorInfoJson(info));
                            }));
  });
  router.Add(
      "GET", "/connectors/{connector}/config", [&herder](RestRequest request, Responder respond) {
        herder.GetConnectorConfig(request.path_params[0],
                                  Reply<herder::ConfigMap>(respond, [](herder::ConfigMap config) {
                                    return JsonResponse(200, ConfigMapJson(config));
                                  }));
      });
  router.Add("PUT", "/connectors/{connector}/config",
             [&ctx](RestRequest request, Responder respond) {
               PutConnectorConfig(ctx, std::move(request), std::move(respond));
             });
  router.Add("PATCH", "/connectors/{connector}/config",
             [&ctx](RestRequest request, Responder respond) {
               PatchConnectorConfig(ctx, std::move(request), std::move(respond));
             });
  router.Add("DELETE", "/connectors/{connector}", [&ctx](RestRequest request, Responder respond) {
    const std::string& name = request.path_params[0];
    ctx.herder.DeleteConnector(
        name, ReplyEmptyOrForward(ctx, request, {"DELETE", ConnectorPath(name), {}, std::nullopt},
                                  std::move(respond), 204));
  });
  router.Add("GET", "/connectors/{connector}/status",
             [&herder](RestRequest request, Responder respond) {
               absl::StatusOr<herder::ConnectorStateInfo> status =
                   herder.ConnectorStatus(request.path_params[0]);
               respond(status.ok() ? JsonResponse(200, ConnectorStateInfoJson(*status))
                                   : ErrorResponse(status.status()));
             });
  router.Add(
      "GET", "/connectors/{connector}/tasks", [&herder](RestRequest request, Responder respond) {
        herder.GetTaskConfigs(
            request.path_params[0],
            Reply<std::vector<herder::TaskInfo>>(respond, [](std::vector<herder::TaskInfo> tasks) {
              return JsonResponse(200, TaskInfosJson(tasks));
            }));
      });
  router.Add("GET", "/connectors/{connector}/tasks/{task}/status",
             [&herder](RestRequest request, Responder respond) {
               std::optional<int> task = ParseTaskNumber(request.path_params[1]);
               if (!task) {
                 respond(NotFound());
                 return;
               }
               absl::StatusOr<herder::TaskStateInfo> status =
                   herder.TaskStatus({request.path_params[0], *task});
               respond(status.ok() ? JsonResponse(200, TaskStateJson(*status))
                                   : ErrorResponse(status.status()));
             });
  router.Add(
      "POST", "/connectors/{connector}/tasks/{task}/restart",
      [&ctx](RestRequest request, Responder respond) {
        std::optional<int> task = ParseTaskNumber(request.path_params[1]);
        if (!task) {
          respond(NotFound());
          return;
        }
        const std::string& name = request.path_params[0];
        ForwardRequest forward{"POST",
                               ConnectorPath(name, absl::StrCat("/tasks/", *task, "/restart")),
                               {},
                               std::nullopt};
        ctx.herder.RestartTask({name, *task}, ReplyEmptyOrForward(ctx, request, std::move(forward),
                                                                  std::move(respond), 204));
      });
  router.Add("POST", "/connectors/{connector}/restart",
             [&ctx](RestRequest request, Responder respond) {
               RestartConnector(ctx, std::move(request), std::move(respond));
             });
  router.Add("PUT", "/connectors/{connector}/pause",
             [&herder](RestRequest request, Responder respond) {
               absl::Status s = herder.PauseConnector(request.path_params[0]);
               respond(s.ok() ? EmptyResponse(202) : ErrorResponse(s));
             });
  router.Add("PUT", "/connectors/{connector}/resume",
             [&herder](RestRequest request, Responder respond) {
               absl::Status s = herder.ResumeConnector(request.path_params[0]);
               respond(s.ok() ? EmptyResponse(202) : ErrorResponse(s));
             });
  router.Add("PUT", "/connectors/{connector}/stop", [&ctx](RestRequest request, Responder respond) {
    const std::string& name = request.path_params[0];
    ctx.herder.StopConnector(
        name,
        ReplyEmptyOrForward(ctx, request, {"PUT", ConnectorPath(name, "/stop"), {}, std::nullopt},
                            std::move(respond), 204));
  });
  router.Add(
      "GET", "/connectors/{connector}/topics", [&ctx](RestRequest request, Responder respond) {
        if (!ctx.config.topic_tracking_enabled) {
          respond(TopicTrackingDisabled());
          return;
        }
        const std::string& name = request.path_params[0];
        absl::StatusOr<std::vector<std::string>> topics = ctx.herder.ConnectorActiveTopics(name);
        respond(topics.ok() ? JsonResponse(200, ActiveTopicsJson(name, *topics))
                            : ErrorResponse(topics.status()));
      });
  router.Add("PUT", "/connectors/{connector}/topics/reset",
             [&ctx](RestRequest request, Responder respond) {
               if (!ctx.config.topic_tracking_enabled) {
                 respond(TopicTrackingDisabled());
                 return;
               }
               if (!ctx.config.topic_tracking_reset_enabled) {
                 respond(ErrorResponse(403, "Topic tracking reset is disabled."));
                 return;
               }
               absl::Status s = ctx.herder.ResetConnectorActiveTopics(request.path_params[0]);
               respond(s.ok() ? EmptyResponse(202) : ErrorResponse(s));
             });
  router.Add("GET", "/connectors/{connector}/offsets",
             [&herder](RestRequest request, Responder respond) {
               herder.GetConnectorOffsets(
                   request.path_params[0],
                   Reply<herder::ConnectorOffsets>(respond, [](herder::ConnectorOffsets offsets) {
                     return JsonResponse(200, ConnectorOffsetsJson(offsets));
                   }));
             });
  router.Add("PATCH", "/connectors/{connector}/offsets",
             [&ctx](RestRequest request, Responder respond) {
               AlterOffsets(ctx, std::move(request), std::move(respond));
             });
  router.Add(
      "DELETE", "/connectors/{connector}/offsets", [&ctx](RestRequest request, Responder respond) {
        const std::string& name = request.path_params[0];
        ctx.herder.ResetConnectorOffsets(
            name, ReplyOrForward<std::string>(
                      ctx, request, {"DELETE", ConnectorPath(name, "/offsets"), {}, std::nullopt},
                      std::move(respond),
                      [](std::string message) { return JsonResponse(200, MessageJson(message)); },
                      RemoteBodyAs(200)));
      });
}

}  // namespace connectd::rest
