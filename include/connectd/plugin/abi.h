/*
 * File: connectd/plugin/abi.h
 *
 * The connectd plugin ABI: the pure-C boundary between the worker (the host) and connector
 * plugins (shared objects found on `plugin.path`). It mirrors Kafka Connect's `connect/api`:
 * Connector, SourceTask, SinkTask, their contexts, records and ConfigDef.
 *
 * Plugin authors normally use the header-only C++ SDK (connectd/sdk/sdk.h) instead of this file.
 *
 * COMPATIBILITY POLICY
 *   - The version is CONNECTD_PLUGIN_ABI_VERSION_MAJOR.CONNECTD_PLUGIN_ABI_VERSION_MINOR.
 *   - The host refuses a plugin whose major differs from its own, naming both versions.
 *   - Minor versions only append: new fields at the end of a struct, new hooks at the end of a
 *     vtable, new functions at the end of the host table. Nothing is removed, reordered or
 *     changed in meaning; a field is deprecated, never deleted.
 *   - Every struct that crosses the boundary starts with `uint32_t struct_size`. A reader reads
 *     a field only if struct_size covers it, so a host accepts plugins of older and newer minors,
 *     and a plugin can use the host functions of any host of the same major.
 *   - A plugin may compile against an older minor's layout by defining
 *     CONNECTD_PLUGIN_ABI_TARGET_MINOR before including this header.
 *   - tests/abi pins this header's content to its version: changing it without changing the
 *     version fails the build's tests.
 *
 * HISTORY
 *   1.0  Connector, SourceTask, SinkTask, contexts, records, ConfigDef.
 *   1.1  connectd_connector_vtable.alter_offsets (KIP-875).
 *   1.2  source_batch_append copies a zero-copy record's source partition, source offset and
 *        topic (a host guarantee; no layout change).
 *   1.3  Metrics: host functions source_task_metrics, sink_task_metrics, connector_metrics,
 *        sensor_add, sensor_record, sensor_remove (Kafka's Sensor with its stats).
 *   1.4  connectd_connector_vtable.exactly_once_support (KIP-618's
 *        SourceConnector.exactlyOnceSupport).
 *   1.5  Connect data (connectd_schema, connectd_value): source records may carry Connect data
 *        instead of bytes, sink records carry their converted data; Transformations and
 *        Predicates as plugins (descriptor arrays, vtables, host function record_out_set).
 *   1.6  CONNECTD_STAT_DEBUG: a metric at Kafka's DEBUG recording level (a flag in
 *        connectd_metric_stat.kind; a 1.3-1.5 host refuses it).
 *   1.7  Batch pass-through: host function source_task_copy_batches and the source task hook
 *        batch_copy_event (the host copies a task's source partitions as record batches);
 *        host function sensor_record_many (one value recorded many times at once).
 *   1.8  connectd_batch_copy_event.source_error_code and target_error_code: a PROGRESS event
 *        says which cluster gave its error.
 *   1.9  connectd_batch_copy_event.truncated_offsets: a RETURNED event says how many offsets
 *        the target holds that the source lost afterwards (an unclean leader election).
 *
 * OWNERSHIP
 *   - `connectd_str` and `connectd_bytes` are views. A view handed to a callee is valid only for
 *     the duration of that call, unless the struct carrying it says otherwise; a callee that
 *     keeps data copies it.
 *   - Handle types ending in `_plugin_ptr` belong to the plugin; the host releases them only
 *     through the plugin's `destroy` hook. Types ending in `_host_ptr` belong to the host; the
 *     plugin never frees them and uses them only during the call that handed them over (a
 *     context handle lives as long as the object it was created with).
 *   - A source record may hand its payload memory to the host with a `release` callback
 *     (zero-copy): the host then reads the key, value and headers in place until the record is
 *     acknowledged or dropped, and calls `release` exactly once, from any thread.
 *
 * ERRORS
 *   Fallible hooks return a connectd_status whose integers equal absl::StatusCode. The plugin
 *   puts a message into the `connectd_error_host_ptr` it was given (host->set_error).
 *   CONNECTD_STATUS_UNAVAILABLE means retriable (Connect's RetriableException): the host retries
 *   the call. Any other non-OK code is fatal for the connector or task, which becomes FAILED
 *   with the message as its trace. No C++ exception may cross this boundary.
 *
 * THREADS
 *   Each hook's doc block carries an `@thread` line. A task's hooks run on its own task thread,
 *   except `stop`, which may arrive on another thread while `poll`/`put` is running: `stop` must
 *   be thread-safe and only signal; `poll` must return regularly (within about its timeout).
 *   Host functions may be called from any thread unless they say otherwise.
 */
#ifndef CONNECTD_PLUGIN_ABI_H_
#define CONNECTD_PLUGIN_ABI_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CONNECTD_PLUGIN_ABI_VERSION_MAJOR 1
#define CONNECTD_PLUGIN_ABI_VERSION_MINOR 9

/* The minor version whose layout this translation unit sees. */
#ifndef CONNECTD_PLUGIN_ABI_TARGET_MINOR
#define CONNECTD_PLUGIN_ABI_TARGET_MINOR CONNECTD_PLUGIN_ABI_VERSION_MINOR
#endif

/* The one symbol a plugin exports. */
#define CONNECTD_PLUGIN_ENTRY_SYMBOL "connectd_plugin_entry"

#if defined(__GNUC__)
#define CONNECTD_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define CONNECTD_PLUGIN_EXPORT
#endif

/* ------------------------------------------------------------------------------------------ */
/* Basic types                                                                                 */

