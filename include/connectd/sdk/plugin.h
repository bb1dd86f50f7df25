// File: connectd/sdk/plugin.h
//
// Declares a plugin: one line in one .cc file of the shared object,
//
//   CONNECTD_PLUGIN("connect-file", "4.4.0", FileStreamSourceConnector, FileStreamSinkConnector)
//
// expands to the exported C entry point and static descriptors built from each class's
// kClassName, kVersion, configDef() (and a connector's TaskType). The list may mix connectors,
// transformations and predicates (connectd/sdk/transformation.h) in any order. The trampolines
// below are the only code that touches the C vtables: they turn every exception into a status code
// plus message, so no C++ exception ever crosses the ABI.
#pragma once

#include <exception>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <vector>

#include "connectd/plugin/abi.h"
#include "connectd/sdk/config_def.h"
#include "connectd/sdk/connector.h"
#include "connectd/sdk/errors.h"
#include "connectd/sdk/host.h"
#include "connectd/sdk/records.h"
#include "connectd/sdk/task.h"
#include "connectd/sdk/transformation.h"

namespace connectd::sdk {
namespace internal {

inline connectd_status Fail(connectd_error_host_ptr* error, connectd_status code,
                            std::string_view message) {
  Host().set_error(error, ToStr(message));
  return code;
}

// Runs `body`; converts any exception into a status and message.
template <typename Body>
connectd_status Guard(connectd_error_host_ptr* error, Body&& body) {
  try {
    body();
    return CONNECTD_STATUS_OK;
  } catch (const ConnectException& e) {
    return Fail(error, e.code(), e.what());
  } catch (const std::exception& e) {
    return Fail(error, CONNECTD_STATUS_INTERNAL, std::string(e.what()));
  } catch (...) {
    return Fail(error, CONNECTD_STATUS_INTERNAL, "unknown exception thrown by plugin");
  }
}

// For hooks that cannot report (stop, destroy): an exception is logged and swallowed.
template <typename Body>
void GuardNoThrow(const char* what, Body&& body) noexcept {
  try {
    body();
  } catch (const std::exception& e) {
    Log(CONNECTD_LOG_ERROR, "connectd.sdk", std::string(what) + " threw: " + e.what());
  } catch (...) {
    Log(CONNECTD_LOG_ERROR, "connectd.sdk", std::string(what) + " threw an unknown exception");
  }
}

inline std::vector<TopicPartition> ToPartitions(const connectd_topic_partition* p, size_t n) {
  std::vector<TopicPartition> out;
  out.reserve(n);
  for (size_t i = 0; i < n; ++i) out.push_back({std::string(FromStr(p[i].topic)), p[i].partition});
  return out;
}

inline OffsetMap ToOffsetMap(const connectd_topic_partition_offset* p, size_t n) {
  OffsetMap out;
  for (size_t i = 0; i < n; ++i)
    out[{std::string(FromStr(p[i].topic)), p[i].partition}] = p[i].offset;
  return out;
}

}  // namespace internal

template <typename C>
struct ConnectorTrampolines {
  static C* Self(connectd_connector_plugin_ptr* p) {
    return static_cast<C*>(reinterpret_cast<Connector*>(p));
  }
  static connectd_connector_plugin_ptr* Create(connectd_connector_context_host_ptr* context,
                                               connectd_error_host_ptr* error) {
    C* connector = nullptr;
    internal::Guard(error, [&] {
      connector = new C();
      connector->context_.emplace(context);
    });
    return reinterpret_cast<connectd_connector_plugin_ptr*>(static_cast<Connector*>(connector));
  }
  static connectd_status Validate(connectd_connector_plugin_ptr* p, connectd_props props,
                                  connectd_validation_host_ptr* validation,
                                  connectd_error_host_ptr* error) {
    return internal::Guard(error, [&] {
      Validation v(validation);
      Self(p)->validate(FromAbi(props), v);
    });
  }
  static connectd_status Start(connectd_connector_plugin_ptr* p, connectd_props props,
                               connectd_error_host_ptr* error) {
    return internal::Guard(error, [&] { Self(p)->start(FromAbi(props)); });
  }
  static connectd_status TaskConfigs(connectd_connector_plugin_ptr* p, int32_t max_tasks,
                                     connectd_task_configs_host_ptr* configs,
                                     connectd_error_host_ptr* error) {
    return internal::Guard(error, [&] {
      std::vector<connectd_kv> items;
      for (const Props& props : Self(p)->taskConfigs(max_tasks)) {
        items.clear();
        for (const auto& [k, v] : props) items.push_back({ToStr(k), ToStr(v)});
        Host().task_configs_add(configs, {items.data(), items.size()});
      }
    });
  }
  static connectd_status Stop(connectd_connector_plugin_ptr* p, connectd_error_host_ptr* error) {
    return internal::Guard(error, [&] { Self(p)->stop(); });
  }
  static void Destroy(connectd_connector_plugin_ptr* p) {
    internal::GuardNoThrow("Connector destructor", [&] { delete Self(p); });
  }
  static connectd_status AlterOffsets(connectd_connector_plugin_ptr* p, connectd_props config,
                                      connectd_props offsets, int32_t* handled,
                                      connectd_error_host_ptr* error) {
    return internal::Guard(error, [&] {
      std::vector<OffsetChange> changes;
      for (size_t i = 0; i < offsets.count; ++i) {
        OffsetChange change{std::string(FromStr(offsets.items[i].key)), std::nullopt};
        if (offsets.items[i].value.data != nullptr) {
          change.offset = std::string(FromStr(offsets.items[i].value));
        }
        changes.push_back(std::move(change));
      }
      *handled = Self(p)->alterOffsets(FromAbi(config), changes) ? 1 : 0;
    });
  }

