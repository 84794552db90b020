// everything-server: every conformance fixture plus the mutation tools, over
// stdio or Streamable HTTP.
#include "server_main.hpp"

int main(int argc, char** argv) { return everything::server_main(argc, argv); }
