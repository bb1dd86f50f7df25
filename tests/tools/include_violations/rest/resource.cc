// rest/ reaching past the herder interface: refused.
#include "runtime/worker/worker.h"
