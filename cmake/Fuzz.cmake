# The libFuzzer build (CONNECTD_FUZZ=ON): only the parser and codec fuzz targets of
# tests/fuzz/targets, compiled with clang-14 and -fsanitize=fuzzer,address,undefined, from the
# few sources they need (no Beast, no librdkafka, no plugins), so a clean build takes a few
# minutes. Configure and run it with scripts/fuzz; the third-party libraries are Debian's
# (built with gcc; clang with libstdc++ links against them).
#
#   CC=clang-14 CXX=clang++-14 cmake -G Ninja -B build-fuzz -DCONNECTD_FUZZ=ON
#   ninja -C build-fuzz connectd_fuzz_targets        # -> build-fuzz/fuzz/<name>_fuzz
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "CONNECTD_FUZZ needs clang (libFuzzer): CXX=clang++-14 (see scripts/fuzz)")
endif()
if(CONNECTD_ASAN OR CONNECTD_TSAN)
  message(FATAL_ERROR "CONNECTD_FUZZ brings its own sanitizers; drop CONNECTD_ASAN/TSAN")
endif()

# Every object is instrumented for coverage and checked by ASan and UBSan (UB aborts);
# _GLIBCXX_ASSERTIONS adds libstdc++'s bounds checks (operator[], front(), ...).
add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
                    -fno-omit-frame-pointer -gline-tables-only -D_GLIBCXX_ASSERTIONS)
add_link_options(-fsanitize=address,undefined)
# UBSan skips third-party headers (tests/fuzz/targets/ubsan_ignorelist.txt says why).
add_compile_options(-fsanitize-ignorelist=${PROJECT_SOURCE_DIR}/tests/fuzz/targets/ubsan_ignorelist.txt)
# RapidJSON 1.1.0's member iterators compare ambiguously under C++20 rules (clang warns, gcc not).
add_compile_options(-Wno-ambiguous-reversed-operator)

# What the targets parse, one static library: each target pulls in the objects it uses.
add_library(connectd_fuzz_parsers STATIC
    runtime/config/properties.cc runtime/config/config_def.cc runtime/config/config_providers.cc
    runtime/mirror_maker/mirror_maker_config.cc
    runtime/herder_api/herder_types.cc
    rest/json_entities.cc
    runtime/data/connect_json.cc runtime/data/schema.cc runtime/data/value.cc
    runtime/data/decimal.cc runtime/data/values.cc runtime/data/simple_date_format.cc
    runtime/converters/json_converter.cc runtime/storage/config_records.cc
    runtime/storage/status_records.cc runtime/storage/offsets_records.cc
    runtime/storage/status_state.cc runtime/distributed/connect_protocol.cc
    runtime/storage/offset_codec.cc jvm/java_text.cc jvm/java_hash_order.cc jvm/utf8.cc
    jvm/java_base64.cc jvm/java_regex.cc jvm/java_key_store.cc
    runtime/kafka/protocol/wire.cc runtime/kafka/protocol/messages.cc
    runtime/kafka/protocol/sasl.cc runtime/kafka/protocol/oauthbearer.cc jvm/java_jaas_config.cc
    runtime/kafka/protocol/crc32c.cc runtime/kafka/protocol/record_batch.cc
    runtime/kafka/protocol/data_messages.cc
    jvm/java_client_config.cc jvm/java_client_defaults.cc jvm/java_oauthbearer_config.cc
    jvm/java_kerberos_config.cc jvm/java_system_properties.cc jvm/librdkafka_properties.cc
    jvm/regular_file.cc
    runtime/common/logging.cc
    connectors/mirror_client/records.cc)
target_include_directories(connectd_fuzz_parsers PUBLIC ${PROJECT_SOURCE_DIR}
                                                        ${PROJECT_SOURCE_DIR}/include)
target_link_libraries(connectd_fuzz_parsers PUBLIC
    connectd_rapidjson absl::status absl::statusor absl::strings absl::str_format absl::cord
    absl::flat_hash_map
    OpenSSL::SSL OpenSSL::Crypto Threads::Threads PkgConfig::PCRE2 CURL::libcurl)
# As in runtime/CMakeLists.txt: Double.toString's rounding needs no fused multiply-add.
set_source_files_properties(jvm/java_text.cc PROPERTIES COMPILE_OPTIONS -ffp-contract=off)
connectd_set_warnings(connectd_fuzz_parsers)

include(${PROJECT_SOURCE_DIR}/tests/fuzz/targets/targets.cmake)
