#pragma once
#include <memory>
#include <string>

#include "mcp_http.hpp"
#include "mcp_stdio.hpp"

namespace cafmcp::load {

/// Opens client sessions: a new Streamable HTTP session each time, or the
/// one stdio session (stdio carries exactly one; requests share it).
struct connector {
  const endpoint* ep = nullptr;
  std::shared_ptr<stdio_session> stdio;

  task<std::shared_ptr<rpc_session>> open(std::string name) {
    if (stdio)
      co_return stdio;
    auto ex = co_await boost::asio::this_coro::executor;
    auto s = std::make_shared<mcp_session>(ex, *ep);
    co_await s->open(name);
    co_return s;
  }
  /// A session this run no longer needs (the stdio one ends with the run).
  void done_with(rpc_session& s) {
    if (!stdio)
      s.close();
  }
  void finish() {
    if (stdio)
      stdio->close(); // ends its reader, so the event loop can return
  }
};

} // namespace cafmcp::load
