#include "cafmcp/in_process_client_transport.hpp"

#include <mutex>

namespace cafmcp {
namespace {

// Frames arrive on actor threads and go straight to the client's handler,
// which only queues them.
struct to_client : outbound {
  std::mutex mtx;
  client_transport::handlers h;
  bool closed = false;

  bool send(frame message, const routing&) override {
    std::lock_guard<std::mutex> g(mtx);
    if (closed)
      return false;
    if (h.on_message)
      h.on_message(*message);
    return true;
  }
  void close() override { end("closed by the server"); }
  void end(const std::string& reason) {
    std::lock_guard<std::mutex> g(mtx);
    if (closed)
      return;
    closed = true;
    if (h.on_closed)
      h.on_closed(reason);
  }
};

class in_process_client_transport : public client_transport {
public:
  explicit in_process_client_transport(server& srv)
    : out_(std::make_shared<to_client>()), conn_(srv.connect(out_)) {}
  ~in_process_client_transport() override { close(); }

  void start(handlers h) override {
    std::lock_guard<std::mutex> g(out_->mtx);
    out_->h = std::move(h);
  }
  bool send(std::string text) override {
    {
      std::lock_guard<std::mutex> g(out_->mtx);
      if (out_->closed)
        return false;
    }
    conn_->receive(std::move(text));
    return true;
  }
  void close() override {
    conn_->close();
    out_->end("closed by the client");
  }

private:
  std::shared_ptr<to_client> out_;
  std::shared_ptr<connection> conn_;
};

} // namespace

std::unique_ptr<client_transport> make_in_process_client_transport(server& srv) {
  return std::make_unique<in_process_client_transport>(srv);
}

} // namespace cafmcp
