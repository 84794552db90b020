// The store actor owns entries, LRU order and expiry timers; the public
// resource_store is the API in front of it (each call one request).
#include "cafmcp/resource_store.hpp"

#include <list>
#include <unordered_map>

#include "cafmcp/json_rpc.hpp"

#include "actors/server_access.hpp"
#include "foundation/base64.hpp"

namespace cafmcp {
namespace {

using put_atom = caf::atom_constant<caf::atom("st_put")>;
using remove_atom = caf::atom_constant<caf::atom("st_remove")>;
using get_atom = caf::atom_constant<caf::atom("st_get")>;
using ids_atom = caf::atom_constant<caf::atom("st_ids")>;
using expire_atom = caf::atom_constant<caf::atom("st_expire")>;

struct lookup {
  bool found = false;
  store_entry entry;
};

} // namespace
} // namespace cafmcp

CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafmcp::store_entry)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafmcp::lookup)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(std::vector<std::string>)

namespace cafmcp {
namespace {

using store_actor =
  caf::typed_actor<caf::replies_to<put_atom, store_entry>::with<bool>, // true: a new id
                   caf::replies_to<remove_atom, std::string>::with<bool>,
                   caf::replies_to<get_atom, std::string>::with<lookup>,      // refreshes LRU order
                   caf::replies_to<ids_atom>::with<std::vector<std::string>>, // newest first
                   caf::reacts_to<expire_atom, std::string, std::uint64_t>>;  // id, generation

bool valid_id(const std::string& id) {
  if (id.empty() || id.size() > 128)
    return false;
  for (char c : id)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '~' && c != '-')
      return false;
  return true;
}

std::string iso8601(std::chrono::system_clock::time_point t) {
  auto secs = std::chrono::system_clock::to_time_t(t);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[64]; // roomy enough that g++ sees no truncation
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count() % 1000;
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1,
                tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(ms));
  return buf;
}

struct slot {
  store_entry entry;
  std::chrono::steady_clock::time_point expires;
  std::uint64_t generation;
  std::list<std::string>::iterator lru; // front: most recently used
};

struct store_state {
  server* srv = nullptr;
  std::shared_ptr<const resource_store_options> opts;
  std::unordered_map<std::string, slot> slots;
  std::list<std::string> lru;
  std::uint64_t next_generation = 0;
};

std::chrono::steady_clock::time_point now_of(const resource_store_options& o) {
  return o.now ? o.now() : std::chrono::steady_clock::now();
}

std::string uri_of(const store_representation& rep, const std::string& id) {
  return uri_template(rep.uri_template).expand({{"id", id}});
}

// `id` by value: callers pass an element of st.lru, which this erases.
void unpublish(store_state& st, std::string id) {
  auto it = st.slots.find(id);
  if (it == st.slots.end())
    return;
  st.lru.erase(it->second.lru);
  st.slots.erase(it);
  st.srv->remove_resource(uri_of(st.opts->representations.front(), id)); // list_changed "removed"
}

} // namespace

struct resource_store::impl {
  server* srv;
  std::shared_ptr<const resource_store_options> opts;
  caf::actor_system* system;
  store_actor actor;

  template <class Result, class... Ts>
  Result ask(Ts&&... xs) {
    caf::scoped_actor self{*system};
    Result result{};
    self->request(actor, std::chrono::seconds(30), std::forward<Ts>(xs)...)
      .receive([&](Result& r) { result = std::move(r); },
               [&](caf::error& e) { throw std::runtime_error("resource_store: " + system->render(e)); });
    return result;
  }

  // What resources/list shows for an entry: newest first (smaller order
  // keys list first), with lastModified and size.
  resource listed(const store_entry& e, std::weak_ptr<impl> weak) const {
    const auto& rep = opts->representations.front();
    resource r;
    r.uri = uri_of(rep, e.id);
    r.name = e.id;
    if (!e.title.empty())
      r.title = e.title;
    r.description = e.description;
    r.mime_type = rep.mime_type.empty() ? e.mime_type : rep.mime_type;
    r.size = e.content.size();
    r.annotations = {{"lastModified", iso8601(e.stored_at)}};
    auto ns = static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(e.stored_at.time_since_epoch()).count());
    char key[24];
    std::snprintf(key, sizeof key, "%020llu", static_cast<unsigned long long>(UINT64_MAX - ns));
    r.list_order = key;
    r.reader = [weak, rep, id = e.id](const std::string& uri, request_context&) {
      auto self = weak.lock();
      auto found = self ? self->ask<lookup>(get_atom::value, id) : lookup{};
      if (!found.found)
        throw resource_not_found_error(uri);
      return std::vector<resource_contents>{rep.render(found.entry, uri)};
    };
    return r;
  }
};