  static connectd_status ExactlyOnce(connectd_connector_plugin_ptr* p, connectd_props config,
                                     int32_t* support, connectd_error_host_ptr* error) {
    return internal::Guard(error, [&] {
      *support = CONNECTD_EXACTLY_ONCE_SUPPORT_NONE;
      if constexpr (std::is_base_of_v<SourceConnector, C>) {
        switch (Self(p)->exactlyOnceSupport(FromAbi(config))) {
          case ExactlyOnceSupport::kSupported:
            *support = CONNECTD_EXACTLY_ONCE_SUPPORT_SUPPORTED;
            break;
          case ExactlyOnceSupport::kUnsupported:
            *support = CONNECTD_EXACTLY_ONCE_SUPPORT_UNSUPPORTED;
            break;
          case ExactlyOnceSupport::kNone:
            break;
        }
      }
    });
  }

  static constexpr connectd_connector_vtable kVtable = {
      sizeof(connectd_connector_vtable),
      &Create,
      &Validate,
      &Start,
      &TaskConfigs,
      &Stop,
      &Destroy,
#if CONNECTD_PLUGIN_ABI_TARGET_MINOR >= 1
      &AlterOffsets,
#endif
#if CONNECTD_PLUGIN_ABI_TARGET_MINOR >= 4
      &ExactlyOnce,
#endif
  };
};

template <typename T>
struct SourceTaskTrampolines {
  static T* Self(connectd_task_plugin_ptr* p) {
    return static_cast<T*>(reinterpret_cast<SourceTask*>(p));
  }
  static connectd_task_plugin_ptr* Create(connectd_source_task_context_host_ptr* context,
                                          connectd_error_host_ptr* error) {
    T* task = nullptr;
    internal::Guard(error, [&] {
      task = new T();
      task->context_.emplace(context);
    });
    return reinterpret_cast<connectd_task_plugin_ptr*>(static_cast<SourceTask*>(task));
  }
  static connectd_status Start(connectd_task_plugin_ptr* p, connectd_props props,
                               connectd_error_host_ptr* error) {
    return internal::Guard(error, [&] { Self(p)->start(FromAbi(props)); });
  }
  static connectd_status Poll(connectd_task_plugin_ptr* p, int32_t timeout_ms,
                              connectd_source_batch_host_ptr* batch,
                              connectd_error_host_ptr* error) {
    return internal::Guard(error, [&] {
      SourceBatch out(batch, timeout_ms);
      Self(p)->poll(out);
    });
  }
  static connectd_status Commit(connectd_task_plugin_ptr* p, connectd_error_host_ptr* error) {
    return internal::Guard(error, [&] { Self(p)->commit(); });
  }
  static connectd_status CommitRecord(connectd_task_plugin_ptr* p,
                                      const connectd_source_record* record,
                                      const connectd_record_metadata* metadata,
                                      connectd_error_host_ptr* error) {
    return internal::Guard(error, [&] {
      if (metadata == nullptr) {
        Self(p)->commitRecord(SourceRecordView(*record), nullptr);
        return;
      }
      RecordMetadata m{FromStr(metadata->topic), metadata->partition, metadata->offset,
                       metadata->timestamp_ms};
      Self(p)->commitRecord(SourceRecordView(*record), &m);
    });
  }
  static void Stop(connectd_task_plugin_ptr* p) {
    internal::GuardNoThrow("SourceTask.stop", [&] { Self(p)->stop(); });
  }
  static void Destroy(connectd_task_plugin_ptr* p) {
    internal::GuardNoThrow("SourceTask destructor", [&] { delete Self(p); });
  }
#if CONNECTD_PLUGIN_ABI_TARGET_MINOR >= 7
  static connectd_status BatchCopy(connectd_task_plugin_ptr* p, const connectd_batch_copy_event* e,
                                   connectd_error_host_ptr* error) {
    return internal::Guard(error, [&] {
      BatchCopyEvent event;
      event.kind = e->kind == CONNECTD_BATCH_COPY_ACKED      ? BatchCopyEvent::Kind::kAcked
                   : e->kind == CONNECTD_BATCH_COPY_RETURNED ? BatchCopyEvent::Kind::kReturned
                                                             : BatchCopyEvent::Kind::kProgress;
      event.source_topic = FromStr(e->source_topic);
      event.partition = e->partition;
      event.target_topic = FromStr(e->target_topic);
      event.position = e->position;
      event.source_end_offset = e->source_end_offset;
      event.upstream_first = e->upstream_first;
      event.upstream_last = e->upstream_last;
      event.record_count = e->record_count;
      event.downstream_base = e->downstream_base;
      event.batch_bytes = e->batch_bytes;
      event.max_timestamp_ms = e->max_timestamp_ms;
      event.error_code = e->error_code;
      event.reason = FromStr(e->reason);
      event.copy_again_at = e->copy_again_at;
      event.fetch_throttle_ms = e->fetch_throttle_ms;
#if CONNECTD_PLUGIN_ABI_TARGET_MINOR >= 8
      if (e->struct_size >=
          offsetof(connectd_batch_copy_event, target_error_code) + sizeof(e->target_error_code)) {
        event.source_error_code = e->source_error_code;
        event.target_error_code = e->target_error_code;
      }
#endif
#if CONNECTD_PLUGIN_ABI_TARGET_MINOR >= 9
      if (e->struct_size >=
          offsetof(connectd_batch_copy_event, truncated_offsets) + sizeof(e->truncated_offsets)) {
        event.truncated_offsets = e->truncated_offsets;
      }
#endif
      Self(p)->batchCopyEvent(event);
    });
  }
#endif

