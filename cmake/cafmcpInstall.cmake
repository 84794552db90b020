# Install rules, the CMake package (cafmcpConfig.cmake), pkg-config files and
# the Debian package (CPack). Included from the top-level CMakeLists.txt when
# CAFMCP_INSTALL is on.
#
# Components (the Debian packages CPack makes of them):
#   runtime      the shared libraries (a BUILD_SHARED_LIBS build) and
#                cafmcp-check                         -> libcafmcp<SOVERSION>
#   development  headers, static libraries, .so links, CMake package,
#                pkg-config files                     -> libcafmcp-dev
include(CMakePackageConfigHelpers)

get_property(_cafmcp_targets GLOBAL PROPERTY CAFMCP_INSTALLED_TARGETS)
if(BUILD_SHARED_LIBS)
  set(CAFMCP_FLAVOUR shared)
else()
  set(CAFMCP_FLAVOUR static)
endif()
set(CAFMCP_CMAKE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/cafmcp")

install(TARGETS ${_cafmcp_targets} EXPORT cafmcpTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime NAMELINK_COMPONENT development
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/cafmcp ${PROJECT_SOURCE_DIR}/otel/include/cafmcp
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT development
        FILES_MATCHING PATTERN "*.hpp")
if(TARGET cafmcp-check)
  install(TARGETS cafmcp-check RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
endif()

# One export file per flavour, so that a static and a shared build can both
# be installed into one prefix; cafmcpConfig.cmake includes one of them.
install(EXPORT cafmcpTargets NAMESPACE cafmcp:: FILE cafmcpTargets-${CAFMCP_FLAVOUR}.cmake
        DESTINATION ${CAFMCP_CMAKE_DIR} COMPONENT development)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/cafmcpConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cafmcpConfig.cmake INSTALL_DESTINATION ${CAFMCP_CMAKE_DIR})
# 0.x: a minor release may break the API, as the SONAME says.
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(_cafmcp_compat SameMinorVersion)
else()
  set(_cafmcp_compat SameMajorVersion)
endif()
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cafmcpConfigVersion.cmake
  COMPATIBILITY ${_cafmcp_compat})
# Debian's CAF ships no CMake package: the config finds it with our module.
install(FILES ${PROJECT_BINARY_DIR}/cafmcpConfig.cmake ${PROJECT_BINARY_DIR}/cafmcpConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/FindCAF.cmake
        DESTINATION ${CAFMCP_CMAKE_DIR} COMPONENT development)

# pkg-config: one file per thing a user links, plus the foundation they share.
# Relocatable (prefix from ${pcfiledir}), so that a package unpacked anywhere
# works. A static build has no shared library to carry its dependencies, so
# its files list them in Libs/Requires; a shared build lists them in
# Libs.private/Requires.private (for `pkg-config --static`).
file(RELATIVE_PATH _cafmcp_pc_to_prefix
     "${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "${CMAKE_INSTALL_PREFIX}")
string(REGEX REPLACE "/$" "" _cafmcp_pc_to_prefix "${_cafmcp_pc_to_prefix}")
function(cafmcp_pkg_config name description)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "" "REQUIRES;REQUIRES_PRIVATE;LIBS;LIBS_PRIVATE")
  if(NOT BUILD_SHARED_LIBS)
    list(APPEND arg_REQUIRES ${arg_REQUIRES_PRIVATE})
    list(APPEND arg_LIBS ${arg_LIBS_PRIVATE})
    set(arg_REQUIRES_PRIVATE "")
    set(arg_LIBS_PRIVATE "")
  endif()
  list(JOIN arg_REQUIRES ", " requires)
  list(JOIN arg_REQUIRES_PRIVATE ", " requires_private)
  list(JOIN arg_LIBS " " libs)
  list(JOIN arg_LIBS_PRIVATE " " libs_private)
  set(text "prefix=\${pcfiledir}/${_cafmcp_pc_to_prefix}
libdir=\${prefix}/${CMAKE_INSTALL_LIBDIR}
includedir=\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}

Name: ${name}
Description: ${description}
Version: ${PROJECT_VERSION}
Requires: ${requires}
Requires.private: ${requires_private}
Cflags: -I\${includedir}
Libs: -L\${libdir} ${libs}
Libs.private: ${libs_private}
")
  file(WRITE ${PROJECT_BINARY_DIR}/pkgconfig/${name}.pc "${text}")
  install(FILES ${PROJECT_BINARY_DIR}/pkgconfig/${name}.pc
          DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT development)
endfunction()

cafmcp_pkg_config(cafmcp-foundation "cafmcp's JSON-RPC and descriptor layer (what the others share)"
  REQUIRES nlohmann_json
  REQUIRES_PRIVATE simdjson
  LIBS -lcafmcp_foundation)
cafmcp_pkg_config(cafmcp-server "cafmcp: MCP servers (stdio, in-process), cafmcp::server"
  REQUIRES cafmcp-foundation
  REQUIRES_PRIVATE hiredis libcrypto
  LIBS -lcafmcp -lcafmcp_protocol
  LIBS_PRIVATE -lcafmcp_cluster -lcafmcp_foundation -lcaf_core -pthread)
cafmcp_pkg_config(cafmcp-http "cafmcp: the Streamable HTTP server and its token verifiers, cafmcp::http"
  REQUIRES cafmcp-server
  REQUIRES_PRIVATE libssl liburing
  LIBS -lcafmcp_http -lcafmcp_auth
  LIBS_PRIVATE -lcafmcp_http_fetch -pthread)
cafmcp_pkg_config(cafmcp-client "cafmcp: the MCP client with its stdio and HTTP transports, cafmcp::client"
  REQUIRES cafmcp-foundation
  REQUIRES_PRIVATE libssl
  LIBS -lcafmcp_client -lcafmcp_client_transport -lcafmcp_auth -pthread
  LIBS_PRIVATE -lcafmcp_http_fetch)
cafmcp_pkg_config(cafmcp-otel "cafmcp: OpenTelemetry tracing and its MCP adapter, cafmcp::otel and cafmcp::otel_mcp"
  REQUIRES_PRIVATE libssl
  LIBS -lcafmcp_otel_mcp -lcafmcp_otel -pthread
  LIBS_PRIVATE -lcafmcp_http_fetch)

include(cafmcpPackage)
