// A plugin that reaches into the runtime: scripts/check-includes must refuse it.
#include "runtime/kafka/client_config.h"
