/* A connector plugin written against the C ABI alone (no SDK), compiled several times with
 * different definitions to produce the loader's edge cases:
 *   (none)                               ABI 1.current, class org.connectd.test.CSourceConnector
 *   CONNECTD_PLUGIN_ABI_TARGET_MINOR=0   built against ABI 1.0's layout (an older minor)
 *   CLAIM_MINOR=N, EXTRA_FIELDS          claims a newer minor, with longer structs
 *   CLAIM_MAJOR=N                        another major: must be refused
 *   CLASS_NAME="..."                     another class name (duplicates)
 *   CONNECTOR_VERSION="..."              another version of the class (KIP-891, side by side)
 *   NO_ENTRY                             exports no entry symbol
 */
#include "connectd/plugin/abi.h"

#include <string.h>

#ifndef CLASS_NAME
#define CLASS_NAME "org.connectd.test.CSourceConnector"
#endif
#ifndef CONNECTOR_VERSION
#define CONNECTOR_VERSION "1.0.0"
#endif
#ifndef CLAIM_MAJOR
#define CLAIM_MAJOR CONNECTD_PLUGIN_ABI_VERSION_MAJOR
#endif
#ifndef CLAIM_MINOR
#define CLAIM_MINOR CONNECTD_PLUGIN_ABI_TARGET_MINOR
#endif

static const connectd_host_api* host;
static int connector_instance;
static int task_instance;

static connectd_str str(const char* s) {
  connectd_str out;
  out.data = s;
  out.size = strlen(s);
  return out;
}

static connectd_connector_plugin_ptr* connector_create(connectd_connector_context_host_ptr* c,
                                                       connectd_error_host_ptr* e) {
  (void)c;
  (void)e;
  return (connectd_connector_plugin_ptr*)&connector_instance;
}
static connectd_status connector_start(connectd_connector_plugin_ptr* p, connectd_props props,
                                       connectd_error_host_ptr* e) {
  (void)p;
  (void)props;
  (void)e;
  return CONNECTD_STATUS_OK;
}
static connectd_status connector_task_configs(connectd_connector_plugin_ptr* p, int32_t max_tasks,
                                              connectd_task_configs_host_ptr* configs,
                                              connectd_error_host_ptr* e) {
  connectd_kv kv;
  connectd_props props;
  (void)p;
  (void)e;
  (void)max_tasks;
  kv.key = str("written.in");
  kv.value = str("C");
  props.items = &kv;
  props.count = 1;
  host->task_configs_add(configs, props);
  return CONNECTD_STATUS_OK;
}
static connectd_status connector_stop(connectd_connector_plugin_ptr* p,
                                      connectd_error_host_ptr* e) {
  (void)p;
  (void)e;
  return CONNECTD_STATUS_OK;
}
static void connector_destroy(connectd_connector_plugin_ptr* p) { (void)p; }

static connectd_task_plugin_ptr* task_create(connectd_source_task_context_host_ptr* c,
                                             connectd_error_host_ptr* e) {
  (void)c;
  (void)e;
  return (connectd_task_plugin_ptr*)&task_instance;
}
static connectd_status task_start(connectd_task_plugin_ptr* t, connectd_props props,
                                  connectd_error_host_ptr* e) {
  (void)t;
  (void)props;
  (void)e;
  return CONNECTD_STATUS_OK;
}
static connectd_status task_poll(connectd_task_plugin_ptr* t, int32_t timeout_ms,
                                 connectd_source_batch_host_ptr* batch,
                                 connectd_error_host_ptr* e) {
  connectd_source_record r;
  (void)t;
  (void)timeout_ms;
  (void)e;
  memset(&r, 0, sizeof(r));
  r.struct_size = sizeof(r);
  r.source_partition = str("{\"c\":1}");
  r.source_offset = str("{\"n\":1}");
  r.topic = str("c-topic");
  r.partition = CONNECTD_ANY_PARTITION;
  r.value.data = "c-record";
  r.value.size = 8;
  r.timestamp_ms = CONNECTD_NO_TIMESTAMP;
  return host->source_batch_append(batch, &r);
}
static void task_stop(connectd_task_plugin_ptr* t) { (void)t; }
static void task_destroy(connectd_task_plugin_ptr* t) { (void)t; }

static const connectd_connector_vtable connector_vtable = {
    sizeof(connectd_connector_vtable), connector_create, NULL, connector_start,
    connector_task_configs, connector_stop, connector_destroy
#if CONNECTD_PLUGIN_ABI_TARGET_MINOR >= 1
    , NULL
#endif
};

static const connectd_source_task_vtable task_vtable = {
    sizeof(connectd_source_task_vtable), task_create, task_start, task_poll, NULL, NULL,
    task_stop, task_destroy};

#ifdef EXTRA_FIELDS
/* A descriptor from a future minor: the known layout followed by fields this host ignores. */
typedef struct future_connector_descriptor {
  connectd_connector_descriptor known;
  const char* future_field;
} future_connector_descriptor;
static const future_connector_descriptor connector = {
    {sizeof(future_connector_descriptor), CLASS_NAME, CONNECTD_CONNECTOR_TYPE_SOURCE, "9.9.9",
     NULL, 0, &connector_vtable, &task_vtable, NULL},
    "ignored"};
static const connectd_connector_descriptor* const connectors[] = {&connector.known};
#else
static const connectd_connector_descriptor connector = {
    sizeof(connectd_connector_descriptor), CLASS_NAME, CONNECTD_CONNECTOR_TYPE_SOURCE, CONNECTOR_VERSION,
    NULL, 0, &connector_vtable, &task_vtable, NULL};
static const connectd_connector_descriptor* const connectors[] = {&connector};
#endif

static const connectd_plugin_descriptor descriptor = {
    sizeof(connectd_plugin_descriptor), CLAIM_MAJOR, CLAIM_MINOR, "c-plugin", "1.0.0", connectors,
    1};

#ifdef NO_ENTRY
CONNECTD_PLUGIN_EXPORT const connectd_plugin_descriptor* some_other_symbol(
    const connectd_host_api* h, connectd_error_host_ptr* e);
#define ENTRY some_other_symbol
#else
CONNECTD_PLUGIN_EXPORT const connectd_plugin_descriptor* connectd_plugin_entry(
    const connectd_host_api* h, connectd_error_host_ptr* e);
#define ENTRY connectd_plugin_entry
#endif

CONNECTD_PLUGIN_EXPORT const connectd_plugin_descriptor* ENTRY(const connectd_host_api* h,
                                                               connectd_error_host_ptr* e) {
  (void)e;
  host = h;
  return &descriptor;
}
