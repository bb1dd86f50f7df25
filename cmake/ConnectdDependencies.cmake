# Every third-party dependency comes from Debian's packages (scripts/setup installs them).
# Headers are included as SYSTEM so -Werror applies to our own code only.
find_package(PkgConfig REQUIRED)
# librdkafka >= 2.14: the one scripts/librdkafka builds from Debian's unstable source package
# (scripts/build passes its prefix), or a system library that new. Debian 12's 2.0.2 is refused: it
# lacks SCRAM with Kafka 4.x and the topic IDs connectd relies on. Linked by full path, so every
# binary and plugin gets a RUNPATH to it and loads it instead of the system's.
set(CONNECTD_RDKAFKA_PREFIX "" CACHE PATH "librdkafka built by scripts/librdkafka; empty: the system's")
if(CONNECTD_RDKAFKA_PREFIX)
  if(NOT EXISTS ${CONNECTD_RDKAFKA_PREFIX}/lib/pkgconfig/rdkafka.pc)
    message(FATAL_ERROR "CONNECTD_RDKAFKA_PREFIX=${CONNECTD_RDKAFKA_PREFIX} has no lib/pkgconfig/rdkafka.pc (run scripts/librdkafka)")
  endif()
  list(PREPEND CMAKE_PREFIX_PATH ${CONNECTD_RDKAFKA_PREFIX})
endif()
# pkg_check_modules caches its answer; check again when the prefix changes.
if(NOT "${CONNECTD_RDKAFKA_PREFIX}" STREQUAL "${CONNECTD_RDKAFKA_PREFIX_CHECKED}")
  unset(__pkg_config_checked_RDKAFKA CACHE)
  unset(pkgcfg_lib_RDKAFKA_rdkafka CACHE)
  set(CONNECTD_RDKAFKA_PREFIX_CHECKED "${CONNECTD_RDKAFKA_PREFIX}" CACHE INTERNAL "")
endif()
pkg_check_modules(RDKAFKA REQUIRED IMPORTED_TARGET rdkafka>=2.14)
message(STATUS "librdkafka ${RDKAFKA_VERSION}: ${RDKAFKA_LINK_LIBRARIES}")
# PCRE2 (libpcre2-dev): java.util.regex in jvm/java_regex.
pkg_check_modules(PCRE2 REQUIRED IMPORTED_TARGET libpcre2-8>=10.34)
find_package(absl REQUIRED CONFIG)
find_package(Boost 1.74 REQUIRED)
find_package(RapidJSON REQUIRED CONFIG)
find_package(OpenSSL REQUIRED)
# libcurl (Debian's libcurl4-openssl-dev): the group client's OAUTHBEARER token fetch.
find_package(CURL REQUIRED)
# MIT Kerberos' GSS-API (Debian's libkrb5-dev): the group client's SASL/GSSAPI.
pkg_check_modules(GSSAPI REQUIRED IMPORTED_TARGET krb5-gssapi)
# MIT Kerberos' own API: Kerberos logins from a keytab in the process (jvm/kerberos_login.h).
pkg_check_modules(KRB5 REQUIRED IMPORTED_TARGET krb5)
find_package(Threads REQUIRED)
if(CONNECTD_BUILD_TESTS)
  find_package(GTest REQUIRED CONFIG)
endif()

# RapidJSON 1.1.0 exports only include dirs; wrap them in a SYSTEM interface target.
if(NOT TARGET connectd_rapidjson)
  add_library(connectd_rapidjson INTERFACE)
  target_include_directories(connectd_rapidjson SYSTEM INTERFACE ${RapidJSON_INCLUDE_DIRS} ${RAPIDJSON_INCLUDE_DIRS})
  target_compile_definitions(connectd_rapidjson INTERFACE RAPIDJSON_HAS_STDSTRING=1)
endif()
if(NOT TARGET connectd_boost)
  add_library(connectd_boost INTERFACE)
  target_include_directories(connectd_boost SYSTEM INTERFACE ${Boost_INCLUDE_DIRS})
  target_compile_definitions(connectd_boost INTERFACE BOOST_ASIO_NO_DEPRECATED BOOST_ASIO_DISABLE_BOOST_COROUTINE)
endif()
