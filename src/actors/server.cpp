// cafmcp::server: the API module in front of the actors. Every method is a
// plain function that sends one message.
#include "cafmcp/server.hpp"

#include <mutex>
#include <vector>

#include "actors/current_trace.hpp"
#include "actors/loop_unit.hpp"
#include "actors/server_impl.hpp"
#include "actors/session.hpp"

namespace cafmcp {

namespace {

class session_connection : public connection {
public:
  session_connection(actors::session_actor h, std::string id) : handle_(std::move(h)), id_(std::move(id)) {}
  ~session_connection() override { close(); }
  void receive(std::string text) override { deliver(actors::inbound_atom::value, std::move(text)); }
  void receive(jsonrpc::message msg) override { deliver(actors::inbound_atom::value, std::move(msg)); }
  void receive(jsonrpc::message msg, std::shared_ptr<const auth::identity> who) override {
    deliver(actors::inbound_atom::value, std::move(msg), std::move(who));
  }
  void receive(jsonrpc::message msg, std::shared_ptr<const auth::identity> who,
               std::shared_ptr<const std::map<std::string, std::string>> param_headers) override {
    deliver(actors::inbound_atom::value, std::move(msg), std::move(who), std::move(param_headers));
  }
  void close() override { caf::anon_send(handle_, actors::close_atom::value); }
  void finish() override { caf::anon_send(handle_, actors::finish_atom::value); }
  const std::string& id() const override { return id_; }

private:
  template <class... Ts>
  void deliver(Ts&&... xs) {
    if (auto* unit = actors::loop_unit::here())
      handle_->eq_impl(caf::make_message_id(), nullptr, unit, std::forward<Ts>(xs)...);
    else
      caf::anon_send(handle_, std::forward<Ts>(xs)...);
  }

