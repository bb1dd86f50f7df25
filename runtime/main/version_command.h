// `connectd version`: what an operator or a bug report needs to know about this binary.
#pragma once

namespace connectd::main {

// Prints connectd's version and git commit, the Kafka Connect version it is compatible with, the
// librdkafka it runs on (the loaded library's, not the headers') and the plugin ABI it offers.
int RunVersion();

}  // namespace connectd::main
