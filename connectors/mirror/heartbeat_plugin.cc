// libconnectd_mirror_heartbeat.so: MirrorHeartbeatConnector.
#include "connectors/mirror/mirror_heartbeat_connector.h"

CONNECTD_PLUGIN("connect-mirror-heartbeat", "4.4.0", connectd::mirror::MirrorHeartbeatConnector)