/* Status codes: the integers of absl::StatusCode. */
typedef int32_t connectd_status;
#define CONNECTD_STATUS_OK 0
#define CONNECTD_STATUS_CANCELLED 1
#define CONNECTD_STATUS_UNKNOWN 2
#define CONNECTD_STATUS_INVALID_ARGUMENT 3
#define CONNECTD_STATUS_DEADLINE_EXCEEDED 4
#define CONNECTD_STATUS_NOT_FOUND 5
#define CONNECTD_STATUS_ALREADY_EXISTS 6
#define CONNECTD_STATUS_PERMISSION_DENIED 7
#define CONNECTD_STATUS_RESOURCE_EXHAUSTED 8
#define CONNECTD_STATUS_FAILED_PRECONDITION 9
#define CONNECTD_STATUS_ABORTED 10
#define CONNECTD_STATUS_OUT_OF_RANGE 11
#define CONNECTD_STATUS_UNIMPLEMENTED 12
#define CONNECTD_STATUS_INTERNAL 13
#define CONNECTD_STATUS_UNAVAILABLE 14 /* retriable */
#define CONNECTD_STATUS_DATA_LOSS 15
#define CONNECTD_STATUS_UNAUTHENTICATED 16

/* A string view: `size` bytes at `data`, not NUL-terminated. {NULL, 0} is an absent string. */
typedef struct connectd_str {
  const char* data;
  size_t size;
} connectd_str;

/* A byte view. `data == NULL` is Kafka's null (a null key or a tombstone value); a non-NULL
 * `data` with `size == 0` is an empty, non-null array. */
typedef struct connectd_bytes {
  const void* data;
  size_t size;
} connectd_bytes;

/* One configuration entry; `props` are a connector's or task's string properties. */
typedef struct connectd_kv {
  connectd_str key;
  connectd_str value;
} connectd_kv;

typedef struct connectd_props {
  const connectd_kv* items;
  size_t count;
} connectd_props;

/* A record header. */
typedef struct connectd_header {
  connectd_str key;
  connectd_bytes value;
} connectd_header;

typedef struct connectd_topic_partition {
  connectd_str topic;
  int32_t partition;
} connectd_topic_partition;

typedef struct connectd_topic_partition_offset {
  connectd_str topic;
  int32_t partition;
  int64_t offset;
} connectd_topic_partition_offset;

/* Opaque host-owned handles. */
typedef struct connectd_error_host_ptr connectd_error_host_ptr;
typedef struct connectd_connector_context_host_ptr connectd_connector_context_host_ptr;
typedef struct connectd_task_configs_host_ptr connectd_task_configs_host_ptr;
typedef struct connectd_validation_host_ptr connectd_validation_host_ptr;
typedef struct connectd_source_task_context_host_ptr connectd_source_task_context_host_ptr;
typedef struct connectd_source_batch_host_ptr connectd_source_batch_host_ptr;
typedef struct connectd_sink_task_context_host_ptr connectd_sink_task_context_host_ptr;
typedef struct connectd_offsets_host_ptr connectd_offsets_host_ptr;
typedef struct connectd_metrics_host_ptr connectd_metrics_host_ptr;
typedef struct connectd_sensor_host_ptr connectd_sensor_host_ptr;

/* Opaque plugin-owned handles. */
typedef struct connectd_connector_plugin_ptr connectd_connector_plugin_ptr;
typedef struct connectd_task_plugin_ptr connectd_task_plugin_ptr;

/* ------------------------------------------------------------------------------------------ */
/* Connect data (1.5): org.apache.kafka.connect.data's Schema and values as C views            */

/* Schema.Type, in Java's declaration order. */
#define CONNECTD_TYPE_INT8 0
#define CONNECTD_TYPE_INT16 1
#define CONNECTD_TYPE_INT32 2
#define CONNECTD_TYPE_INT64 3
#define CONNECTD_TYPE_FLOAT32 4
#define CONNECTD_TYPE_FLOAT64 5
#define CONNECTD_TYPE_BOOLEAN 6
#define CONNECTD_TYPE_STRING 7
#define CONNECTD_TYPE_BYTES 8
#define CONNECTD_TYPE_ARRAY 9
#define CONNECTD_TYPE_MAP 10
#define CONNECTD_TYPE_STRUCT 11

/* The Java class a value is: null, Byte .. Double, Boolean, String, byte[], List, Map, Struct,
 * BigDecimal (Decimal logical type) and java.util.Date (Date, Time, Timestamp logical types). */
#define CONNECTD_VALUE_NULL 0
#define CONNECTD_VALUE_INT8 1
#define CONNECTD_VALUE_INT16 2
#define CONNECTD_VALUE_INT32 3
#define CONNECTD_VALUE_INT64 4
#define CONNECTD_VALUE_FLOAT32 5
#define CONNECTD_VALUE_FLOAT64 6
#define CONNECTD_VALUE_BOOLEAN 7
#define CONNECTD_VALUE_STRING 8
#define CONNECTD_VALUE_BYTES 9
#define CONNECTD_VALUE_ARRAY 10
#define CONNECTD_VALUE_MAP 11
#define CONNECTD_VALUE_STRUCT 12
#define CONNECTD_VALUE_DECIMAL 13
#define CONNECTD_VALUE_DATE 14

struct connectd_schema;
struct connectd_value;

typedef struct connectd_field {
  connectd_str name;
  const struct connectd_schema* schema;
} connectd_field;

/* A Connect schema (ConnectSchema). Absent optional strings are {NULL, 0}. Logical types are a
 * name on the underlying type, as in Java: "org.apache.kafka.connect.data.Decimal" on BYTES
 * with parameter "scale", "...data.Date" and "...data.Time" on INT32, "...data.Timestamp" on
 * INT64. A NULL `const connectd_schema*` is Java's null schema (schemaless data). */
typedef struct connectd_schema {
  uint32_t struct_size;
  int32_t type; /* CONNECTD_TYPE_* */
  int32_t optional;
  connectd_str name;
  int32_t has_version;
  int32_t version;
  connectd_str doc;
  int32_t has_parameters; /* 0: Java's null parameter map */
  const connectd_kv* parameters; /* in insertion order */
  size_t parameter_count;
  const struct connectd_value* default_value; /* NULL: no default */
  const connectd_field* fields;               /* STRUCT, in order */
  size_t field_count;
  const struct connectd_schema* key_schema;   /* MAP */
  const struct connectd_schema* value_schema; /* ARRAY (elements), MAP */
} connectd_schema;

