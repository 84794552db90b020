# Debian packages with CPack (cpack -G DEB in the build tree, or
# scripts/package for one with both the static and the shared libraries):
#   libcafmcp<SOVERSION>  (component runtime)      shared libraries, cafmcp-check
#   libcafmcp-dev         (component development)  headers, static libraries,
#                          CMake package, pkg-config files
# Dependencies are Debian bookworm's package names, set here rather than
# computed by dpkg-shlibdeps (one tool fewer, and the -dev package's
# dependencies are headers and .so links no tool can compute anyway).
set(CAFMCP_PACKAGE_CONTACT "the cafmcp contributors" CACHE STRING "Maintainer field of the Debian packages")
set(CPACK_PACKAGE_NAME cafmcp)
set(CPACK_PACKAGE_VENDOR "the cafmcp contributors")
set(CPACK_PACKAGE_CONTACT "${CAFMCP_PACKAGE_CONTACT}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)

set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL runtime development)
set(CPACK_COMPONENT_DEVELOPMENT_DEPENDS runtime)
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON) # -dev depends on the exact runtime version
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS OFF)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)

set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME "libcafmcp${CAFMCP_SOVERSION}")
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION libs)
set(CPACK_COMPONENT_RUNTIME_DESCRIPTION
    "Runtime files: the shared libraries (when built) and cafmcp-check, the notification compliance checker.")
set(CPACK_DEBIAN_RUNTIME_PACKAGE_DEPENDS
    "libc6 (>= 2.36), libgcc-s1 (>= 3.0), libstdc++6 (>= 12), libcaf-core0.17 (>= 0.17.6), libssl3 (>= 3.0.0), libhiredis0.14 (>= 0.14.1), libsimdjson14 (>= 3.0.1), liburing2 (>= 2.1)")

set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_NAME libcafmcp-dev)
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_SECTION libdevel)
set(CPACK_COMPONENT_DEVELOPMENT_DESCRIPTION
    "Development files: headers, static libraries, the CMake package (find_package(cafmcp)) and pkg-config files (cafmcp-server, cafmcp-http, cafmcp-client, cafmcp-otel).")
# Static libraries link CAF, libcrypto, libssl, hiredis, simdjson and liburing; the headers include nlohmann/json.
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_DEPENDS
    "libcaf-dev (>= 0.17.6), nlohmann-json3-dev (>= 3.10), libssl-dev, libhiredis-dev, libsimdjson-dev, liburing-dev, pkgconf | pkg-config")

include(CPack)
