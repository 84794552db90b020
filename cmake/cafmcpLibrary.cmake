# cafmcp_library(<target> <export name>): marks a library as part of what
# cafmcp installs. It gets the project's VERSION and SOVERSION (used when
# BUILD_SHARED_LIBS makes it shared), the name users link (cafmcp::<export
# name>, exported and as an ALIAS in the build tree, so add_subdirectory and
# find_package users write the same), and joins the export set.
#
# While the major version is 0 every minor release may break the ABI, so the
# SONAME carries major.minor (libcafmcp.so.0.1); from 1.0 on, the major alone.
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(CAFMCP_SOVERSION "${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR}")
else()
  set(CAFMCP_SOVERSION "${PROJECT_VERSION_MAJOR}")
endif()
set_property(GLOBAL PROPERTY CAFMCP_INSTALLED_TARGETS "")

function(cafmcp_library target export_name)
  set_target_properties(${target} PROPERTIES
    VERSION ${PROJECT_VERSION}
    SOVERSION ${CAFMCP_SOVERSION}
    EXPORT_NAME ${export_name})
  # Installed shared libraries find each other in their own directory, so a
  # prefix outside the loader's path (~/.local, an unpacked package) works
  # without LD_LIBRARY_PATH.
  get_target_property(_type ${target} TYPE)
  if(_type STREQUAL "SHARED_LIBRARY")
    set_target_properties(${target} PROPERTIES INSTALL_RPATH "$ORIGIN")
  endif()
  add_library(cafmcp::${export_name} ALIAS ${target})
  set_property(GLOBAL APPEND PROPERTY CAFMCP_INSTALLED_TARGETS ${target})
endfunction()
