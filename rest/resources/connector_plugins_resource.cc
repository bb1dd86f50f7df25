// ConnectorPluginsResource: plugin listing, a plugin's config definition, config validation.
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "rest/json_entities.h"
#include "rest/resources/resources.h"
#include "runtime/common/strings.h"

namespace connectd::rest {
namespace {

constexpr std::string_view kAliasSuffix = "Connector";

// Works for full and simple class names; for the latter it gives the alias.
std::string_view NormalizedPluginName(std::string_view name) {
  if (name.size() > kAliasSuffix.size() && absl::EndsWith(AsAbsl(name), AsAbsl(kAliasSuffix))) {
    name.remove_suffix(kAliasSuffix.size());
  }
  return name;
}

void ValidateConfigs(ResourceContext& ctx, RestRequest request, Responder respond) {
  const std::string& plugin = request.path_params[0];
  absl::StatusOr<herder::ConfigMap> config = ParseConfigMap(request.body);
  if (!config.ok()) {
    respond(ErrorResponse(config.status()));
    return;
  }
  auto included = config->find("connector.class");
  if (included != config->end() && !absl::EndsWith(AsAbsl(NormalizedPluginName(included->second)),
                                                   AsAbsl(NormalizedPluginName(plugin)))) {
    respond(ErrorResponse(400, absl::StrCat("Included connector type ", included->second,
                                            " does not match request type ", plugin)));
    return;
  }
  ctx.herder.ValidateConnectorConfig(
      *config, Reply<herder::ConfigInfos>(std::move(respond), [](herder::ConfigInfos infos) {
        return JsonResponse(200, ConfigInfosJson(infos));
      }));
}

}  // namespace

void AddConnectorPluginsResource(Router& router, ResourceContext& ctx) {
  herder::Herder& herder = ctx.herder;
  router.Add("GET", "/connector-plugins", [&herder](RestRequest request, Responder respond) {
    bool connectors_only = request.QueryBool("connectorsOnly", true);
    respond(JsonResponse(200, PluginInfosJson(herder.ConnectorPlugins(connectors_only))));
  });
  // `?version=` (KIP-891): a version or range of the plugin; the newest without it.
  router.Add("GET", "/connector-plugins/{plugin}/config",
             [&herder](RestRequest request, Responder respond) {
               absl::StatusOr<std::vector<herder::ConfigKeyInfo>> keys =
                   herder.ConnectorPluginConfig(request.path_params[0], request.Query("version"));
               respond(keys.ok() ? JsonResponse(200, ConfigKeyInfosJson(*keys))
                                 : ErrorResponse(keys.status()));
             });
  router.Add("PUT", "/connector-plugins/{plugin}/config/validate",
             [&ctx](RestRequest request, Responder respond) {
               ValidateConfigs(ctx, std::move(request), std::move(respond));
             });
}

}  // namespace connectd::rest