/* A Connect value. `kind` selects the member:
 *   INT8..INT64, DATE (epoch ms)   i
 *   BOOLEAN                        i (0 or 1)
 *   FLOAT32, FLOAT64               f
 *   STRING (UTF-8)                 str
 *   BYTES                          bytes (data never NULL)
 *   ARRAY                          items[count]
 *   MAP                            items[2 * count]: key, value, key, value, ... in the map's
 *                                  iteration order
 *   STRUCT                         items[count], one per field of struct_schema, in order
 *   DECIMAL                        bytes: the unscaled value as BigInteger.toByteArray()
 *                                  (big-endian two's complement); decimal_scale
 * A schema-less STRUCT does not exist: struct_schema is required for STRUCT. */
typedef struct connectd_value {
  int32_t kind; /* CONNECTD_VALUE_* */
  int32_t decimal_scale;
  int64_t i;
  double f;
  connectd_str str;
  connectd_bytes bytes;
  const struct connectd_value* items;
  size_t count;
  const connectd_schema* struct_schema;
} connectd_value;

/* A record as transformations and predicates see it (Connect's ConnectRecord). Views are valid
 * during the call that hands the record over. */
typedef struct connectd_connect_header {
  connectd_str key;
  const connectd_schema* schema; /* NULL: schemaless */
  connectd_value value;
} connectd_connect_header;

typedef struct connectd_connect_record {
  uint32_t struct_size;
  connectd_str topic;
  int32_t partition; /* CONNECTD_ANY_PARTITION: none (Java's null kafkaPartition) */
  const connectd_schema* key_schema;
  connectd_value key;
  const connectd_schema* value_schema;
  connectd_value value;
  int64_t timestamp_ms; /* CONNECTD_NO_TIMESTAMP: none */
  const connectd_connect_header* headers;
  size_t header_count;
  int32_t has_kafka_offset; /* sink records: SinkRecord.kafkaOffset() */
  int64_t kafka_offset;
} connectd_connect_record;

/* ------------------------------------------------------------------------------------------ */
/* Records                                                                                     */

/* The timestamp of a record that has none. */
#define CONNECTD_NO_TIMESTAMP (-1)
/* The partition of a record that lets the producer's partitioner choose. */
#define CONNECTD_ANY_PARTITION (-1)

/* A record produced by a source task (Connect's SourceRecord, key and value already bytes).
 *
 * `source_partition` and `source_offset` are JSON objects (Connect's Map<String, ?>), for
 * example {"filename":"/data/in.txt"} and {"position":1024}. The runtime stores the offset of
 * the newest acknowledged record per source partition, exactly as Connect stores it.
 *
 * OWNERSHIP: without `release`, every view is valid only during batch_append, which copies.
 * With `release` (zero-copy), batch_append still copies `source_partition`, `source_offset` and
 * `topic` (since 1.2); the key, value and header views must stay valid, unchanged, until the
 * host calls release(release_opaque), once, after the record is acknowledged or dropped. */
typedef struct connectd_source_record {
  uint32_t struct_size;
  connectd_str source_partition;
  connectd_str source_offset;
  connectd_str topic;
  int32_t partition;
  connectd_bytes key;
  connectd_bytes value;
  int64_t timestamp_ms;
  const connectd_header* headers;
  size_t header_count;
  void (*release)(void* release_opaque);
  void* release_opaque;
#if CONNECTD_PLUGIN_ABI_TARGET_MINOR >= 5
  /* Since 1.5: a key or value as Connect data (SourceRecord's keySchema/key, valueSchema/value)
   * instead of bytes. When `key_data` is non-NULL, `key` is ignored and the connector's key
   * converter writes the data (as Java's); likewise `value_data`. batch_append copies data
   * (`release` covers bytes only). A NULL schema with data is schemaless data. */
  const connectd_schema* key_schema;
  const connectd_value* key_data;
  const connectd_schema* value_schema;
  const connectd_value* value_data;
#endif
} connectd_source_record;

/* Where the target broker put a source record (Connect's RecordMetadata). */
typedef struct connectd_record_metadata {
  uint32_t struct_size;
  connectd_str topic;
  int32_t partition;
  int64_t offset;
  int64_t timestamp_ms;
} connectd_record_metadata;

#define CONNECTD_TIMESTAMP_NO_TYPE 0
#define CONNECTD_TIMESTAMP_CREATE_TIME 1
#define CONNECTD_TIMESTAMP_LOG_APPEND_TIME 2

/* A record consumed for a sink task (Connect's SinkRecord). Views valid during `put` only. */
typedef struct connectd_sink_record {
  uint32_t struct_size;
  connectd_str topic;
  int32_t partition;
  int64_t offset;
  connectd_bytes key;
  connectd_bytes value;
  int64_t timestamp_ms;
  int32_t timestamp_type;
  const connectd_header* headers;
  size_t header_count;
#if CONNECTD_PLUGIN_ABI_TARGET_MINOR >= 5
  /* Since 1.5: the key and value as Connect data, as the converters and transformations made
   * them (SinkRecord.keySchema()/key(), valueSchema()/value()); `key`/`value` above are their
   * bytes as the converters write them back. Never NULL from a 1.5 host. A record that is
   * already bytes (ByteArrayConverter, no transforms) arrives as OPTIONAL_BYTES data viewing the
   * same memory, without a copy. */
  const connectd_schema* key_schema;
  const connectd_value* key_data;
  const connectd_schema* value_schema;
  const connectd_value* value_data;
#endif
} connectd_sink_record;

/* ------------------------------------------------------------------------------------------ */
/* Configuration definitions (Connect's ConfigDef)                                             */

