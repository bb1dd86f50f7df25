// The worker reaching up to a herder: refused (the herders see the worker, not the reverse).
#include "runtime/herder/standalone_herder.h"
