// libconnectd_mirror_source.so: MirrorSourceConnector.
#include "connectors/mirror/mirror_source_connector.h"

CONNECTD_PLUGIN("connect-mirror-source", "4.4.0", connectd::mirror::MirrorSourceConnector)
