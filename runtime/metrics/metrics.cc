#include "runtime/metrics/metrics.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

namespace connectd::metrics {

std::string MetricName::Key() const {
  std::string key = domain + '\x1f' + group + '\x1f' + name;
  for (const auto& [k, v] : tags) key += '\x1e' + k + '\x1f' + v;
  return key;
}

MetricName MetricNameView::ToName() const {
  return MetricName{std::string(domain), std::string(group), std::string(name), tags};
}

namespace {

// The identity's part of MetricName::Key.
std::string SensorIdentityKey(const std::string& domain, const std::string& group,
                              const Tags& tags) {
  std::string key = domain + '\x1f' + group;
  for (const auto& [k, v] : tags) key += '\x1e' + k + '\x1f' + v;
  return key;
}

}  // namespace

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

Sensor::Sensor(MetricsScope* scope, std::shared_ptr<const SensorIdentity> identity,
               std::vector<const StatSpec*> stats, WindowConfig window, int64_t now_ms,
               GaugeFunction gauge)
    : scope_(scope),
      identity_(std::move(identity)),
      stats_(stats.begin(), stats.end()),
      window_(window),
      gauge_(std::move(gauge)),
      sample_count_(std::any_of(stats_.begin(), stats_.end(),
                                [](const StatSpec* stat) {
                                  return stat->kind == StatKind::kRate ||
                                         stat->kind == StatKind::kMin ||
                                         stat->kind == StatKind::kMax ||
                                         stat->kind == StatKind::kAvg;
                                })
                        ? std::max(1, window.samples)
                        : 0) {
  if (sample_count_ > 0) {
    samples_ = std::make_unique<Sample[]>(static_cast<size_t>(sample_count_));
    samples_[0].start_ms = now_ms;
  }
}

void Sensor::RecordMany(double value, int64_t count, int64_t now_ms) {
  std::lock_guard lock(mu_);
  last_.store(value, std::memory_order_relaxed);
  count_.store(count_.load(std::memory_order_relaxed) + count, std::memory_order_relaxed);
  sum_.store(sum_.load(std::memory_order_relaxed) + value * static_cast<double>(count),
             std::memory_order_relaxed);
  if (sample_count_ == 0) return;
  Sample* sample = &samples_[current_];
  // A sample covers one window; the next window reuses the oldest sample.
  if (now_ms - sample->start_ms >= window_.window_ms) {
    current_ = (current_ + 1) % sample_count_;
    sample = &samples_[current_];
    *sample = Sample{now_ms};
  }
  if (sample->count == 0) {
    sample->min = sample->max = value;
  } else {
    sample->min = std::min(sample->min, value);
    sample->max = std::max(sample->max, value);
  }
  sample->count += count;
  sample->sum += value * static_cast<double>(count);
}

bool Sensor::Live(const Sample& sample, int64_t now_ms) const {
  return now_ms - sample.start_ms < static_cast<int64_t>(sample_count_) * window_.window_ms;
}

// Kafka's Rate: the windowed sum over the time the live samples span, counted as at least
// `samples - 1` full windows so that a young sensor does not report a burst as a huge rate.
double Sensor::WindowedRate(int64_t now_ms) const {
  double sum = 0;
  int64_t oldest = now_ms;
  for (int i = 0; i < sample_count_; ++i) {
    const Sample& sample = samples_[i];
    if (!Live(sample, now_ms)) continue;
    sum += sample.sum;
    oldest = std::min(oldest, sample.start_ms);
  }
  int64_t elapsed = now_ms - oldest;
  int64_t full_windows = elapsed / window_.window_ms;
  int64_t min_full_windows = static_cast<int64_t>(sample_count_) - 1;
  if (full_windows < min_full_windows)
    elapsed += (min_full_windows - full_windows) * window_.window_ms;
  if (elapsed <= 0) return 0;
  return sum / (static_cast<double>(elapsed) / 1000.0);
}

double Sensor::Measure(size_t i, int64_t now_ms) const {
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  const StatKind kind = stats_.at(i)->kind;
  // A value or total is read without the lock (flow health reads 100,000 every 2 s).
  if (kind == StatKind::kValue) return last_.load(std::memory_order_relaxed);
  if (kind == StatKind::kCumulativeCount) {
    return static_cast<double>(count_.load(std::memory_order_relaxed));
  }
  if (kind == StatKind::kCumulativeSum) return sum_.load(std::memory_order_relaxed);
  std::lock_guard lock(mu_);
  if (kind == StatKind::kRate) return WindowedRate(now_ms);
  if (kind == StatKind::kGauge) return gauge_ ? gauge_(now_ms) : kNaN;
  // Min, Max, Avg over the live samples.
  int64_t count = 0;
  double sum = 0;
  double min = std::numeric_limits<double>::infinity();
  double max = -std::numeric_limits<double>::infinity();
  for (int s = 0; s < sample_count_; ++s) {
    const Sample& sample = samples_[s];
    if (sample.count == 0 || !Live(sample, now_ms)) continue;
    count += sample.count;
    sum += sample.sum;
    min = std::min(min, sample.min);
    max = std::max(max, sample.max);
  }
  if (count == 0) return kNaN;
  if (kind == StatKind::kMin) return min;
  if (kind == StatKind::kMax) return max;
  return sum / static_cast<double>(count);
}

bool MetricsRegistry::NameOrder::Less(const MetricNameView& a, const MetricNameView& b) {
  // MetricName::Key's order: its separators sort below any character a name holds.
  return std::tie(a.domain, a.group, a.name, a.tags) < std::tie(b.domain, b.group, b.name, b.tags);
}

std::shared_ptr<const SensorIdentity> MetricsRegistry::Identity(const std::string& domain,
                                                                const std::string& group,
                                                                const Tags& tags) {
  std::weak_ptr<const SensorIdentity>& slot = identities_[SensorIdentityKey(domain, group, tags)];
  std::shared_ptr<const SensorIdentity> identity = slot.lock();
  if (!identity) {
    identity = std::make_shared<const SensorIdentity>(SensorIdentity{domain, group, tags});
    slot = identity;
  }
  if (identities_.size() >= 2 * std::max<size_t>(identities_swept_at_, 64)) {
    std::erase_if(identities_, [](const auto& entry) { return entry.second.expired(); });
    identities_swept_at_ = identities_.size();
  }
  return identity;
}

const StatSpec* MetricsRegistry::Intern(StatSpec spec) {
  return &*specs_.insert(std::move(spec)).first;
}

std::shared_ptr<Sensor> MetricsRegistry::Add(MetricsScope* scope, const std::string& domain,
                                             const std::string& group, const Tags& tags,
                                             std::vector<StatSpec> stats, int64_t now_ms,
                                             GaugeFunction gauge) {
  std::lock_guard lock(mu_);
  std::vector<const StatSpec*> specs;
  specs.reserve(stats.size());
  for (StatSpec& stat : stats) specs.push_back(Intern(std::move(stat)));
  auto sensor = std::make_shared<Sensor>(scope, Identity(domain, group, tags), std::move(specs),
                                         window_, now_ms, std::move(gauge));
  for (size_t i = 0; i < sensor->stat_count(); ++i) {
    auto old = by_metric_.find(sensor->name(i));
    if (old == by_metric_.end()) continue;
    // The replaced sensor stays alive in its scope (its owner may still record into it); it is
    // only unpublished: every metric it published goes, not only the one with this name.
    std::shared_ptr<Sensor> replaced = old->sensor;
    for (size_t j = 0; j < replaced->stat_count(); ++j) {
      auto it = by_metric_.find(replaced->name(j));
      if (it != by_metric_.end() && it->sensor == replaced) by_metric_.erase(it);
    }
  }
  for (size_t i = 0; i < sensor->stat_count(); ++i) by_metric_.insert(Published{sensor, i});
  return sensor;
}

void MetricsRegistry::Remove(const Sensor* sensor) {
  std::lock_guard lock(mu_);
  for (size_t i = 0; i < sensor->stat_count(); ++i) {
    auto it = by_metric_.find(sensor->name(i));
    if (it != by_metric_.end() && it->sensor.get() == sensor) by_metric_.erase(it);
  }
}

std::vector<MetricValue> MetricsRegistry::Measure(const std::vector<Published>& metrics,
                                                  int64_t now_ms) const {
  // Measured outside the registry's lock: each sensor locks itself.
  std::vector<MetricValue> values;
  values.reserve(metrics.size());
  for (const Published& m : metrics) {
    const StatSpec& stat = m.sensor->stat(m.index);
    values.push_back(MetricValue{m.name().ToName(), stat.description, stat.kind,
                                 m.sensor->Measure(m.index, now_ms), stat.level});
  }
  return values;
}

std::vector<MetricValue> MetricsRegistry::Snapshot(int64_t now_ms) const {
  std::vector<Published> metrics;
  {
    std::lock_guard lock(mu_);
    metrics.reserve(by_metric_.size());
    for (const Published& published : by_metric_) {
      if (published.sensor->stat(published.index).level <= served_level_) {
        metrics.push_back(published);
      }
    }
  }
  return Measure(metrics, now_ms);
}

std::vector<MetricsRegistry::Published> MetricsRegistry::Group(
    std::string_view domain, std::string_view group,
    std::span<const std::string_view> names) const {
  std::vector<Published> metrics;
  std::lock_guard lock(mu_);
  if (names.empty()) {
    auto [begin, end] = by_metric_.equal_range(GroupName{domain, group});
    metrics.assign(begin, end);
  }
  for (std::string_view name : names) {
    auto [begin, end] = by_metric_.equal_range(StatName{domain, group, name});
    metrics.insert(metrics.end(), begin, end);
  }
  return metrics;
}

std::vector<MetricValue> MetricsRegistry::Snapshot(int64_t now_ms, std::string_view domain,
                                                   std::string_view group) const {
  return Measure(Group(domain, group), now_ms);
}

void MetricsRegistry::Visit(int64_t now_ms, std::string_view domain, std::string_view group,
                            const std::function<void(const MetricNameView&, double)>& visit,
                            std::span<const std::string_view> names) const {
  const std::vector<Published> metrics = Group(domain, group, names);
  // Each sensor is a cache miss (flow health reads 70,000 of them): ask for a few ahead.
  constexpr size_t kAhead = 8;
  for (size_t i = 0; i < metrics.size(); ++i) {
    if (i + kAhead < metrics.size()) __builtin_prefetch(metrics[i + kAhead].sensor.get());
    const Published& m = metrics[i];
    visit(m.name(), m.sensor->Measure(m.index, now_ms));
  }
}

std::optional<RecordingLevel> ParseRecordingLevel(std::string_view name) {
  if (name == "INFO") return RecordingLevel::kInfo;
  if (name == "DEBUG") return RecordingLevel::kDebug;
  if (name == "TRACE") return RecordingLevel::kTrace;
  return std::nullopt;
}

MetricsScope::~MetricsScope() { UnpublishAll(); }

void MetricsScope::UnpublishAll() {
  std::vector<std::shared_ptr<Sensor>> sensors;
  {
    std::lock_guard lock(mu_);
    sensors = sensors_;
  }
  for (const auto& sensor : sensors) registry_->Remove(sensor.get());
}

Sensor* MetricsScope::AddSensor(const std::string& domain, const std::string& group,
                                const Tags& tags, std::vector<StatSpec> stats, int64_t now_ms) {
  if (group.empty() || stats.empty()) return nullptr;
  for (const StatSpec& stat : stats) {
    if (stat.name.empty()) return nullptr;
  }
  std::shared_ptr<Sensor> sensor =
      registry_->Add(this, domain, group, tags, std::move(stats), now_ms);
  std::lock_guard lock(mu_);
  sensors_.push_back(sensor);
  return sensor.get();
}

Sensor* MetricsScope::AddGauge(const std::string& domain, const std::string& group,
                               const Tags& tags, StatSpec stat, GaugeFunction gauge) {
  if (group.empty() || stat.name.empty() || !gauge) return nullptr;
  stat.kind = StatKind::kGauge;
  std::shared_ptr<Sensor> sensor =
      registry_->Add(this, domain, group, tags, {std::move(stat)}, NowMs(), std::move(gauge));
  std::lock_guard lock(mu_);
  sensors_.push_back(sensor);
  return sensor.get();
}

void MetricsScope::RemoveSensor(Sensor* sensor) {
  registry_->Remove(sensor);
  std::lock_guard lock(mu_);
  std::erase_if(sensors_, [sensor](const auto& s) { return s.get() == sensor; });
}

}  // namespace connectd::metrics
