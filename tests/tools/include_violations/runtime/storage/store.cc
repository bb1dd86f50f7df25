// A lower layer (storage) reaching up to the worker: refused (RANKS in scripts/check-includes).
#include "runtime/worker/worker.h"
