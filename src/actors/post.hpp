#pragma once
// Sending to an actor from code that does not know where it runs: a
// callback, a tool_reply, the server's mutation functions.
//
// caf::anon_send hands the receiver to the scheduler's round robin even
// when it is called on a CAF worker, inside one of our actors: on an idle
// machine that wakes the other, sleeping, worker (a futex wake-up and a
// context switch, 10-25 us here) for a message this worker would reach in
// a microsecond. An actor that runs author code which may send (a quick or
// asynchronous tool, a mutation's callback) opens a `running_here` scope
// around it; `post` then schedules the receiver on this same worker, after
// the current message, as the actor's own send would. Outside a scope it
// is anon_send. (stdio, one update_resource at a time: one thread, start to
// finish, after the line is read.)
#include <utility>

#include <caf/all.hpp>

namespace cafmcp::actors {

/// The worker an actor of ours is running on right now, on this thread.
caf::execution_unit*& current_unit();

/// While alive, `post` on this thread schedules on `self`'s worker.
class running_here {
public:
  explicit running_here(caf::local_actor* self) : saved_(current_unit()) { current_unit() = self->context(); }
  ~running_here() { current_unit() = saved_; }
  running_here(const running_here&) = delete;
  running_here& operator=(const running_here&) = delete;

private:
  caf::execution_unit* saved_;
};

/// anon_send, on this worker when a running_here scope is open.
template <class Handle, class... Ts>
void post(const Handle& dest, Ts&&... xs) {
  using token = caf::detail::type_list<caf::detail::strip_and_convert_t<Ts>...>;
  static_assert(caf::response_type_unbox<caf::signatures_of_t<Handle>, token>::valid,
                "receiver does not accept given message");
  if (dest)
    dest->eq_impl(caf::make_message_id(), nullptr, current_unit(), std::forward<Ts>(xs)...);
}

} // namespace cafmcp::actors