namespace {

store_actor::behavior_type store_behavior(store_actor::stateful_pointer<store_state> self, server* srv,
                                          std::shared_ptr<const resource_store_options> opts,
                                          std::shared_ptr<resource_store::impl> owner) {
  self->state.srv = srv;
  self->state.opts = opts;
  std::weak_ptr<resource_store::impl> weak = owner;
  owner.reset(); // the store handle owns the actor, not the other way round
  return {
    [self, weak](put_atom, store_entry& e) -> bool {
      auto& st = self->state;
      auto owner = weak.lock();
      e.stored_at = std::chrono::system_clock::now();
      auto gen = ++st.next_generation;
      auto it = st.slots.find(e.id);
      bool existed = it != st.slots.end();
      if (existed)
        st.lru.erase(it->second.lru);
      st.lru.push_front(e.id);
      auto expires = now_of(*st.opts) + st.opts->ttl;
      auto id = e.id;
      auto listed = owner ? owner->listed(e, weak) : resource{};
      st.slots[id] = slot{std::move(e), expires, gen, st.lru.begin()};
      if (owner) {
        // Replacing the listed resource says list_changed "updated" and
        // resources/updated for it; the other representations changed too.
        st.srv->add_resource(std::move(listed));
        if (existed)
          for (std::size_t i = 1; i < st.opts->representations.size(); ++i)
            st.srv->resource_updated(uri_of(st.opts->representations[i], id));
      }
      self->delayed_send(self, st.opts->ttl, expire_atom::value, id, gen);
      while (st.slots.size() > st.opts->max_entries)
        unpublish(st, st.lru.back()); // least recently used first
      return !existed;
    },
    [self](remove_atom, std::string& id) -> bool {
      bool found = self->state.slots.count(id) > 0;
      unpublish(self->state, id);
      return found;
    },
    [self](get_atom, std::string& id) -> lookup {
      auto& st = self->state;
      auto it = st.slots.find(id);
      if (it == st.slots.end())
        return {};
      if (now_of(*st.opts) >= it->second.expires) {
        unpublish(st, id); // its timer is about to fire: never serve it late
        return {};
      }
      st.lru.splice(st.lru.begin(), st.lru, it->second.lru);
      return {true, it->second.entry};
    },
    [self](ids_atom) -> std::vector<std::string> {
      std::vector<std::pair<std::chrono::system_clock::time_point, std::string>> v;
      for (auto& [id, s] : self->state.slots)
        v.emplace_back(s.entry.stored_at, id);
      std::sort(v.begin(), v.end(), [](auto& a, auto& b) { return a.first > b.first; });
      std::vector<std::string> out;
      for (auto& [t, id] : v)
        out.push_back(id);
      return out;
    },
    [self](expire_atom, std::string& id, std::uint64_t gen) {
      auto it = self->state.slots.find(id);
      if (it != self->state.slots.end() && it->second.generation == gen)
        unpublish(self->state, id); // list_changed "removed", on time
    },
  };
}

} // namespace

store_representation store_representation::packet(std::string t) {
  return {std::move(t), "packet", "application/json", [](const store_entry& e, const std::string& uri) {
            json j = {{"id", e.id},
                      {"title", e.title},
                      {"mimeType", e.mime_type},
                      {"storedAt", iso8601(e.stored_at)},
                      {"size", e.content.size()}};
            if (e.description)
              j["description"] = *e.description;
            if (!e.data.is_null())
              j["data"] = e.data;
            if (!e.binary)
              j["content"] = e.content;
            return resource_contents::make_text(uri, jsonrpc::wire_text(j), "application/json");
          }};
}

store_representation store_representation::text(std::string t) {
  return {std::move(t), "content", "", [](const store_entry& e, const std::string& uri) {
            if (e.binary)
              return resource_contents::make_blob(uri, detail::base64_encode(e.content), e.mime_type);
            return resource_contents::make_text(uri, e.content, e.mime_type);
          }};
}

store_representation store_representation::blob(std::string t) {
  return {std::move(t), "blob", "", [](const store_entry& e, const std::string& uri) {
            return resource_contents::make_blob(uri, detail::base64_encode(e.content), e.mime_type);
          }};
}

resource_store::resource_store(server& srv, resource_store_options options)
  : impl_(std::make_shared<impl>()) {
  if (options.representations.empty())
    throw std::invalid_argument("resource_store needs at least one representation");
  for (auto& rep : options.representations) {
    uri_template t(rep.uri_template); // throws on a malformed template
    if (t.variable_names() != std::vector<std::string>{"id"})
      throw std::invalid_argument("a store representation's template takes exactly {id}: "
                                  + rep.uri_template);
  }
  impl_->srv = &srv;
  impl_->opts = std::make_shared<const resource_store_options>(std::move(options));
  impl_->system = server_access::of(srv).system.get();
  impl_->actor = impl_->system->spawn(store_behavior, &srv, impl_->opts, impl_);
  std::weak_ptr<impl> weak = impl_;
  // Reads of any representation go through the actor: a missing or expired
  // id is -32002; any other scheme or shape matches no template at all.
  for (auto& rep : impl_->opts->representations) {
    resource_template t;
    t.uri_template = rep.uri_template;
    t.name = rep.name;
    t.mime_type = rep.mime_type.empty() ? std::nullopt : std::optional<std::string>(rep.mime_type);
    t.reader = [weak, rep](const std::string& uri, request_context&) {
      auto vars = uri_template(rep.uri_template).match(uri);
      auto self = weak.lock();
      if (!vars || !self)
        throw resource_not_found_error(uri);
      auto found = self->ask<lookup>(get_atom::value, vars->at("id"));
      if (!found.found)
        throw resource_not_found_error(uri);
      return std::vector<resource_contents>{rep.render(found.entry, uri)};
    };
    srv.add_resource_template(std::move(t)).get();
  }
}

resource_store::~resource_store() { caf::anon_send_exit(impl_->actor, caf::exit_reason::user_shutdown); }

bool resource_store::put(store_entry entry) {
  if (!valid_id(entry.id))
    throw std::invalid_argument("store ids are one URI segment of [A-Za-z0-9._~-]: " + entry.id);
  return impl_->ask<bool>(put_atom::value, std::move(entry));
}

bool resource_store::remove(const std::string& id) { return impl_->ask<bool>(remove_atom::value, id); }

std::optional<store_entry> resource_store::get(const std::string& id) {
  auto r = impl_->ask<lookup>(get_atom::value, id);
  if (!r.found)
    return std::nullopt;
  return std::move(r.entry);
}

std::vector<std::string> resource_store::ids() {
  return impl_->ask<std::vector<std::string>>(ids_atom::value);
}

} // namespace cafmcp
