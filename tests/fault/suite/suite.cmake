# scripts/fault-suite --short under ctest (issue #10). Owned by the fault-suite work.
# Every fault of the suite on 50,000 records with 10 s outages, in two tests: the at-least-once
# faults and the exactly-once faults, each with its own three brokers (a private scripts/kafka
# run dir, not the shared `kafka` fixture), workers and network namespace; needs root. Both start
# at once beside the other tests (high COST in tests/CMakeLists.txt; a RESOURCE_LOCK between
# them left the second waiting until the end of the run). About 6 and 3 min under ctest -j4 on
# the 2-core machine. Recovery times are reported, not asserted, so a loaded machine changes
# figures, never a verdict. A TSan run needs about 20 min.
math(EXPR fault_suite_timeout "600 * ${CONNECTD_TEST_TIMEOUT_SCALE}")
foreach(fault_half
    "ShortAtLeastOnce;kill9,sigterm,target-restart,source-restart,netcut,storm,internal-restart"
    "ShortExactlyOnce;eos-kill9,eos-sigterm,eos-target-restart,eos-storm")
  list(GET fault_half 0 half_name)
  list(GET fault_half 1 half_faults)
  add_test(NAME FaultSuite.${half_name}
           COMMAND ${PROJECT_SOURCE_DIR}/scripts/fault-suite --short --only ${half_faults})
  set_tests_properties(FaultSuite.${half_name} PROPERTIES
                       LABELS fault
                       TIMEOUT ${fault_suite_timeout}
                       ENVIRONMENT "CONNECTD_BUILD_DIR=${PROJECT_BINARY_DIR}")
endforeach()

# The 3-broker faults (issue 49): A and B as 3-node KRaft clusters (scripts/kafka start --nodes 3,
# RF 3, min.insync.replicas 2; C one node as above), a kill -9 of the node leading the most source
# partitions on A and of the one leading the most target partitions on B, one node of B halted,
# two of B halted (acks=all rejected: NOT_ENOUGH_REPLICAS), the target partitions' leaders moved
# by a reassignment and a preferred election. Seven broker JVMs: about 4.5 min alone on the 2-core
# machine (4 min 31 s with a build running beside it); 551 s in scripts/test, where it starts
# beside the two other fault-suite tests (13 broker JVMs at once): its own, longer timeout.
math(EXPR three_broker_timeout "1200 * ${CONNECTD_TEST_TIMEOUT_SCALE}")
add_test(NAME FaultSuite.ShortThreeBrokers
         COMMAND ${PROJECT_SOURCE_DIR}/scripts/fault-suite --short --brokers 3 --only
                 source-leader-kill9,target-leader-kill9,target-broker-down,target-min-isr,target-reassign)
set_tests_properties(FaultSuite.ShortThreeBrokers PROPERTIES
                     LABELS fault
                     TIMEOUT ${three_broker_timeout}
                     COST 270
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
