#pragma once
// A client_transport in front of a real one, for tests that stand between
// the client and the server: what the client sends goes through (send may
// be overridden), what the server sends passes inbound() first.
#include <memory>
#include <string>

#include "cafmcp/client_transport.hpp"

namespace cafmcp::test {

class relay_transport : public client_transport {
public:
  explicit relay_transport(std::unique_ptr<client_transport> real) : real_(std::move(real)) {}

  void start(handlers h) override {
    up_ = std::move(h);
    real_->start({[this](std::string text) { inbound(std::move(text)); },
                  [this](std::string reason) { up_.on_closed(std::move(reason)); }});
  }
  bool send(std::string text) override { return real_->send(std::move(text)); }
  void negotiated(const std::string& v) override { real_->negotiated(v); }
  void close() override { real_->close(); }

protected:
  /// One message from the server; the default hands it on.
  virtual void inbound(std::string text) { up_.on_message(std::move(text)); }
  /// The real transport's threads call inbound(), which uses the derived
  /// class's members: its destructor calls this first.
  void stop_relay() { real_.reset(); }

  std::unique_ptr<client_transport> real_;
  handlers up_;
};

} // namespace cafmcp::test
