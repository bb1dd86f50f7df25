#include "runtime/metrics/prometheus.h"

#include <cmath>
#include <cstdio>

namespace connectd::metrics {
namespace {

void AppendSanitised(std::string_view part, std::string* out) {
  for (char c : part) {
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_') {
      *out += c;
    } else if (c >= 'A' && c <= 'Z') {
      *out += static_cast<char>(c - 'A' + 'a');
    } else {
      *out += '_';
    }
  }
}

// Label values escape backslash, double quote and newline; HELP text backslash and newline.
std::string Escape(std::string_view text, bool quote) {
  std::string out;
  for (char c : text) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '"' && quote) {
      out += "\\\"";
    } else {
      out += c;
    }
  }
  return out;
}

std::string FormatValue(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", value);
  return buffer;
}

std::string LabelName(std::string_view key) {
  std::string out;
  AppendSanitised(key, &out);
  if (!out.empty() && out[0] >= '0' && out[0] <= '9') out.insert(0, "_");
  return out;
}

}  // namespace

std::string PrometheusName(const MetricName& name) {
  std::string out;
  for (std::string_view part : {std::string_view(name.domain), std::string_view(name.group),
                                std::string_view(name.name)}) {
    if (part.empty()) continue;
    if (!out.empty()) out += '_';
    AppendSanitised(part, &out);
  }
  if (!out.empty() && out[0] >= '0' && out[0] <= '9') out.insert(0, "_");
  return out;
}

std::string PrometheusText(const std::vector<MetricValue>& metrics) {
  std::string out;
  std::string family;
  for (const MetricValue& metric : metrics) {
    std::string name = PrometheusName(metric.name);
    if (name != family) {
      family = name;
      bool counter = metric.kind == StatKind::kCumulativeCount ||
                     metric.kind == StatKind::kCumulativeSum;
      out += "# HELP " + name + " " +
             Escape(metric.description.empty() ? metric.name.name : metric.description, false) +
             "\n# TYPE " + name + (counter ? " counter\n" : " gauge\n");
    }
    out += name;
    if (!metric.name.tags.empty()) {
      out += '{';
      bool first = true;
      for (const auto& [key, value] : metric.name.tags) {
        if (!first) out += ',';
        first = false;
        out += LabelName(key) + "=\"" + Escape(value, true) + '"';
      }
      out += '}';
    }
    out += ' ' + FormatValue(metric.value) + '\n';
  }
  return out;
}

}  // namespace connectd::metrics
