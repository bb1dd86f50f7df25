# The install tree: `cmake --install build --prefix P` (and scripts/package, which makes the .deb
# from it) gives a tree that refers to nothing outside itself:
#   P/bin/connectd                          RUNPATH $ORIGIN/../lib/connectd
#   P/lib/connectd/librdkafka.so.1          the private librdkafka scripts/librdkafka built
#   P/lib/connectd/plugins/*.so             the shipped plugins (connectd_plugin), RUNPATH $ORIGIN/..
#   P/lib/connectd/file-connectors/*.so     the FileStream connectors, not on the default plugin.path
#   P/share/connectd/config/                sample worker, MirrorMaker and connector configs,
#                                           the Grafana dashboard and Prometheus rules
#   P/include/connectd/, P/lib/cmake/connectd-sdk/, P/lib/pkgconfig/   the SDK (include/)
#   P/lib/debug/.build-id/xx/yyyy.debug     the debug info split off every ELF file above, which
#                                           is installed stripped (CONNECTD_INSTALL_SPLIT_DEBUG)
# The other libraries (OpenSSL, SASL, zstd, lz4, abseil, PCRE2) are Debian's, named by the
# package's Depends. The plugins' rules are in connectd_plugin (cmake/ConnectdHelpers.cmake).

# `connectd_plugins` builds every shipped plugin (scripts/quickstart builds only what it runs).
get_property(shipped_plugins GLOBAL PROPERTY CONNECTD_SHIPPED_PLUGINS)
add_custom_target(connectd_plugins)
add_dependencies(connectd_plugins ${shipped_plugins})

set_target_properties(connectd PROPERTIES INSTALL_RPATH "$ORIGIN/../${CONNECTD_INSTALL_LIBDIR}")
install(TARGETS connectd RUNTIME DESTINATION bin)

# The librdkafka the binary and the plugins were linked against, under its SONAME.
if(CONNECTD_RDKAFKA_PREFIX)
  file(REAL_PATH "${CONNECTD_RDKAFKA_PREFIX}/lib/librdkafka.so.1" rdkafka_library)
  install(FILES "${rdkafka_library}" DESTINATION ${CONNECTD_INSTALL_LIBDIR}
          RENAME librdkafka.so.1
          PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
endif()

install(DIRECTORY config/ DESTINATION share/connectd/config)

option(CONNECTD_INSTALL_SPLIT_DEBUG
       "Install stripped ELF files, their debug info under lib/debug/.build-id" ON)
if(CONNECTD_INSTALL_SPLIT_DEBUG)
  # Runs after every rule above and those of the subdirectories (this file is included last).
  install(CODE "set(CONNECTD_INSTALL_LIBDIR \"${CONNECTD_INSTALL_LIBDIR}\")")
  install(SCRIPT cmake/SplitDebugInfo.cmake)
endif()