#define CONNECTD_CONFIG_TYPE_BOOLEAN 0
#define CONNECTD_CONFIG_TYPE_STRING 1
#define CONNECTD_CONFIG_TYPE_INT 2
#define CONNECTD_CONFIG_TYPE_SHORT 3
#define CONNECTD_CONFIG_TYPE_LONG 4
#define CONNECTD_CONFIG_TYPE_DOUBLE 5
#define CONNECTD_CONFIG_TYPE_LIST 6
#define CONNECTD_CONFIG_TYPE_CLASS 7
#define CONNECTD_CONFIG_TYPE_PASSWORD 8

#define CONNECTD_CONFIG_IMPORTANCE_HIGH 0
#define CONNECTD_CONFIG_IMPORTANCE_MEDIUM 1
#define CONNECTD_CONFIG_IMPORTANCE_LOW 2

#define CONNECTD_CONFIG_WIDTH_NONE 0
#define CONNECTD_CONFIG_WIDTH_SHORT 1
#define CONNECTD_CONFIG_WIDTH_MEDIUM 2
#define CONNECTD_CONFIG_WIDTH_LONG 3

/* Validators the host applies before the connector sees its config. */
#define CONNECTD_VALIDATOR_NONE 0
#define CONNECTD_VALIDATOR_RANGE 1        /* numeric; range_min/range_max (inclusive) */
#define CONNECTD_VALIDATOR_VALID_STRING 2 /* one of valid_values (ConfigDef.ValidString.in) */
#define CONNECTD_VALIDATOR_NON_EMPTY_STRING 3
#define CONNECTD_VALIDATOR_VALID_LIST 4 /* every element one of valid_values */

/* One configuration key. Strings are NUL-terminated and live as long as the plugin is loaded.
 * `default_value` is the default in Connect's string form; `has_default == 0` makes the key
 * required, and `has_default != 0` with `default_value == NULL` is a null default. */
typedef struct connectd_config_key {
  uint32_t struct_size;
  const char* name;
  int32_t type;
  int32_t has_default;
  const char* default_value;
  int32_t importance;
  const char* documentation;
  const char* group;
  int32_t order_in_group;
  int32_t width;
  const char* display_name;
  int32_t validator;
  double range_min;
  double range_max;
  const char* const* valid_values;
  size_t valid_value_count;
} connectd_config_key;

/* ------------------------------------------------------------------------------------------ */
/* Connector                                                                                   */

#define CONNECTD_CONNECTOR_TYPE_SOURCE 0
#define CONNECTD_CONNECTOR_TYPE_SINK 1

/* Answers of exactly_once_support (1.4): Connect's ExactlyOnceSupport, and NONE for Java's null
 * (the connector does not say). */
#define CONNECTD_EXACTLY_ONCE_SUPPORT_NONE 0
#define CONNECTD_EXACTLY_ONCE_SUPPORT_SUPPORTED 1
#define CONNECTD_EXACTLY_ONCE_SUPPORT_UNSUPPORTED 2

struct connectd_host_api;

typedef struct connectd_connector_vtable {
  uint32_t struct_size;

  /* Creates a connector instance. `context` lives until `destroy`.
   * Returns NULL on failure with a message in `error`.
   * @thread: a worker thread (never the task threads). */
  connectd_connector_plugin_ptr* (*create)(connectd_connector_context_host_ptr* context,
                                           connectd_error_host_ptr* error);

  /* Connect's Connector.validate, after the host has validated every key against the config
   * definition: the plugin may add errors with host->validation_add_error. Optional (NULL).
   * Called on a fresh instance that is never started.
   * @thread: a worker thread. */
  connectd_status (*validate)(connectd_connector_plugin_ptr* connector, connectd_props props,
                              connectd_validation_host_ptr* validation,
                              connectd_error_host_ptr* error);

  /* Connector.start. @thread: a worker thread. */
  connectd_status (*start)(connectd_connector_plugin_ptr* connector, connectd_props props,
                           connectd_error_host_ptr* error);

  /* Connector.taskConfigs: adds at most `max_tasks` task configs with host->task_configs_add.
   * @thread: a worker thread. */
  connectd_status (*task_configs)(connectd_connector_plugin_ptr* connector, int32_t max_tasks,
                                  connectd_task_configs_host_ptr* configs,
                                  connectd_error_host_ptr* error);

  /* Connector.stop. @thread: a worker thread. */
  connectd_status (*stop)(connectd_connector_plugin_ptr* connector, connectd_error_host_ptr* error);

  /* Frees the instance. @thread: a worker thread. */
  void (*destroy)(connectd_connector_plugin_ptr* connector);

#if CONNECTD_PLUGIN_ABI_TARGET_MINOR >= 1
  /* Since 1.1. SourceConnector/SinkConnector.alterOffsets (KIP-875): called on a fresh,
   * unstarted instance before the runtime alters or resets (`offsets` empty values = null)
   * the connector's offsets. For a source connector each entry's key is a source partition
   * JSON object and its value a source offset JSON object, or {NULL,0} for a reset; for a sink
   * connector the key is {"kafka_topic":..,"kafka_partition":..} and the value
   * {"kafka_offset":..}. Set `*handled` to 1 if the connector accepted the change (Connect's
   * `true`), 0 if it does not manage offsets itself. Optional (NULL: not handled).
   * @thread: a worker thread. */
  connectd_status (*alter_offsets)(connectd_connector_plugin_ptr* connector, connectd_props config,
                                   connectd_props offsets, int32_t* handled,
                                   connectd_error_host_ptr* error);
#endif

#if CONNECTD_PLUGIN_ABI_TARGET_MINOR >= 4
  /* Since 1.4. SourceConnector.exactlyOnceSupport (KIP-618): whether a source connector with
   * `config` can run with exactly-once semantics. Sets `*support` to one of
   * CONNECTD_EXACTLY_ONCE_SUPPORT_*. Called on a fresh, unstarted instance while a config with
   * exactly.once.support=required is validated. Optional (NULL: NONE, Java's null).
   * @thread: a worker thread. */
  connectd_status (*exactly_once_support)(connectd_connector_plugin_ptr* connector,
                                          connectd_props config, int32_t* support,
                                          connectd_error_host_ptr* error);
#endif
} connectd_connector_vtable;