  static constexpr connectd_source_task_vtable kVtable = {
      sizeof(connectd_source_task_vtable),
      &Create,
      &Start,
      &Poll,
      &Commit,
      &CommitRecord,
      &Stop,
      &Destroy,
#if CONNECTD_PLUGIN_ABI_TARGET_MINOR >= 7
      &BatchCopy,
#endif
  };
};

template <typename T>
struct SinkTaskTrampolines {
  static T* Self(connectd_task_plugin_ptr* p) {
    return static_cast<T*>(reinterpret_cast<SinkTask*>(p));
  }
  static connectd_task_plugin_ptr* Create(connectd_sink_task_context_host_ptr* context,
                                          connectd_error_host_ptr* error) {
    T* task = nullptr;
    internal::Guard(error, [&] {
      task = new T();
      task->context_.emplace(context);
    });
    return reinterpret_cast<connectd_task_plugin_ptr*>(static_cast<SinkTask*>(task));
  }
  static connectd_status Start(connectd_task_plugin_ptr* p, connectd_props props,
                               connectd_error_host_ptr* error) {
    return internal::Guard(error, [&] { Self(p)->start(FromAbi(props)); });
  }
  static connectd_status Open(connectd_task_plugin_ptr* p, const connectd_topic_partition* tps,
                              size_t n, connectd_error_host_ptr* error) {
    return internal::Guard(error, [&] { Self(p)->open(internal::ToPartitions(tps, n)); });
  }
  static connectd_status Close(connectd_task_plugin_ptr* p, const connectd_topic_partition* tps,
                               size_t n, connectd_error_host_ptr* error) {
    return internal::Guard(error, [&] { Self(p)->close(internal::ToPartitions(tps, n)); });
  }
  static connectd_status Put(connectd_task_plugin_ptr* p, const connectd_sink_record* records,
                             size_t n, connectd_error_host_ptr* error) {
    return internal::Guard(error, [&] { Self(p)->put(SinkRecords(records, n)); });
  }
  static connectd_status PreCommit(connectd_task_plugin_ptr* p,
                                   const connectd_topic_partition_offset* current, size_t n,
                                   connectd_offsets_host_ptr* committable,
                                   connectd_error_host_ptr* error) {
    return internal::Guard(error, [&] {
      for (const auto& [tp, offset] : Self(p)->preCommit(internal::ToOffsetMap(current, n))) {
        Host().offsets_add(committable, {ToStr(tp.topic), tp.partition, offset});
      }
    });
  }
  static connectd_status Flush(connectd_task_plugin_ptr* p,
                               const connectd_topic_partition_offset* current, size_t n,
                               connectd_error_host_ptr* error) {
    return internal::Guard(error, [&] { Self(p)->flush(internal::ToOffsetMap(current, n)); });
  }
  static void Stop(connectd_task_plugin_ptr* p) {
    internal::GuardNoThrow("SinkTask.stop", [&] { Self(p)->stop(); });
  }
  static void Destroy(connectd_task_plugin_ptr* p) {
    internal::GuardNoThrow("SinkTask destructor", [&] { delete Self(p); });
  }

