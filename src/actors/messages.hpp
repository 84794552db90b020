#pragma once
// The message protocol between cafmcp's actors, as typed interfaces. Kept
// out of public headers: CAF is an implementation detail of cafmcp.
//
//   transport --inbound/close--> session --rpc/init/sub--> server
//   server --reply--> session             server --change/updated--> notifier
//   worker --reply/emit/ask--> session    notifier --frame--> outbound (direct)
//   server --run--> session (a quick handler: the session runs it)
//   a tools/call: served by its session from published_tools (no message)
//   while the session's copy of the tools is current; else rpc as above
//   clustered (cluster_node.hpp): server --publish--> log writer (a thread)
//   log reader (a thread) --logged--> server --mark, change/updated/resync--> notifier
//   notifier --restate/answered--> session (another node took what concerns it)
//   task actor (one per running task) --task--> notifier (2026-07-28 listen streams)
//   worker --settle/park/note/input--> task actor; server --update/cancel/result--> task actor
#include <atomic>
#include <cstdio>
#include <future>
#include <memory>
#include <string>

#include <caf/all.hpp>

#include "cafmcp/server.hpp"
#include "cafmcp/tracing.hpp"
#include "cafmcp/transport.hpp"

#include "protocol/change.hpp"
#include "protocol/dispatch.hpp"
#include "protocol/listen.hpp"
#include "protocol/log_record.hpp"
#include "protocol/mutation.hpp"
#include "protocol/session_record.hpp"
#include "protocol/task.hpp"

