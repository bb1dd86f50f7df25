// libconnectd_mirror_checkpoint.so: MirrorCheckpointConnector.
#include "connectors/mirror/checkpoint_connector.h"

CONNECTD_PLUGIN("connect-mirror-checkpoint", "4.4.0", connectd::mirror::MirrorCheckpointConnector)
