#pragma once
// What a server or client throws when it cannot start: one line that names
// the cause ("cannot listen on 127.0.0.1:8080: address already in use"),
// for a binary to print and exit with, never an abort.
#include <stdexcept>
#include <string>

namespace cafmcp {

class startup_error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

} // namespace cafmcp