namespace cafmcp::actors {

using inbound_atom = caf::atom_constant<caf::atom("inbound")>;
using close_atom = caf::atom_constant<caf::atom("close")>;
using reply_atom = caf::atom_constant<caf::atom("reply")>;
using emit_atom = caf::atom_constant<caf::atom("emit")>;
using ask_atom = caf::atom_constant<caf::atom("ask")>;
using forget_atom = caf::atom_constant<caf::atom("forget")>;
using join_atom = caf::atom_constant<caf::atom("join")>;
using sub_atom = caf::atom_constant<caf::atom("sub")>;
using unsub_atom = caf::atom_constant<caf::atom("unsub")>;
using change_atom = caf::atom_constant<caf::atom("change")>;
using updated_atom = caf::atom_constant<caf::atom("updated")>;
using stats_atom = caf::atom_constant<caf::atom("stats")>;
using init_atom = caf::atom_constant<caf::atom("init")>;
using rpc_atom = caf::atom_constant<caf::atom("rpc")>;
using mutate_atom = caf::atom_constant<caf::atom("mutate")>;
using ready_atom = caf::atom_constant<caf::atom("ready")>;
using release_atom = caf::atom_constant<caf::atom("release")>;
using finish_atom = caf::atom_constant<caf::atom("finish")>;
using listen_atom = caf::atom_constant<caf::atom("listen")>;
using unlisten_atom = caf::atom_constant<caf::atom("unlisten")>;
using run_atom = caf::atom_constant<caf::atom("run")>;
using settle_atom = caf::atom_constant<caf::atom("settle")>;
using logged_atom = caf::atom_constant<caf::atom("logged")>;
using resync_atom = caf::atom_constant<caf::atom("resync")>;
using adopt_atom = caf::atom_constant<caf::atom("adopt")>;
using restate_atom = caf::atom_constant<caf::atom("restate")>;
using mark_atom = caf::atom_constant<caf::atom("mark")>;
using answered_atom = caf::atom_constant<caf::atom("answered")>;
using tell_atom = caf::atom_constant<caf::atom("tell")>;
using task_atom = caf::atom_constant<caf::atom("task")>;

/// Who sent a request, as the HTTP transport verified its token (null: no
/// verifier, or not over HTTP).
using caller_ptr = std::shared_ptr<const auth::identity>;
/// A 2026-07-28 HTTP request's `Mcp-Param-*` headers (SEP-2243).
using param_headers_ptr = std::shared_ptr<const std::map<std::string, std::string>>;

/// A session's subscriptions as the notifier indexes them: (uri or
/// template text, is a template).
using subscription_list = std::vector<std::pair<std::string, bool>>;

/// A server->client request made by a handler (sampling, elicitation...).
struct client_ask {
  std::string id; // JSON-RPC id we send, chosen by the worker
  std::string method;
  json params;
  std::shared_ptr<std::promise<protocol::outcome>> answer;
};

struct call;

/// One client connection's actor.
using session_actor = caf::typed_actor<
  caf::reacts_to<inbound_atom, std::string>,                     // from the transport
  caf::reacts_to<inbound_atom, jsonrpc::message>,                // the same, parsed (HTTP)
  caf::reacts_to<inbound_atom, jsonrpc::message, caller_ptr>,    // the same, from a verified caller
  caf::reacts_to<inbound_atom, jsonrpc::message, caller_ptr, param_headers_ptr>, // + Mcp-Param-* headers
  caf::reacts_to<close_atom>,                                    // transport gone / overflow
  caf::reacts_to<finish_atom>,                                   // input ended: drain, then close
  caf::reacts_to<reply_atom, std::string, protocol::outcome>,    // final answer to request key
  caf::reacts_to<emit_atom, std::string, frame>,                 // progress/log for request key
  caf::reacts_to<ask_atom, std::string, client_ask>,             // handler asks the client
  caf::reacts_to<restate_atom, std::vector<std::string>, int>,   // clustered: subscriptions, level
  caf::reacts_to<answered_atom, std::string, protocol::outcome>, // clustered: an answer another node took
  caf::reacts_to<forget_atom, std::string>,                      // handler stopped waiting
  caf::reacts_to<release_atom, std::string>,                     // stream of key may close
  caf::reacts_to<run_atom, call, protocol::job>,                 // a quick handler, run here
  caf::reacts_to<tell_atom, json>,                               // a message unrelated to any request (a task's status)
  caf::reacts_to<join_atom, int>>;                               // tell the notifier again (attempt)

/// What the notifier needs to deliver to a session without a hop through it.
struct session_link {
  session_actor handle;
  std::shared_ptr<outbound> out;
  std::string id;
};

/// Per-session facts a request carries to its worker.
struct session_env {
  session_actor session;
  std::string session_id;
  std::string protocol_version;
  json client_capabilities;
  std::shared_ptr<std::atomic<int>> log_level; // the session's current level
  // A 2026-07-28 request: client facts came from its `_meta`, and asking
  // the client means answering input_required (no server->client request).
  bool stateless = false;
  std::string owner; // the verified subject that initialized it (HTTP), or empty
};

/// One request forwarded by a session to the server actor.
struct call {
  std::string key; // jsonrpc::to_key of the id
  std::string method;
  json params;
  std::shared_ptr<const session_env> env;
  std::shared_ptr<std::atomic<bool>> cancelled;
  // Set by the server actor once it answered the call or handed it on (to a
  // worker, or back to its session): from then on its answer comes whatever
  // becomes of the server actor, and a handler may have acted already.
  std::shared_ptr<std::atomic<bool>> taken;
  trace_context trace; // the request span's context
  // Stateless multi-round-trip: the verified requestState of this retry
  // (null on a first round).
  json request_state;
  caller_ptr caller; // its scopes decide what it may list and use
  // Tasks: set by the server actor when this call may become a task
  // (request_context::continue_as_task), and the task's id once it is one.
  std::optional<protocol::task_plan> task_plan;
  std::string task_id;
  param_headers_ptr param_headers; // null: not over HTTP, or not 2026-07-28
};

/// A `subscriptions/listen` stream opened by a session (2026-07-28).
struct listen_request {
  session_link link;
  std::string key;                // the listen request's id as jsonrpc::to_key text
  protocol::listen_filter filter; // already the honoured subset
};

/// A registry mutation from the public API.
/// How a mutation's sender hears how it ended: once, with whether it
/// applied; through a future (server::add_tool(t)) or a callback
/// (server::add_tool(t, done)). Lost unsettled, with a message dropped by a
/// server actor between incarnations: the callback is told false, the
/// promise breaks (its future throws broken_promise, as documented).
class mutation_end {
public:
  explicit mutation_end(std::promise<bool> promised) : promised_(std::move(promised)), pending_(true) {}
  explicit mutation_end(std::function<void(bool)> told) : told_(std::move(told)), pending_(static_cast<bool>(told_)) {}
  ~mutation_end() {
    if (pending_ && told_)
      tell(false);
  }
  mutation_end(const mutation_end&) = delete;
  mutation_end& operator=(const mutation_end&) = delete;

  void settle(bool applied) {
    if (!pending_)
      return;
    pending_ = false;
    if (told_)
      tell(applied);
    else
      promised_.set_value(applied);
  }

private:
  // Settled from destructors (this one, a settlement's): an author's
  // callback that throws loses its own answer, and says so, rather than
  // ending the process.
  void tell(bool applied) noexcept {
    try {
      told_(applied);
    } catch (...) {
      std::fprintf(stderr, "cafmcp: a mutation's callback threw; ignored\n");
    }
  }

