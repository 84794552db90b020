// The library reports the one version the build declares.
#include <gtest/gtest.h>

#include "cafmcp/version.hpp"

TEST(Version, IsTheOneTheBuildDeclares) {
  EXPECT_EQ(cafmcp::version(), CAFMCP_PROJECT_VERSION); // project() in CMakeLists.txt
}
