/* Source connectors written against the C ABI that answer with garbage where the ABI lets a
 * careless plugin do so (issue #10, plugin faults; tests/fault/plugin_faults_test.py):
 *   NullConnectorSourceConnector   connector create returns NULL and sets no message
 *   NullTaskSourceConnector        task create returns NULL and sets no message
 *   GarbageSourceConnector         the connector config key `garbage` picks the misbehaviour:
 *   connector.start.huge     connector start fails with a 1 MiB error message
 *   connector.start.status   connector start returns a status no absl code has (12345)
 *   task_configs.null_items  task_configs_add with items == NULL and count == 3
 *   poll.bad_json            records whose source partition and offset are not JSON
 *   poll.null_headers        a record with headers == NULL and header_count == 5
 *   poll.null_topic          a record whose topic has data == NULL and size == 5
 *   poll.huge_value          a 32 MiB record value (over the producer's message.max.bytes)
 * Anything else (or no key): a well-behaved task writing one record per poll to `topic`.
 * Every case must leave the worker up, the connector or task FAILED with a trace, and the
 * other connectors running.
 */
#include <stdlib.h>
#include <string.h>

#include "connectd/plugin/abi.h"

#define HUGE_ERROR_BYTES (1024 * 1024)
#define HUGE_VALUE_BYTES (32 * 1024 * 1024)

static const connectd_host_api* host;

/* The instance: the `garbage` mode and the topic, copied from the config at start. */
typedef struct instance {
  char mode[64];
  char topic[256];
  long long seq;
} instance;

static connectd_str str(const char* s) {
  connectd_str out;
  out.data = s;
  out.size = strlen(s);
  return out;
}

static void copy_prop(connectd_props props, const char* key, char* out, size_t out_size) {
  size_t i;
  out[0] = '\0';
  for (i = 0; i < props.count; ++i) {
    if (props.items[i].key.size == strlen(key) &&
        memcmp(props.items[i].key.data, key, props.items[i].key.size) == 0) {
      size_t n =
          props.items[i].value.size < out_size - 1 ? props.items[i].value.size : out_size - 1;
      memcpy(out, props.items[i].value.data, n);
      out[n] = '\0';
      return;
    }
  }
}

static int is(const instance* self, const char* mode) { return strcmp(self->mode, mode) == 0; }

/* ---- Connector -------------------------------------------------------------------------- */

static connectd_connector_plugin_ptr* connector_create(connectd_connector_context_host_ptr* c,
                                                       connectd_error_host_ptr* e) {
  instance* self;
  (void)c;
  (void)e;
  self = (instance*)calloc(1, sizeof(instance));
  return (connectd_connector_plugin_ptr*)self;
}

static connectd_status connector_start(connectd_connector_plugin_ptr* p, connectd_props props,
                                       connectd_error_host_ptr* e) {
  instance* self = (instance*)p;
  copy_prop(props, "garbage", self->mode, sizeof(self->mode));
  copy_prop(props, "topic", self->topic, sizeof(self->topic));
  if (is(self, "connector.start.huge")) {
    char* message = (char*)malloc(HUGE_ERROR_BYTES);
    connectd_str s;
    memset(message, 'E', HUGE_ERROR_BYTES);
    memcpy(message, "huge failure: ", 14);
    s.data = message;
    s.size = HUGE_ERROR_BYTES;
    host->set_error(e, s);
    free(message);
    return CONNECTD_STATUS_INTERNAL;
  }
  if (is(self, "connector.start.status")) {
    host->set_error(e, str("an undefined status code"));
    return 12345;
  }
  return CONNECTD_STATUS_OK;
}

static connectd_status connector_task_configs(connectd_connector_plugin_ptr* p, int32_t max_tasks,
                                              connectd_task_configs_host_ptr* configs,
                                              connectd_error_host_ptr* e) {
  instance* self = (instance*)p;
  connectd_kv kv[2];
  connectd_props props;
  (void)e;
  (void)max_tasks;
  if (is(self, "task_configs.null_items")) {
    props.items = NULL;
    props.count = 3;
    host->task_configs_add(configs, props);
    return CONNECTD_STATUS_OK;
  }
  kv[0].key = str("garbage");
  kv[0].value = str(self->mode);
  kv[1].key = str("topic");
  kv[1].value = str(self->topic);
  props.items = kv;
  props.count = 2;
  host->task_configs_add(configs, props);
  return CONNECTD_STATUS_OK;
}

static connectd_status connector_stop(connectd_connector_plugin_ptr* p,
                                      connectd_error_host_ptr* e) {
  (void)p;
  (void)e;
  return CONNECTD_STATUS_OK;
}

static void connector_destroy(connectd_connector_plugin_ptr* p) { free(p); }

static connectd_connector_plugin_ptr* null_connector_create(connectd_connector_context_host_ptr* c,
                                                            connectd_error_host_ptr* e) {
  (void)c;
  (void)e;
  return NULL;
}

/* ---- Task -------------------------------------------------------------------------------- */

static connectd_task_plugin_ptr* task_create(connectd_source_task_context_host_ptr* c,
                                             connectd_error_host_ptr* e) {
  (void)c;
  (void)e;
  return (connectd_task_plugin_ptr*)calloc(1, sizeof(instance));
}

