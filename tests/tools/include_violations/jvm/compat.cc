// The compat library reaching into a plugin: refused too.
#include "connectors/mirror_client/records.h"
