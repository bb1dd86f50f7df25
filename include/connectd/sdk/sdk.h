// File: connectd/sdk/sdk.h
//
// The connectd C++ plugin SDK in one include: header-only, standard library only, over the C
// ABI in connectd/plugin/abi.h. See connectors/examples/template for a complete plugin.
#pragma once

#include "connectd/sdk/config_def.h"  // IWYU pragma: export
#include "connectd/sdk/data.h"        // IWYU pragma: export
#include "connectd/sdk/connector.h"   // IWYU pragma: export
#include "connectd/sdk/errors.h"      // IWYU pragma: export
#include "connectd/sdk/metrics.h"     // IWYU pragma: export
#include "connectd/sdk/plugin.h"      // IWYU pragma: export
#include "connectd/sdk/records.h"     // IWYU pragma: export
#include "connectd/sdk/task.h"        // IWYU pragma: export
#include "connectd/sdk/transformation.h"  // IWYU pragma: export
