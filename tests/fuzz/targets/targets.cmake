# libFuzzer targets for the parsers and codecs (issue #10): tests/fuzz/targets/<name>_fuzz.cc,
# each defining LLVMFuzzerTestOneInput, and a seed/regression corpus per target in
# tests/fuzz/corpus/<name>/.
#
# Two builds of the same files:
#  - the normal build (included from tests/CMakeLists.txt): each target is linked with
#    replay_main.cc into build/tests/fuzz/<name>_fuzz, and ctest FuzzCorpus.<name> (label unit)
#    replays its corpus once: a crash, sanitizer report (in build-asan) or failed FUZZ_CHECK
#    fails the test;
#  - the libFuzzer build (CONNECTD_FUZZ=ON with clang-14, included from cmake/Fuzz.cmake):
#    each target is linked with -fsanitize=fuzzer,address,undefined into build-fuzz/fuzz/ and
#    run by scripts/fuzz.
#
# connectd_fuzz_target(NAME x DEPS libraries...): DEPS are the normal build's libraries; the
# libFuzzer build links connectd_fuzz_parsers (cmake/Fuzz.cmake) instead.

set(CONNECTD_FUZZ_DIR ${CMAKE_CURRENT_LIST_DIR})
set(CONNECTD_FUZZ_CORPUS_DIR ${CMAKE_CURRENT_LIST_DIR}/../corpus)

function(connectd_fuzz_target)
  cmake_parse_arguments(F "" "NAME" "DEPS" ${ARGN})
  set(target ${F_NAME}_fuzz)
  if(CONNECTD_FUZZ)
    add_executable(${target} ${CONNECTD_FUZZ_DIR}/${F_NAME}_fuzz.cc)
    target_link_libraries(${target} PRIVATE connectd_fuzz_parsers)
    target_link_options(${target} PRIVATE -fsanitize=fuzzer)
    set_target_properties(${target} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/fuzz)
    target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR})
    connectd_set_warnings(${target})
    add_dependencies(connectd_fuzz_targets ${target})
  else()
    connectd_cc_binary(NAME ${target}
                       SRCS ${CONNECTD_FUZZ_DIR}/${F_NAME}_fuzz.cc ${CONNECTD_FUZZ_DIR}/replay_main.cc
                       DEPS ${F_DEPS})
    set_target_properties(${target} PROPERTIES
        RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/tests/fuzz)
    add_test(NAME FuzzCorpus.${F_NAME}
             COMMAND ${target} ${CONNECTD_FUZZ_CORPUS_DIR}/${F_NAME})
    set_tests_properties(FuzzCorpus.${F_NAME} PROPERTIES LABELS unit TIMEOUT 60)
  endif()
endfunction()

if(CONNECTD_FUZZ)
  add_custom_target(connectd_fuzz_targets)
endif()

# Config parsers.
connectd_fuzz_target(NAME properties DEPS connectd_config)
connectd_fuzz_target(NAME java_regex DEPS connectd_jvm)
connectd_fuzz_target(NAME connector_json DEPS connectd_rest connectd_distributed)
connectd_fuzz_target(NAME mm2_config DEPS connectd_mirror_maker connectd_config)
# The choke point for hostile client configs: Java client config -> librdkafka properties.
connectd_fuzz_target(NAME client_config DEPS connectd_jvm)
# Record codecs: bytes other clusters write.
connectd_fuzz_target(NAME mirror_records DEPS connectd_mirror_client connectd_distributed)
connectd_fuzz_target(NAME config_topic DEPS connectd_storage_records)
connectd_fuzz_target(NAME status_topic DEPS connectd_storage_records)
connectd_fuzz_target(NAME offsets_topic DEPS connectd_storage_records)
connectd_fuzz_target(NAME connect_protocol DEPS connectd_distributed)
connectd_fuzz_target(NAME record_batch DEPS connectd_kafka_protocol)
connectd_fuzz_target(NAME kafka_protocol DEPS connectd_kafka_protocol)
# Connect data: JsonConverter's envelope and schema JSON, Values.parseString.
connectd_fuzz_target(NAME json_converter DEPS connectd_converters)
connectd_fuzz_target(NAME values DEPS connectd_data)
connectd_fuzz_target(NAME key_store DEPS connectd_jvm)
connectd_fuzz_target(NAME sasl_login DEPS connectd_jvm connectd_kafka_protocol)