  static constexpr connectd_sink_task_vtable kVtable = {sizeof(connectd_sink_task_vtable),
                                                        &Create,
                                                        &Start,
                                                        &Open,
                                                        &Close,
                                                        &Put,
                                                        &PreCommit,
                                                        &Flush,
                                                        &Stop,
                                                        &Destroy};
};

template <typename T>
struct TransformationTrampolines {
  static T* Self(connectd_transformation_plugin_ptr* p) {
    return static_cast<T*>(reinterpret_cast<Transformation*>(p));
  }
  static connectd_transformation_plugin_ptr* Create(connectd_error_host_ptr* error) {
    T* t = nullptr;
    internal::Guard(error, [&] { t = new T(); });
    return reinterpret_cast<connectd_transformation_plugin_ptr*>(static_cast<Transformation*>(t));
  }
  static connectd_status Configure(connectd_transformation_plugin_ptr* p, connectd_props configs,
                                   connectd_error_host_ptr* error) {
    return internal::Guard(error, [&] { Self(p)->configure(FromAbi(configs)); });
  }
  static connectd_status Apply(connectd_transformation_plugin_ptr* p,
                               const connectd_connect_record* record,
                               connectd_record_out_host_ptr* out, connectd_error_host_ptr* error) {
    return internal::Guard(error, [&] {
      std::optional<ConnectRecord> result = Self(p)->apply(internal::FromAbi(*record));
      if (!result) return;
      AbiWriter writer;
      std::vector<connectd_connect_header> headers;
      connectd_connect_record abi;
      internal::ToAbi(*result, writer, headers, abi);
      const connectd_status status = Host().record_out_set(out, &abi);
      if (status != CONNECTD_STATUS_OK) {
        throw ConnectException(
            std::string(T::kClassName) + " returned a record whose data does not match its schema",
            status);
      }
    });
  }
  static void Destroy(connectd_transformation_plugin_ptr* p) {
    internal::GuardNoThrow("Transformation destructor", [&] { delete Self(p); });
  }
  static constexpr connectd_transformation_vtable kVtable = {sizeof(connectd_transformation_vtable),
                                                             &Create, &Configure, &Apply, &Destroy};
};

template <typename T>
struct PredicateTrampolines {
  static T* Self(connectd_predicate_plugin_ptr* p) {
    return static_cast<T*>(reinterpret_cast<Predicate*>(p));
  }
  static connectd_predicate_plugin_ptr* Create(connectd_error_host_ptr* error) {
    T* t = nullptr;
    internal::Guard(error, [&] { t = new T(); });
    return reinterpret_cast<connectd_predicate_plugin_ptr*>(static_cast<Predicate*>(t));
  }
  static connectd_status Configure(connectd_predicate_plugin_ptr* p, connectd_props configs,
                                   connectd_error_host_ptr* error) {
    return internal::Guard(error, [&] { Self(p)->configure(FromAbi(configs)); });
  }
  static connectd_status Test(connectd_predicate_plugin_ptr* p,
                              const connectd_connect_record* record, int32_t* result,
                              connectd_error_host_ptr* error) {
    return internal::Guard(error,
                           [&] { *result = Self(p)->test(internal::FromAbi(*record)) ? 1 : 0; });
  }
  static void Destroy(connectd_predicate_plugin_ptr* p) {
    internal::GuardNoThrow("Predicate destructor", [&] { delete Self(p); });
  }
  static constexpr connectd_predicate_vtable kVtable = {sizeof(connectd_predicate_vtable), &Create,
                                                        &Configure, &Test, &Destroy};
};

namespace internal {

template <typename C>
const std::vector<connectd_config_key>& ConfigKeysOf() {
  static const ConfigDef def = C::configDef();
  static const std::vector<connectd_config_key> keys = [] {
    std::vector<connectd_config_key> out;
    for (const ConfigKey& key : def.keys()) out.push_back(key.ToAbi());
    return out;
  }();
  return keys;
}

template <typename C>
const connectd_connector_descriptor* Describe() {
  static_assert(std::is_base_of_v<Connector, C>,
                "a connector derives from SourceConnector or "
                "SinkConnector");
  static const connectd_connector_descriptor descriptor = [] {
    const std::vector<connectd_config_key>& keys = ConfigKeysOf<C>();
    connectd_connector_descriptor d{};
    d.struct_size = sizeof(connectd_connector_descriptor);
    d.class_name = C::kClassName;
    d.type = C::kType;
    d.version = C::kVersion;
    d.config_keys = keys.data();
    d.config_key_count = keys.size();
    d.connector = &ConnectorTrampolines<C>::kVtable;
    if constexpr (C::kType == CONNECTD_CONNECTOR_TYPE_SOURCE) {
      static_assert(std::is_base_of_v<SourceTask, typename C::TaskType>,
                    "a source connector's TaskType derives from SourceTask");
      d.source_task = &SourceTaskTrampolines<typename C::TaskType>::kVtable;
    } else {
      static_assert(std::is_base_of_v<SinkTask, typename C::TaskType>,
                    "a sink connector's TaskType derives from SinkTask");
      d.sink_task = &SinkTaskTrampolines<typename C::TaskType>::kVtable;
    }
    return d;
  }();
  return &descriptor;
}

// Descriptors of a transformation or predicate class (Descriptor = connectd_*_descriptor).
template <typename T, typename Descriptor, typename Vtable>
const Descriptor* DescribeStage(const Vtable* vtable) {
  static const Descriptor descriptor = [vtable] {
    Descriptor d{};
    d.struct_size = sizeof(Descriptor);
    d.class_name = T::kClassName;
    d.version = T::kVersion;
    d.config_keys = ConfigKeysOf<T>().data();
    d.config_key_count = ConfigKeysOf<T>().size();
    d.vtable = vtable;
    return d;
  }();
  return &descriptor;
}

// The plugin's classes sorted by kind, in declaration order.
struct PluginClasses {
  std::vector<const connectd_connector_descriptor*> connectors;
  std::vector<const connectd_transformation_descriptor*> transformations;
  std::vector<const connectd_predicate_descriptor*> predicates;