/* ------------------------------------------------------------------------------------------ */
/* Batch pass-through (1.7)                                                                    */

/* One source partition a task asks the host to copy as record batches: Kafka's v2 batches are
 * fetched from `source_topic`-`partition` and produced to the same partition of `target_topic`
 * as they are (compression, timestamps, keys, values and headers untouched; only the producer
 * fields and the CRC are rewritten), from upstream offset `start_offset` on. Acknowledged
 * batches commit the source offset `offset_prefix` N `offset_suffix` under `source_partition`
 * (both JSON objects, as a record's), N being the upstream offset of the batch's last record:
 * e.g. {"offset": and } give MirrorSource's {"offset":N}. */
typedef struct connectd_batch_copy_partition {
  uint32_t struct_size;
  connectd_str source_topic;
  int32_t partition;
  connectd_str target_topic;
  int64_t start_offset; /* >= 0: a concrete offset, never a logical one */
  connectd_str source_partition;
  connectd_str offset_prefix;
  connectd_str offset_suffix;
} connectd_batch_copy_partition;

/* `source_client`: how to reach the source cluster, as librdkafka property names
 * (bootstrap.servers, security.protocol, sasl.*, ssl.*, client.id, isolation.level). The
 * target is the task's own producer's cluster, with the producer's settings. */
typedef struct connectd_batch_copy_request {
  uint32_t struct_size;
  connectd_props source_client;
  const connectd_batch_copy_partition* partitions;
  size_t partition_count;
} connectd_batch_copy_request;

/* Kinds of connectd_batch_copy_event. */
#define CONNECTD_BATCH_COPY_ACKED 0    /* the target acknowledged one batch */
#define CONNECTD_BATCH_COPY_PROGRESS 1 /* about once a second per partition */
#define CONNECTD_BATCH_COPY_RETURNED 2 /* the host stopped copying the partition */

/* What became of a partition handed over with source_task_copy_batches. Views are valid during
 * the hook only. */
typedef struct connectd_batch_copy_event {
  uint32_t struct_size;
  int32_t kind; /* CONNECTD_BATCH_COPY_* */
  connectd_str source_topic;
  int32_t partition;
  connectd_str target_topic;
  /* The next upstream offset the host copies: after the acknowledged batch (ACKED), the
   * copy's position (PROGRESS), where the task's own copy resumes (RETURNED). */
  int64_t position;
  /* The source partition's end as of the newest fetch (the last stable offset under
   * isolation.level=read_committed, else the high watermark); -1 when not known yet. */
  int64_t source_end_offset;
  /* ACKED: the batch. Its records are upstream offsets upstream_first..upstream_last (with no
   * gap: record_count of them) written at downstream_base.. on the target (-1: not known, a
   * batch the target had already, acknowledged as a duplicate). */
  int64_t upstream_first;
  int64_t upstream_last;
  int32_t record_count;
  int64_t downstream_base;
  int64_t batch_bytes;      /* the batch's size as produced */
  int64_t max_timestamp_ms; /* its newest record's timestamp */
  /* PROGRESS: Kafka's error code of the partition's last failed fetch or produce (0: none, it
   * copies; -195, librdkafka's __TRANSPORT: no broker could be reached). RETURNED: the code
   * that ended the copy (-1: a broker refused the connection's authentication), or
   * 0 when a batch needs the record path. */
  int32_t error_code;
  /* RETURNED: why, for a person; and the upstream offset from which the host could copy the
   * partition's batches again (the task may hand it over anew once its own copy reached it),
   * or -1 when it cannot (e.g. LogAppendTime on the source). */
  connectd_str reason;
  int64_t copy_again_at;
  /* PROGRESS: the longest time (ms) the source's brokers throttled the fetches of this
   * partition since the last PROGRESS (a client quota on the source client's client.id, as
   * Kafka's fetch-throttle-time), 0 when none. The target's throttling of the produce requests
   * is the host's to publish (the task's producer-metrics). */
  int32_t fetch_throttle_ms;
#if CONNECTD_PLUGIN_ABI_TARGET_MINOR >= 8
  /* PROGRESS: error_code split by the cluster that gave it: the source's (a fetch: not leader,
   * unreachable, ...) and the target's (a produce: not leader, not enough replicas,
   * unreachable, ...); 0 where that side copies. error_code keeps its 1.7 meaning (the
   * source's if any, else the target's). */
  int32_t source_error_code;
  int32_t target_error_code;
#endif
#if CONNECTD_PLUGIN_ABI_TARGET_MINOR >= 9
  /* RETURNED: how many offsets from `position` on were copied to the target and are not on the
   * source any more: the source leader's log was truncated below what had been copied (an
   * unclean leader election; KIP-320's diverging epoch). The source's new records at those
   * offsets follow from `position`. 0 otherwise. */
  int64_t truncated_offsets;
#endif
} connectd_batch_copy_event;

/* ------------------------------------------------------------------------------------------ */
/* Tasks                                                                                       */