static connectd_task_plugin_ptr* null_task_create(connectd_source_task_context_host_ptr* c,
                                                  connectd_error_host_ptr* e) {
  (void)c;
  (void)e;
  return NULL;
}

static connectd_status task_start(connectd_task_plugin_ptr* t, connectd_props props,
                                  connectd_error_host_ptr* e) {
  instance* self = (instance*)t;
  (void)e;
  copy_prop(props, "garbage", self->mode, sizeof(self->mode));
  copy_prop(props, "topic", self->topic, sizeof(self->topic));
  return CONNECTD_STATUS_OK;
}

static connectd_status task_poll(connectd_task_plugin_ptr* t, int32_t timeout_ms,
                                 connectd_source_batch_host_ptr* batch,
                                 connectd_error_host_ptr* e) {
  instance* self = (instance*)t;
  connectd_source_record r;
  connectd_status status;
  char* big = NULL;
  (void)timeout_ms;
  (void)e;
  memset(&r, 0, sizeof(r));
  r.struct_size = sizeof(r);
  r.source_partition = str("{\"garbage\":\"p\"}");
  r.source_offset = str("{\"n\":1}");
  r.topic = str(self->topic[0] ? self->topic : "garbage-topic");
  r.partition = CONNECTD_ANY_PARTITION;
  r.value.data = "value";
  r.value.size = 5;
  r.timestamp_ms = CONNECTD_NO_TIMESTAMP;
  if (is(self, "poll.bad_json")) {
    r.source_partition = str("{not json");
    r.source_offset = str("[1,2");
  } else if (is(self, "poll.null_headers")) {
    r.headers = NULL;
    r.header_count = 5;
  } else if (is(self, "poll.null_topic")) {
    r.topic.data = NULL;
    r.topic.size = 5;
  } else if (is(self, "poll.huge_value")) {
    big = (char*)malloc(HUGE_VALUE_BYTES);
    memset(big, 'v', HUGE_VALUE_BYTES);
    r.value.data = big;
    r.value.size = HUGE_VALUE_BYTES;
  }
  status = host->source_batch_append(batch, &r);
  free(big);
  return status;
}

static void task_stop(connectd_task_plugin_ptr* t) { (void)t; }
static void task_destroy(connectd_task_plugin_ptr* t) { free(t); }

/* ---- Descriptors ------------------------------------------------------------------------- */

static const connectd_connector_vtable connector_vtable = {sizeof(connectd_connector_vtable),
                                                           connector_create,
                                                           NULL,
                                                           connector_start,
                                                           connector_task_configs,
                                                           connector_stop,
                                                           connector_destroy,
                                                           NULL};
static const connectd_connector_vtable null_connector_vtable = {sizeof(connectd_connector_vtable),
                                                                null_connector_create,
                                                                NULL,
                                                                connector_start,
                                                                connector_task_configs,
                                                                connector_stop,
                                                                connector_destroy,
                                                                NULL};

static const connectd_source_task_vtable task_vtable = {sizeof(connectd_source_task_vtable),
                                                        task_create,
                                                        task_start,
                                                        task_poll,
                                                        NULL,
                                                        NULL,
                                                        task_stop,
                                                        task_destroy};
static const connectd_source_task_vtable null_task_vtable = {sizeof(connectd_source_task_vtable),
                                                             null_task_create,
                                                             task_start,
                                                             task_poll,
                                                             NULL,
                                                             NULL,
                                                             task_stop,
                                                             task_destroy};

static const connectd_connector_descriptor garbage = {sizeof(connectd_connector_descriptor),
                                                      "org.connectd.test.GarbageSourceConnector",
                                                      CONNECTD_CONNECTOR_TYPE_SOURCE,
                                                      "1.0.0",
                                                      NULL,
                                                      0,
                                                      &connector_vtable,
                                                      &task_vtable,
                                                      NULL};
/* Every create of this class returns NULL. */
static const connectd_connector_descriptor null_connector = {
    sizeof(connectd_connector_descriptor),
    "org.connectd.test.NullConnectorSourceConnector",
    CONNECTD_CONNECTOR_TYPE_SOURCE,
    "1.0.0",
    NULL,
    0,
    &null_connector_vtable,
    &task_vtable,
    NULL};
/* Every task create of this class returns NULL. */
static const connectd_connector_descriptor null_task = {sizeof(connectd_connector_descriptor),
                                                        "org.connectd.test.NullTaskSourceConnector",
                                                        CONNECTD_CONNECTOR_TYPE_SOURCE,
                                                        "1.0.0",
                                                        NULL,
                                                        0,
                                                        &connector_vtable,
                                                        &null_task_vtable,
                                                        NULL};
static const connectd_connector_descriptor* const connectors[] = {&garbage, &null_connector,
                                                                  &null_task};

static const connectd_plugin_descriptor descriptor = {sizeof(connectd_plugin_descriptor),
                                                      CONNECTD_PLUGIN_ABI_VERSION_MAJOR,
                                                      CONNECTD_PLUGIN_ABI_VERSION_MINOR,
                                                      "garbage-plugin",
                                                      "1.0.0",
                                                      connectors,
                                                      3};

CONNECTD_PLUGIN_EXPORT const connectd_plugin_descriptor* connectd_plugin_entry(
    const connectd_host_api* h, connectd_error_host_ptr* e) {
  (void)e;
  host = h;
  return &descriptor;
}