  actors::session_actor handle_;
  std::string id_;
};

} // namespace

std::shared_ptr<connection> server::impl::start_session(std::shared_ptr<outbound> out, std::string id,
                                                        bool named,
                                                        std::optional<protocol::session_record> adopted) {
  auto handle = system->spawn(actors::session_behavior, rt, std::move(out), id, named, std::move(adopted));
  return std::make_shared<session_connection>(std::move(handle), std::move(id));
}

server::server(server_options options) : impl_(std::make_unique<impl>(std::move(options))) {}

std::shared_ptr<void> server::run_actors_here(std::function<void(std::function<void()>)> post,
                                              post_from callers) {
  auto& cluster = impl_->rt->cluster;
  auto door = callers != post_from::this_thread ? std::make_shared<actors::loop_door>(post) : nullptr;
  // A loop that sleeps where its post cannot wake it takes only what it awaits.
  auto* announcer = callers == post_from::any_thread && cluster ? &cluster->announcer() : nullptr;
  auto* unit = new actors::loop_unit(*impl_->system, std::move(post), door);
  actors::loop_unit::here() = unit;
  if (announcer)
    announcer->offer(door);
  return std::shared_ptr<void>(unit, [announcer](void* p) {
    auto* unit = static_cast<actors::loop_unit*>(p);
    if (auto& door = unit->door()) {
      if (announcer)
        announcer->withdraw(door.get());
      door->close(); // a handler thread's answer goes through CAF's scheduler from now on
    }
    if (actors::loop_unit::here() == unit)
      actors::loop_unit::here() = nullptr;
    delete unit;
  });
}

bool server::posts_awaited(const std::shared_ptr<void>& actors_here) {
  auto* unit = static_cast<actors::loop_unit*>(actors_here.get());
  return unit && unit->door() && unit->door()->awaited();
}

server::~server() = default;

const server_options& server::options() const { return *impl_->options; }

namespace {

// What each mutation does to the registry, for the future and the
// callback forms alike.
using apply_fn = std::function<protocol::mutation_effect(protocol::registry&)>;

apply_fn adding_resource(resource r) {
  return [r = std::move(r)](protocol::registry& reg) mutable { return protocol::add_resource(reg, std::move(r)); };
}
apply_fn removing_resource(std::string uri) {
  return [uri = std::move(uri)](protocol::registry& reg) { return protocol::remove_resource(reg, uri); };
}
apply_fn setting_contents(std::string uri, std::vector<resource_contents> c) {
  return [uri = std::move(uri), c = std::move(c)](protocol::registry& reg) mutable {
    return protocol::set_resource_contents(reg, uri, std::move(c));
  };
}
apply_fn adding_template(resource_template t) {
  return [t = std::move(t)](protocol::registry& reg) mutable { return protocol::add_template(reg, std::move(t)); };
}
apply_fn removing_template(std::string uri_template) {
  return [u = std::move(uri_template)](protocol::registry& reg) { return protocol::remove_template(reg, u); };
}
apply_fn adding_tool(tool t) {
  return [t = std::move(t)](protocol::registry& reg) mutable { return protocol::add_tool(reg, std::move(t)); };
}
apply_fn removing_tool(std::string name) {
  return [n = std::move(name)](protocol::registry& reg) { return protocol::remove_tool(reg, n); };
}
apply_fn adding_prompt(prompt p) {
  return [p = std::move(p)](protocol::registry& reg) mutable { return protocol::add_prompt(reg, std::move(p)); };
}
apply_fn removing_prompt(std::string name) {
  return [n = std::move(name)](protocol::registry& reg) { return protocol::remove_prompt(reg, n); };
}

} // namespace

std::future<bool> server::add_resource(resource r) {
  return impl_->mutate("add_resource", adding_resource(std::move(r)));
}
std::future<bool> server::remove_resource(std::string uri) {
  return impl_->mutate("remove_resource", removing_resource(std::move(uri)));
}
std::future<bool> server::set_resource_contents(std::string uri, std::vector<resource_contents> c) {
  return impl_->mutate("set_resource_contents", setting_contents(std::move(uri), std::move(c)));
}
std::future<bool> server::add_resource_template(resource_template t) {
  return impl_->mutate("add_resource_template", adding_template(std::move(t)));
}
std::future<bool> server::remove_resource_template(std::string uri_template) {
  return impl_->mutate("remove_resource_template", removing_template(std::move(uri_template)));
}
std::future<bool> server::add_tool(tool t) { return impl_->mutate("add_tool", adding_tool(std::move(t))); }
std::future<bool> server::remove_tool(std::string name) {
  return impl_->mutate("remove_tool", removing_tool(std::move(name)));
}
std::future<bool> server::add_prompt(prompt p) { return impl_->mutate("add_prompt", adding_prompt(std::move(p))); }
std::future<bool> server::remove_prompt(std::string name) {
  return impl_->mutate("remove_prompt", removing_prompt(std::move(name)));
}

void server::add_resource(resource r, mutation_done done) {
  impl_->mutate("add_resource", adding_resource(std::move(r)), std::move(done));
}
void server::remove_resource(std::string uri, mutation_done done) {
  impl_->mutate("remove_resource", removing_resource(std::move(uri)), std::move(done));
}
void server::set_resource_contents(std::string uri, std::vector<resource_contents> c, mutation_done done) {
  impl_->mutate("set_resource_contents", setting_contents(std::move(uri), std::move(c)), std::move(done));
}
void server::add_resource_template(resource_template t, mutation_done done) {
  impl_->mutate("add_resource_template", adding_template(std::move(t)), std::move(done));
}
void server::remove_resource_template(std::string uri_template, mutation_done done) {
  impl_->mutate("remove_resource_template", removing_template(std::move(uri_template)), std::move(done));
}
void server::add_tool(tool t, mutation_done done) {
  impl_->mutate("add_tool", adding_tool(std::move(t)), std::move(done));
}
void server::remove_tool(std::string name, mutation_done done) {
  impl_->mutate("remove_tool", removing_tool(std::move(name)), std::move(done));
}
void server::add_prompt(prompt p, mutation_done done) {
  impl_->mutate("add_prompt", adding_prompt(std::move(p)), std::move(done));
}
void server::remove_prompt(std::string name, mutation_done done) {
  impl_->mutate("remove_prompt", removing_prompt(std::move(name)), std::move(done));
}

void server::resource_updated(std::string uri) {
  caf::anon_send(impl_->rt->server(), actors::updated_atom::value, std::move(uri), actors::current_trace());
}

std::shared_ptr<connection> server::connect(std::shared_ptr<outbound> out) {
  return impl_->start_session(std::move(out), "session-" + std::to_string(++impl_->rt->next_session), false,
                              std::nullopt);
}

std::shared_ptr<connection> server::connect(std::shared_ptr<outbound> out, std::string session_id) {
  return impl_->start_session(std::move(out), std::move(session_id), true, std::nullopt);
}

std::shared_ptr<connection> server::adopt(std::shared_ptr<outbound> out, const std::string& session_id,
                                          const auth::identity* caller) {
  auto& cluster = impl_->rt->cluster;
  if (!cluster)
    return nullptr;
  auto record = cluster->known_session(session_id);
  if (!record)
    return nullptr;
  if (caller && !record->owner.empty() && record->owner != caller->subject)
    return nullptr; // another subject's: as unknown to this caller as any
  return impl_->start_session(std::move(out), session_id, true, std::move(record));
}

void server::forget(const std::string& session_id) {
  if (auto& cluster = impl_->rt->cluster) {
    cluster->forget(session_id); // not adopted here again while its end is on the way to the log
    protocol::log_record r;
    r.session = protocol::log_record::session_note{session_id, std::nullopt};
    cluster->publish(std::move(r), nullptr);
  }
}

log_replay server::replay(const std::string& session_id, const log_mark& after) {
  log_replay out;
  auto& cluster = impl_->rt->cluster;
  if (!cluster)
    return out;
  auto r = cluster->replay(session_id, after);
  out.complete = r.complete;
  out.upto = r.upto;
  out.messages.reserve(r.told.size());
  for (auto& [mark, message] : r.told)
    out.messages.emplace_back(mark, std::make_shared<const std::string>(jsonrpc::wire_text(message)));
  return out;
}

log_mark server::log_now() const {
  auto& cluster = impl_->rt->cluster;
  return cluster ? cluster->notifying_now() : log_mark{};
}

std::shared_ptr<stream_claim> server::claim_stream(const std::string& session_id) {
  auto& cluster = impl_->rt->cluster;
  return cluster ? cluster->claim(session_id) : nullptr;
}

server_health server::health() const {
  if (auto& c = impl_->rt->cluster)
    if (auto problem = c->problem())
      return {false, *problem};
  return {};
}

server_stats server::stats() {
  caf::scoped_actor self{*impl_->system};
  server_stats result;
  self->request(impl_->rt->notifier(), std::chrono::seconds(10), actors::stats_atom::value)
    .receive([&](server_stats& s) { result = s; },
             [&](caf::error& e) { throw std::runtime_error("stats: " + impl_->system->render(e)); });
  if (auto& c = impl_->rt->cluster) {
    result.log_outbox = c->outbox();
    result.log_overflows = c->overflows();
  }
  return result;
}

} // namespace cafmcp
