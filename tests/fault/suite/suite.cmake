# scripts/fault-suite --short under ctest (issue #10). Owned by the fault-suite work.
# Every fault of the suite on 50,000 records with 10 s outages: its own three brokers (a private
# scripts/kafka run dir, not the shared `kafka` fixture), its own workers and network namespace;
# needs root. RUN_SERIAL: it loads both cores for several minutes and measures recovery times.
# About 6.5 min on an optimised build; the sanitizer builds' scale (a TSan run needs about 20).
math(EXPR fault_suite_timeout "900 * ${CONNECTD_TEST_TIMEOUT_SCALE}")
add_test(NAME FaultSuite.Short
         COMMAND ${PROJECT_SOURCE_DIR}/scripts/fault-suite --short)
set_tests_properties(FaultSuite.Short PROPERTIES
                     LABELS fault
                     TIMEOUT ${fault_suite_timeout}
                     RUN_SERIAL TRUE
                     ENVIRONMENT "CONNECTD_BUILD_DIR=${PROJECT_BINARY_DIR}")

# The suite's checker (kafka_test_tool verify) against known losses, duplicates, reordering and
# foreign records, on connectd dev-kafka (no JVM, seconds).
add_test(NAME FaultSuite.VerifyCatchesLoss
         COMMAND python3 -m unittest -v verify_test
         WORKING_DIRECTORY ${CMAKE_CURRENT_LIST_DIR})
set_tests_properties(FaultSuite.VerifyCatchesLoss PROPERTIES
                     LABELS fault
                     TIMEOUT 120
                     ENVIRONMENT "CONNECTD_BUILD_DIR=${PROJECT_BINARY_DIR}")