typedef struct connectd_source_task_vtable {
  uint32_t struct_size;

  /* Creates a task instance. `context` lives until `destroy`. @thread: the task thread. */
  connectd_task_plugin_ptr* (*create)(connectd_source_task_context_host_ptr* context,
                                      connectd_error_host_ptr* error);

  /* SourceTask.start. @thread: the task thread. */
  connectd_status (*start)(connectd_task_plugin_ptr* task, connectd_props props,
                           connectd_error_host_ptr* error);

  /* SourceTask.poll: appends zero or more records with host->source_batch_append and returns
   * within about `timeout_ms`. Returning OK with no records is normal.
   * @thread: the task thread. */
  connectd_status (*poll)(connectd_task_plugin_ptr* task, int32_t timeout_ms,
                          connectd_source_batch_host_ptr* batch, connectd_error_host_ptr* error);

  /* SourceTask.commit: offsets of acknowledged records were just committed. Optional.
   * @thread: the task thread. */
  connectd_status (*commit)(connectd_task_plugin_ptr* task, connectd_error_host_ptr* error);

  /* SourceTask.commitRecord: `record` (the same views the plugin handed over) was acknowledged
   * by the broker at `metadata`, or dropped by a transform or error tolerance when `metadata`
   * is NULL. Optional. @thread: the task thread. */
  connectd_status (*commit_record)(connectd_task_plugin_ptr* task,
                                   const connectd_source_record* record,
                                   const connectd_record_metadata* metadata,
                                   connectd_error_host_ptr* error);

  /* SourceTask.stop: asks the task to stop; must be thread-safe and must not block for long.
   * @thread: any thread, possibly while `poll` runs. */
  void (*stop)(connectd_task_plugin_ptr* task);

  /* Frees the instance after `poll` has returned for the last time. @thread: the task thread. */
  void (*destroy)(connectd_task_plugin_ptr* task);

#if CONNECTD_PLUGIN_ABI_TARGET_MINOR >= 7
  /* Since 1.7. What became of the partitions the task handed to source_task_copy_batches, in
   * order per partition. ACKED comes after the target acknowledged the batch and before its
   * source offset becomes committable (as commit_record for a record); RETURNED comes once,
   * after every earlier batch of the partition was ACKED: from `position` on the task copies
   * the partition itself (or hands it over again at copy_again_at). Required of a task that
   * calls source_task_copy_batches. A non-OK status fails the task.
   * @thread: the task thread, between two polls. */
  connectd_status (*batch_copy_event)(connectd_task_plugin_ptr* task,
                                      const connectd_batch_copy_event* event,
                                      connectd_error_host_ptr* error);
#endif
} connectd_source_task_vtable;

typedef struct connectd_sink_task_vtable {
  uint32_t struct_size;

  /* @thread: the task thread (for every hook but `stop`). */
  connectd_task_plugin_ptr* (*create)(connectd_sink_task_context_host_ptr* context,
                                      connectd_error_host_ptr* error);
  connectd_status (*start)(connectd_task_plugin_ptr* task, connectd_props props,
                           connectd_error_host_ptr* error);

  /* SinkTask.open / close: partitions assigned to / revoked from this task. Optional. */
  connectd_status (*open)(connectd_task_plugin_ptr* task,
                          const connectd_topic_partition* partitions, size_t count,
                          connectd_error_host_ptr* error);
  connectd_status (*close)(connectd_task_plugin_ptr* task,
                           const connectd_topic_partition* partitions, size_t count,
                           connectd_error_host_ptr* error);

  /* SinkTask.put: a batch of consumed records (possibly empty). The array's stride is the
   * sizeof(connectd_sink_record) of the minor the plugin was built against (and struct_size says
   * it): a host of a newer minor repacks the records for an older plugin. */
  connectd_status (*put)(connectd_task_plugin_ptr* task, const connectd_sink_record* records,
                         size_t count, connectd_error_host_ptr* error);

  /* SinkTask.preCommit: `current` are the offsets of everything passed to `put` (next offset
   * to consume). The task adds the offsets that are safe to commit with host->offsets_add.
   * Optional: when NULL the host calls `flush` and commits `current`. */
  connectd_status (*pre_commit)(connectd_task_plugin_ptr* task,
                                const connectd_topic_partition_offset* current, size_t count,
                                connectd_offsets_host_ptr* committable,
                                connectd_error_host_ptr* error);

  /* SinkTask.flush: make everything passed to `put` durable. Optional. */
  connectd_status (*flush)(connectd_task_plugin_ptr* task,
                           const connectd_topic_partition_offset* current, size_t count,
                           connectd_error_host_ptr* error);

  /* SinkTask.stop. @thread: any thread, possibly while `put` runs. */
  void (*stop)(connectd_task_plugin_ptr* task);
  void (*destroy)(connectd_task_plugin_ptr* task);
} connectd_sink_task_vtable;

/* ------------------------------------------------------------------------------------------ */
/* Transformations and predicates (1.5)                                                        */

typedef struct connectd_transformation_plugin_ptr connectd_transformation_plugin_ptr;
typedef struct connectd_predicate_plugin_ptr connectd_predicate_plugin_ptr;
typedef struct connectd_record_out_host_ptr connectd_record_out_host_ptr;

/* Connect's Transformation. An instance belongs to one task; all hooks run on its thread. */
typedef struct connectd_transformation_vtable {
  uint32_t struct_size;
  connectd_transformation_plugin_ptr* (*create)(connectd_error_host_ptr* error);
  /* Transformation.configure with the stage's configs (`transforms.<alias>.` removed, without
   * type/predicate/negate). A non-OK status rejects the connector config with the message. */
  connectd_status (*configure)(connectd_transformation_plugin_ptr* transformation,
                               connectd_props configs, connectd_error_host_ptr* error);
  /* Transformation.apply: emits the new record with host->record_out_set(out, ...) during this
   * call, or emits nothing to drop the record (Java's null). A non-OK status is the record's
   * failure (Connect's DataException), handled by errors.tolerance. */
  connectd_status (*apply)(connectd_transformation_plugin_ptr* transformation,
                           const connectd_connect_record* record,
                           connectd_record_out_host_ptr* out, connectd_error_host_ptr* error);
  void (*destroy)(connectd_transformation_plugin_ptr* transformation);
} connectd_transformation_vtable;

