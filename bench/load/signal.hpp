#pragma once
// A wake-up for coroutines on one event loop, with a deadline.
#include <chrono>

#include <boost/asio.hpp>

#include "rpc_session.hpp"

namespace cafmcp::load {

/// Wakes coroutines waiting on it; one timer per waiter (a timer's expiry
/// change would cancel the other waiters).
struct signal {
  using clock_type = std::chrono::steady_clock;
  explicit signal(boost::asio::any_io_executor ex) : timer(ex) {}
  boost::asio::steady_timer timer;
  task<void> wait_until(clock_type::time_point t) {
    timer.expires_at(t);
    co_await timer.async_wait(boost::asio::as_tuple(boost::asio::use_awaitable));
  }
  void notify() { timer.cancel(); }
};

} // namespace cafmcp::load