  std::promise<bool> promised_;
  std::function<void(bool)> told_;
  bool pending_;
};

struct mutation {
  std::string what; // e.g. "add_tool" (span name, logs)
  std::function<protocol::mutation_effect(protocol::registry&)> apply;
  std::shared_ptr<mutation_end> done;
  trace_context trace;
};

/// A mutation's end, settled with `applied` when the last holder lets go.
/// The notifier holds it until the mutation's notifications have been
/// handed to every session, so whoever waits on the future wakes after the
/// broadcast, not during it (on a small machine a woken waiter takes the
/// core the broadcast needs). A message dropped on the way (a notifier
/// being restarted) settles it all the same.
class settlement {
public:
  settlement(std::shared_ptr<mutation_end> done, bool applied) : done_(std::move(done)), applied_(applied) {}
  ~settlement() {
    if (done_)
      done_->settle(applied_);
  }
  settlement(const settlement&) = delete;
  settlement& operator=(const settlement&) = delete;

private:
  std::shared_ptr<mutation_end> done_;
  bool applied_;
};
/// What the notifier lets go of after the broadcasts before it: a
/// settlement, or any other token whose release is the signal (a cluster's
/// deferred answer to a session request).
using settlement_ptr = std::shared_ptr<void>;

/// One entry read back from a cluster's change log, in log order.
struct logged_change {
  protocol::log_record record;
  bool own = false;     // made by this node (its future settles now)
  bool history = false; // logged before this node started: replica only
  // 1, 2, ... in the order the reader hands them on: a gap means messages
  // were dropped on the way (a server actor between incarnations).
  std::uint64_t handed = 0;
  log_mark at; // its position in the log
};

/// The change notifier: sessions, the uri -> subscribers index, broadcasts.
using notifier_actor = caf::typed_actor<
  caf::replies_to<join_atom, session_link, bool>::with<bool>, // a session exists (true: operating)
  caf::replies_to<sub_atom, session_actor, std::string, bool> // uri, is_template
  ::with<protocol::outcome>,
  caf::replies_to<unsub_atom, session_actor, std::string>::with<protocol::outcome>,
  caf::reacts_to<change_atom, protocol::change, trace_context>,
  caf::reacts_to<updated_atom, std::string, trace_context>,
  caf::reacts_to<settle_atom, settlement_ptr>, // after the broadcasts before it
  // A mutation's last broadcast and its settlement in one message: nothing
  // of it follows, so the broadcast is delivered at once (routing::burst).
  caf::reacts_to<change_atom, protocol::change, trace_context, settlement_ptr>,
  caf::reacts_to<updated_atom, std::string, trace_context, settlement_ptr>,
  caf::reacts_to<resync_atom, trace_context>,                        // changes were lost: re-read all
  caf::reacts_to<mark_atom, log_mark>,                               // clustered: the entry told next
  caf::reacts_to<adopt_atom, session_link, subscription_list>,       // clustered: another node's session
  caf::reacts_to<restate_atom, std::string, subscription_list, int>, // its state changed elsewhere
  caf::reacts_to<answered_atom, std::string, std::string, protocol::outcome>, // session, ask id: for its
                                                                              // asker
  caf::reacts_to<close_atom, std::string>,      // clustered: the client ended it elsewhere
  caf::reacts_to<tell_atom, std::string, json>, // clustered: a message to one session
  caf::replies_to<listen_atom, listen_request>::with<protocol::outcome>, // acks on the stream
  caf::reacts_to<unlisten_atom, session_actor, std::string>,             // the stream ended
  caf::reacts_to<task_atom, std::string, json>, // a task moved: notifications/tasks to its listeners
  caf::replies_to<stats_atom>::with<server_stats>>;

/// The server actor: owns the registry.
using server_actor =
  caf::typed_actor<caf::replies_to<init_atom, std::string>::with<json>, // initialize result
                   caf::reacts_to<rpc_atom, call>,                      // answered by reply_atom
                   caf::replies_to<sub_atom, session_actor, std::string, caller_ptr> // uri, who asks
                   ::with<protocol::outcome>,
                   caf::reacts_to<mutate_atom, mutation>,
                   caf::reacts_to<updated_atom, std::string, trace_context>, // resource_updated(uri)
                   caf::reacts_to<logged_atom, logged_change>,               // from the cluster's log
                   caf::reacts_to<adopt_atom, session_link, protocol::session_record>>; // serve another
                                                                                        // node's session

} // namespace cafmcp::actors

CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafmcp::json)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafmcp::jsonrpc::message)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafmcp::frame)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafmcp::protocol::outcome)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafmcp::protocol::change)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafmcp::trace_context)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafmcp::server_stats)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafmcp::actors::client_ask)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafmcp::actors::session_link)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafmcp::actors::call)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafmcp::actors::param_headers_ptr)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafmcp::protocol::job)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafmcp::actors::listen_request)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafmcp::actors::mutation)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafmcp::actors::settlement_ptr)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafmcp::actors::logged_change)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafmcp::actors::subscription_list)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafmcp::protocol::session_record)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafmcp::log_mark)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafmcp::actors::caller_ptr)