/* Connect's Predicate. An instance belongs to one task; all hooks run on its thread. */
typedef struct connectd_predicate_vtable {
  uint32_t struct_size;
  connectd_predicate_plugin_ptr* (*create)(connectd_error_host_ptr* error);
  connectd_status (*configure)(connectd_predicate_plugin_ptr* predicate, connectd_props configs,
                               connectd_error_host_ptr* error);
  /* Predicate.test: sets *result to 1 (true) or 0. */
  connectd_status (*test)(connectd_predicate_plugin_ptr* predicate,
                          const connectd_connect_record* record, int32_t* result,
                          connectd_error_host_ptr* error);
  void (*destroy)(connectd_predicate_plugin_ptr* predicate);
} connectd_predicate_vtable;

/* One transformation or predicate class, registered under `class_name` and its simple name
 * (after the last '.'), as Connect's aliases. Pointers live as long as the plugin is loaded. */
typedef struct connectd_transformation_descriptor {
  uint32_t struct_size;
  const char* class_name;
  const char* version;
  const connectd_config_key* config_keys;
  size_t config_key_count;
  const connectd_transformation_vtable* vtable;
} connectd_transformation_descriptor;

typedef struct connectd_predicate_descriptor {
  uint32_t struct_size;
  const char* class_name;
  const char* version;
  const connectd_config_key* config_keys;
  size_t config_key_count;
  const connectd_predicate_vtable* vtable;
} connectd_predicate_descriptor;

/* ------------------------------------------------------------------------------------------ */
/* Descriptors                                                                                 */

/* One connector class. The host registers it under `class_name` (Connect's fully qualified
 * Java class name, e.g. "org.apache.kafka.connect.file.FileStreamSourceConnector") and the
 * aliases Connect derives from it (the simple name, and the simple name without "Connector").
 * All pointers live as long as the plugin is loaded. */
typedef struct connectd_connector_descriptor {
  uint32_t struct_size;
  const char* class_name;
  int32_t type; /* CONNECTD_CONNECTOR_TYPE_* */
  const char* version;
  const connectd_config_key* config_keys;
  size_t config_key_count;
  const connectd_connector_vtable* connector;
  const connectd_source_task_vtable* source_task; /* type == SOURCE, else NULL */
  const connectd_sink_task_vtable* sink_task;     /* type == SINK, else NULL */
} connectd_connector_descriptor;

/* `struct_size`, `abi_major` and `abi_minor` lead this struct in every major version, so a
 * host can always read them and refuse a plugin of another major by name. */
typedef struct connectd_plugin_descriptor {
  uint32_t struct_size;
  uint32_t abi_major;
  uint32_t abi_minor;
  const char* name;
  const char* version;
  const connectd_connector_descriptor* const* connectors;
  size_t connector_count;
#if CONNECTD_PLUGIN_ABI_TARGET_MINOR >= 5
  /* Since 1.5. A plugin may hold connectors, transformations and predicates in any mix. */
  const connectd_transformation_descriptor* const* transformations;
  size_t transformation_count;
  const connectd_predicate_descriptor* const* predicates;
  size_t predicate_count;
#endif
} connectd_plugin_descriptor;

/* ------------------------------------------------------------------------------------------ */
/* Metrics (1.3)                                                                               */

/* The statistics a sensor keeps, as Kafka's metrics library defines them. Windowed stats use
 * Kafka's default window: 2 samples of 30 s. Each stat is published as its own metric. */
#define CONNECTD_STAT_VALUE 0            /* the last recorded value (Kafka's Value) */
#define CONNECTD_STAT_CUMULATIVE_COUNT 1 /* number of recordings ever (CumulativeCount) */
#define CONNECTD_STAT_CUMULATIVE_SUM 2   /* sum of recorded values ever (CumulativeSum) */
#define CONNECTD_STAT_RATE 3             /* windowed sum of values per second (Rate) */
#define CONNECTD_STAT_MIN 4              /* windowed minimum, NaN when empty (Min) */
#define CONNECTD_STAT_MAX 5              /* windowed maximum, NaN when empty (Max) */
#define CONNECTD_STAT_AVG 6              /* windowed mean, NaN when empty (Avg) */

/* Since 1.6, OR'd into a stat's kind: the metric is at Kafka's DEBUG recording level. The host
 * records it like any other and may read it itself, but its reporters (GET /metrics) serve it
 * only when the worker's metrics.recording.level is DEBUG: for detail whose label cardinality
 * an operator opts into (e.g. per partition). A host older than 1.6 fails sensor_add for it. */
#define CONNECTD_STAT_DEBUG 0x100

/* One published metric of a sensor: its name within the group (e.g. "record-count"). */
typedef struct connectd_metric_stat {
  connectd_str name;
  connectd_str description;
  int32_t kind; /* CONNECTD_STAT_*, optionally | CONNECTD_STAT_DEBUG */
} connectd_metric_stat;

typedef struct connectd_metric_tag {
  connectd_str key;
  connectd_str value;
} connectd_metric_tag;

/* ------------------------------------------------------------------------------------------ */
/* Host API: the functions the host offers the plugin.                                         */

#define CONNECTD_LOG_TRACE 0
#define CONNECTD_LOG_DEBUG 1
#define CONNECTD_LOG_INFO 2
#define CONNECTD_LOG_WARN 3
#define CONNECTD_LOG_ERROR 4

