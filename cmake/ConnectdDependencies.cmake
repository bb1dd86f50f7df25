# Every third-party dependency comes from Debian's packages (scripts/setup installs them).
# Headers are included as SYSTEM so -Werror applies to our own code only.
find_package(PkgConfig REQUIRED)
pkg_check_modules(RDKAFKA REQUIRED IMPORTED_TARGET rdkafka>=2.0.2)
find_package(absl REQUIRED CONFIG)
find_package(Boost 1.74 REQUIRED)
find_package(RapidJSON REQUIRED CONFIG)
find_package(OpenSSL REQUIRED)
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
