/* The ABI header compiles as strict C99 (-std=c99 -pedantic -Werror) and its leading version
 * fields sit where every major promises them. Exit 0 on success. */
#include "connectd/plugin/abi.h"

#include <stddef.h>
#include <stdio.h>

int main(void) {
  int failures = 0;
  if (offsetof(connectd_plugin_descriptor, struct_size) != 0 ||
      offsetof(connectd_plugin_descriptor, abi_major) != 4 ||
      offsetof(connectd_plugin_descriptor, abi_minor) != 8) {
    fprintf(stderr, "descriptor version fields moved\n");
    ++failures;
  }
  if (offsetof(connectd_host_api, abi_major) != 4 || offsetof(connectd_host_api, abi_minor) != 8) {
    fprintf(stderr, "host api version fields moved\n");
    ++failures;
  }
  if (CONNECTD_STATUS_UNAVAILABLE != 14 || CONNECTD_STATUS_INTERNAL != 13) {
    fprintf(stderr, "status codes no longer match absl::StatusCode\n");
    ++failures;
  }
  printf("abi.h %d.%d compiles as C99\n", CONNECTD_PLUGIN_ABI_VERSION_MAJOR,
         CONNECTD_PLUGIN_ABI_VERSION_MINOR);
  return failures == 0 ? 0 : 1;
}