  template <typename T>
  void Add() {
    if constexpr (std::is_base_of_v<Connector, T>) {
      connectors.push_back(Describe<T>());
    } else if constexpr (std::is_base_of_v<Transformation, T>) {
      static_assert(CONNECTD_PLUGIN_ABI_TARGET_MINOR >= 5 || sizeof(T) == 0,
                    "transformations need ABI 1.5");
      transformations.push_back(DescribeStage<T, connectd_transformation_descriptor>(
          &TransformationTrampolines<T>::kVtable));
    } else {
      static_assert(std::is_base_of_v<Predicate, T>,
                    "CONNECTD_PLUGIN lists connectors, transformations and predicates");
      static_assert(CONNECTD_PLUGIN_ABI_TARGET_MINOR >= 5 || sizeof(T) == 0,
                    "predicates need ABI 1.5");
      predicates.push_back(
          DescribeStage<T, connectd_predicate_descriptor>(&PredicateTrampolines<T>::kVtable));
    }
  }
};

template <typename... Classes>
const connectd_plugin_descriptor* PluginEntry(const connectd_host_api* host,
                                              connectd_error_host_ptr* error, const char* name,
                                              const char* version) noexcept {
  // With another major, return the descriptor untouched by the host: its leading version
  // fields are the same in every major, and the host refuses us naming both versions.
  const bool same_major = host != nullptr && host->abi_major == CONNECTD_PLUGIN_ABI_VERSION_MAJOR;
  if (same_major) internal::g_host = host;
  if (same_major && host->struct_size < sizeof(connectd_host_api)) {
    Fail(error, CONNECTD_STATUS_FAILED_PRECONDITION,
         "the worker's plugin ABI is older than the one this plugin needs");
    return nullptr;
  }
  try {
    static const PluginClasses classes = [] {
      PluginClasses c;
      (c.Add<Classes>(), ...);
      return c;
    }();
    static const connectd_plugin_descriptor descriptor = [name, version] {
      connectd_plugin_descriptor d{};
      d.struct_size = sizeof(connectd_plugin_descriptor);
      d.abi_major = CONNECTD_PLUGIN_ABI_VERSION_MAJOR;
      d.abi_minor = CONNECTD_PLUGIN_ABI_TARGET_MINOR;
      d.name = name;
      d.version = version;
      d.connectors = classes.connectors.data();
      d.connector_count = classes.connectors.size();
#if CONNECTD_PLUGIN_ABI_TARGET_MINOR >= 5
      d.transformations = classes.transformations.data();
      d.transformation_count = classes.transformations.size();
      d.predicates = classes.predicates.data();
      d.predicate_count = classes.predicates.size();
#endif
      return d;
    }();
    return &descriptor;
  } catch (const std::exception& e) {
    Fail(error, CONNECTD_STATUS_INTERNAL, std::string("plugin initialisation failed: ") + e.what());
    return nullptr;
  }
}

}  // namespace internal
}  // namespace connectd::sdk

// Exports the plugin's entry point. Use once per shared object, in one .cc file.
#define CONNECTD_PLUGIN(name, version, ...)                                                  \
  extern "C" CONNECTD_PLUGIN_EXPORT const connectd_plugin_descriptor* connectd_plugin_entry( \
      const connectd_host_api* host, connectd_error_host_ptr* error) {                       \
    return ::connectd::sdk::internal::PluginEntry<__VA_ARGS__>(host, error, name, version);  \
  }
