#include <atomic>
#include <utility>

#include "cafmcp/tool.hpp"

namespace cafmcp {

// Shared by a reply's copies. The first answer wins; if the last copy goes
// without one, the request is answered with a tool error all the same.
struct tool_reply::once {
  explicit once(std::function<void(tool_result)> d) : deliver(std::move(d)) {}
  ~once() {
    if (answered.exchange(true))
      return;
    try {
      deliver(tool_result::error("The tool ended without answering (its reply was dropped)"));
    } catch (...) { // out of memory, in a destructor: the session's drain deadline answers
    }
  }
  std::function<void(tool_result)> deliver;
  std::atomic<bool> answered{false};
};

tool_reply::tool_reply(std::function<void(tool_result)> deliver)
  : once_(std::make_shared<once>(std::move(deliver))) {}

void tool_reply::operator()(tool_result result) const {
  if (!once_->answered.exchange(true))
    once_->deliver(std::move(result));
}

} // namespace cafmcp
