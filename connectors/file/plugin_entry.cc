// The connect-file plugin: libconnectd_file.so on plugin.path.
#include "connectors/file/file_stream_sink.h"
#include "connectors/file/file_stream_source.h"

CONNECTD_PLUGIN("connect-file", "4.4.0", connectd::file::FileStreamSourceConnector,
                connectd::file::FileStreamSinkConnector)
