# Declarative target helpers (after abseil's absl_cc_library):
#   connectd_cc_library(NAME x SRCS ... HDRS ... DEPS ... [PUBLIC_DEPS ...])
#   connectd_cc_binary(NAME x SRCS ... DEPS ...)
#   connectd_cc_test(NAME x SRCS ... DEPS ... LABELS unit|integration|e2e|fault|abi [FIXTURES ...])
#   connectd_plugin(NAME x SRCS ... DEPS ... [DEFINES ...] [OUTPUT_DIRECTORY dir [SHIPPED_IN d]])
#       -> build/plugins/lib<x>.so (MODULE, hidden symbols but the entry, no undefined symbols);
#          a plugin built there ships: installed into lib/connectd/plugins (cmake/Install.cmake);
#          one built elsewhere ships only with SHIPPED_IN: installed into lib/connectd/<d>

set(CONNECTD_WARNINGS -Wall -Wextra -Werror -Wno-missing-field-initializers)

function(connectd_set_warnings target)
  target_compile_options(${target} PRIVATE ${CONNECTD_WARNINGS})
endfunction()

function(connectd_cc_library)
  cmake_parse_arguments(L "" "NAME" "SRCS;HDRS;DEPS;PUBLIC_DEPS" ${ARGN})
  add_library(${L_NAME} STATIC ${L_SRCS} ${L_HDRS})
  target_include_directories(${L_NAME} PUBLIC ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/include)
  target_link_libraries(${L_NAME} PUBLIC ${L_PUBLIC_DEPS} ${L_DEPS})
  connectd_set_warnings(${L_NAME})
endfunction()

function(connectd_cc_binary)
  cmake_parse_arguments(B "" "NAME" "SRCS;DEPS" ${ARGN})
  add_executable(${B_NAME} ${B_SRCS})
  target_include_directories(${B_NAME} PRIVATE ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/include)
  target_link_libraries(${B_NAME} PRIVATE ${B_DEPS})
  connectd_set_warnings(${B_NAME})
endfunction()

# Each gtest case becomes its own ctest test carrying LABELS; FIXTURES names one ctest fixture
# (`kafka`: two real brokers started by tests/CMakeLists.txt). One name only: gtest_discover_tests
# would split a list into separate property names.
function(connectd_cc_test)
  cmake_parse_arguments(T "" "NAME;TIMEOUT" "SRCS;DEPS;LABELS;FIXTURES" ${ARGN})
  add_executable(${T_NAME} ${T_SRCS})
  set_target_properties(${T_NAME} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/tests)
  target_include_directories(${T_NAME} PRIVATE ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/include)
  target_link_libraries(${T_NAME} PRIVATE ${T_DEPS} GTest::gmock GTest::gtest_main)
  connectd_set_warnings(${T_NAME})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 120)
  endif()
  if(CONNECTD_TEST_TIMEOUT_SCALE)
    math(EXPR T_TIMEOUT "${T_TIMEOUT} * ${CONNECTD_TEST_TIMEOUT_SCALE}")
  endif()
  # Tests find the tree, the build and the Kafka fixtures' run dir through compiled-in paths
  # (an environment variable of the same name overrides each).
  target_compile_definitions(${T_NAME} PRIVATE
      CONNECTD_SOURCE_DIR="${PROJECT_SOURCE_DIR}" CONNECTD_BUILD_DIR="${PROJECT_BINARY_DIR}"
      CONNECTD_KAFKA_RUN_DIR="${CONNECTD_KAFKA_RUN_DIR}")
  set(props LABELS "${T_LABELS}" TIMEOUT ${T_TIMEOUT})
  if(T_FIXTURES)
    list(APPEND props FIXTURES_REQUIRED "${T_FIXTURES}")
  endif()
  gtest_discover_tests(${T_NAME} DISCOVERY_TIMEOUT 30 PROPERTIES ${props})
endfunction()

function(connectd_plugin)
  cmake_parse_arguments(P "" "NAME;OUTPUT_DIRECTORY;SHIPPED_IN" "SRCS;DEPS;DEFINES" ${ARGN})
  add_library(${P_NAME} MODULE ${P_SRCS})
  if(NOT P_OUTPUT_DIRECTORY OR P_SHIPPED_IN)
    if(NOT P_OUTPUT_DIRECTORY)
      set(P_OUTPUT_DIRECTORY ${CONNECTD_PLUGIN_OUTPUT_DIRECTORY})
    endif()
    if(NOT P_SHIPPED_IN)
      set(P_SHIPPED_IN plugins)
    endif()
    # Installed beside the private librdkafka, one directory up.
    set_target_properties(${P_NAME} PROPERTIES INSTALL_RPATH "$ORIGIN/..")
    install(TARGETS ${P_NAME} LIBRARY DESTINATION ${CONNECTD_INSTALL_LIBDIR}/${P_SHIPPED_IN})
    set_property(GLOBAL APPEND PROPERTY CONNECTD_SHIPPED_PLUGINS ${P_NAME})
  endif()
  target_compile_definitions(${P_NAME} PRIVATE ${P_DEFINES})
  set_target_properties(${P_NAME} PROPERTIES
      PREFIX "lib"
      LIBRARY_OUTPUT_DIRECTORY ${P_OUTPUT_DIRECTORY}
      C_VISIBILITY_PRESET hidden CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
  target_include_directories(${P_NAME} PRIVATE ${PROJECT_SOURCE_DIR})
  target_link_libraries(${P_NAME} PRIVATE connectd_sdk ${P_DEPS})
  if(NOT CONNECTD_ASAN AND NOT CONNECTD_TSAN)
    target_link_options(${P_NAME} PRIVATE -Wl,--no-undefined)
  endif()
  connectd_set_warnings(${P_NAME})
endfunction()