typedef struct connectd_host_api {
  uint32_t struct_size;
  uint32_t abi_major;
  uint32_t abi_minor;

  /* Sets the message of a failing call (copied; a second call replaces it). */
  void (*set_error)(connectd_error_host_ptr* error, connectd_str message);

  /* Writes a log line under `logger` (e.g. the plugin's class name) with the calling task's
   * context. Cheap when the level is disabled: check log_enabled first for costly messages. */
  void (*log)(int32_t level, connectd_str logger, connectd_str message);
  int32_t (*log_enabled)(int32_t level, connectd_str logger);

  /* ConnectorContext. */
  void (*connector_request_task_reconfiguration)(connectd_connector_context_host_ptr* context);
  void (*connector_raise_error)(connectd_connector_context_host_ptr* context, connectd_str message);

  /* Connector.taskConfigs output: appends one task's config (copied). */
  void (*task_configs_add)(connectd_task_configs_host_ptr* configs, connectd_props props);

  /* Connector.validate output: adds an error message to key `name` (copied). */
  void (*validation_add_error)(connectd_validation_host_ptr* validation, connectd_str name,
                               connectd_str message);

  /* SourceTask.poll output: appends one record (see connectd_source_record's OWNERSHIP).
   * Fails with CONNECTD_STATUS_INVALID_ARGUMENT for a malformed record, which the host
   * releases. */
  connectd_status (*source_batch_append)(connectd_source_batch_host_ptr* batch,
                                         const connectd_source_record* record);

  /* OffsetStorageReader.offset: looks up the stored offset of a source partition (a JSON
   * object; key order irrelevant). If one is stored, calls receive(opaque, offset JSON) once,
   * during this call, and returns 1; returns 0 if none is stored. */
  int32_t (*source_task_offset)(connectd_source_task_context_host_ptr* context,
                                connectd_str source_partition,
                                void (*receive)(void* opaque, connectd_str offset), void* opaque);

  /* SinkTaskContext. */
  void (*sink_task_request_commit)(connectd_sink_task_context_host_ptr* context);
  void (*sink_task_seek)(connectd_sink_task_context_host_ptr* context,
                         connectd_topic_partition partition, int64_t offset);
  void (*sink_task_pause)(connectd_sink_task_context_host_ptr* context,
                          connectd_topic_partition partition);
  void (*sink_task_resume)(connectd_sink_task_context_host_ptr* context,
                           connectd_topic_partition partition);

  /* SinkTask.preCommit output: an offset safe to commit (the next offset to consume). */
  void (*offsets_add)(connectd_offsets_host_ptr* offsets, connectd_topic_partition_offset offset);

  /* ---- 1.3: metrics. Check struct_size before calling: a 1.2 host has none of these. ---- */

  /* The metrics scope of a task or connector: every sensor added to it is removed by the host
   * when that task or connector is destroyed, so a dead task's metrics disappear instead of
   * reading zero. Valid as long as the context. */
  connectd_metrics_host_ptr* (*source_task_metrics)(connectd_source_task_context_host_ptr* context);
  connectd_metrics_host_ptr* (*sink_task_metrics)(connectd_sink_task_context_host_ptr* context);
  connectd_metrics_host_ptr* (*connector_metrics)(connectd_connector_context_host_ptr* context);

  /* Adds a sensor publishing `stats` under `domain` (e.g. "kafka.connect.mirror"), `group`
   * (e.g. "MirrorSourceConnector") and `tags` (in this order, as Kafka names its MBeans). All
   * strings are copied. A metric name already published replaces the older one. Returns NULL
   * only for invalid arguments (empty group or stat name, unknown kind). */
  connectd_sensor_host_ptr* (*sensor_add)(connectd_metrics_host_ptr* metrics, connectd_str domain,
                                          connectd_str group, const connectd_metric_tag* tags,
                                          size_t tag_count, const connectd_metric_stat* stats,
                                          size_t stat_count);

  /* Records one value at `time_ms` (Unix ms; <= 0 means now). Thread-safe and cheap (one
   * uncontended lock); must not be called after sensor_remove or the scope's end. */
  void (*sensor_record)(connectd_sensor_host_ptr* sensor, double value, int64_t time_ms);

  /* Unpublishes a sensor before its scope ends (e.g. a partition no longer assigned). */
  void (*sensor_remove)(connectd_sensor_host_ptr* sensor);

  /* ---- 1.5: transformations. ---- */

  /* Transformation.apply output: the transformed record (copied). A second call replaces the
   * first. Fails with CONNECTD_STATUS_INVALID_ARGUMENT for malformed data (a value that does
   * not match its schema's shape, a STRUCT without struct_schema). */
  connectd_status (*record_out_set)(connectd_record_out_host_ptr* out,
                                    const connectd_connect_record* record);

  /* ---- 1.7: batch pass-through. ---- */

  /* Asks the host to copy `request`'s partitions as record batches (see
   * connectd_batch_copy_partition) from now until the task stops or the host returns a
   * partition (batch_copy_event RETURNED). The task must not copy those partitions itself
   * meanwhile. May be called again to hand over more partitions (not ones being copied).
   * Returns OK when the host copies them; CONNECTD_STATUS_FAILED_PRECONDITION, with why in
   * `error`, when this task's records must pass through the worker (transforms, predicates,
   * converters that change bytes, exactly-once delivery, a plugin without batch_copy_event):
   * the task then copies them itself, as before 1.7; CONNECTD_STATUS_INVALID_ARGUMENT for a
   * malformed request (a negative start offset, an empty topic, an unusable client setting).
   * On a non-OK status the host calls explain(opaque, why) once, during this call (`explain`
   * may be NULL). @thread: the task thread (in start or poll). */
  connectd_status (*source_task_copy_batches)(connectd_source_task_context_host_ptr* context,
                                              const connectd_batch_copy_request* request,
                                              void (*explain)(void* opaque, connectd_str why),
                                              void* opaque);

  /* sensor_record `count` times at once (e.g. one per record of a copied batch): counts grow
   * by `count`, sums by count * value, rates and windowed stats as if recorded count times at
   * `time_ms`. count <= 0 records nothing. */
  void (*sensor_record_many)(connectd_sensor_host_ptr* sensor, double value, int64_t count,
                             int64_t time_ms);

} connectd_host_api;

/* The plugin's entry point, exported as CONNECTD_PLUGIN_ENTRY_SYMBOL. Called once per process,
 * on a worker thread, before anything else. `host` lives as long as the process. Returns the
 * plugin's descriptor (static, never freed), or NULL with a message in `error`. */
typedef const connectd_plugin_descriptor* (*connectd_plugin_entry_fn)(
    const connectd_host_api* host, connectd_error_host_ptr* error);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* CONNECTD_PLUGIN_ABI_H_ */
