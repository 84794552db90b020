#pragma once
// One MCP session over a server's stdin/stdout (newline-delimited JSON-RPC):
// requests may overlap (matched by id), notifications go to a callback. The
// cheap test for a notification line keeps the parser off the hot path.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

#include <boost/asio.hpp>

#include "rpc_session.hpp"

namespace cafmcp::load {

class stdio_session : public rpc_session {
public:
  /// Takes ownership of both descriptors.
  stdio_session(boost::asio::any_io_executor ex, int to_server, int from_server);

  /// Starts reading, then initialize + notifications/initialized.
  task<void> open(std::string client_name);
  task<nlohmann::json> call_text(std::string method, std::string params) override;
  void close() override;

  /// Each notification line as it arrives.
  std::function<void(std::string_view line)> on_notification;

private:
  struct waiter {
    explicit waiter(boost::asio::any_io_executor ex) : timer(ex) {}
    boost::asio::steady_timer timer;
    nlohmann::json reply;
    bool done = false;
  };
  task<void> read_loop();
  task<void> write_loop();
  void send_line(std::string line);
  void dispatch(std::string_view line);

  boost::asio::posix::stream_descriptor out_, in_;
  std::string inbuf_, outbox_;
  bool writing_ = false;
  bool closed_ = false;
  std::unordered_map<std::int64_t, waiter*> waiting_;
  std::int64_t next_id_ = 1;
};

} // namespace cafmcp::load
