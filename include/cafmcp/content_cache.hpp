#pragma once
// The client's cache of fetched content (seed 000): what was read, got or
// called, by key, kept apart from the descriptor lists. The client fills it;
// users read it and may clear parts of it, nothing more: storing is
// protected, open only to the client's own cache_store (src/client).
// Thread-safe: users read from any thread while the client's own thread
// stores.
#include <functional>
#include <map>
#include <memory>
#include <shared_mutex>
#include <string>

#include "cafmcp/invocation.hpp"

namespace cafmcp {

class content_cache {
public:
  /// What changed, for the client's cached-content event: kind is
  /// "resource", "resource_template", "prompt" or "tool_call"; key is the
  /// uri, uriTemplate or name; stored is false for a removal.
  using change_listener = std::function<void(const std::string& kind, const std::string& key, bool stored)>;

  std::shared_ptr<const resource_read> resource(const std::string& uri) const;
  std::shared_ptr<const template_read> resource_template(const std::string& uri_template) const;
  std::shared_ptr<const prompt_get> prompt(const std::string& name) const;
  std::shared_ptr<const tool_call> tool_call_result(const std::string& name) const;

  void clear_resource(const std::string& uri);
  /// The resource and every template read whose expanded uri is `uri`: what
  /// `notifications/resources/updated` for `uri` makes stale.
  void clear_resource_and_templates(const std::string& uri);
  void clear_resource_template(const std::string& uri_template);
  void clear_prompt(const std::string& name);
  void clear_tool_call_result(const std::string& name);
  void clear_all();

  std::size_t size() const;

protected:
  content_cache() = default;
  ~content_cache() = default;
  content_cache(const content_cache&) = delete;
  content_cache& operator=(const content_cache&) = delete;

  // -- for the client ------------------------------------------------------
  void store(std::shared_ptr<const resource_read> r);
  void store(std::shared_ptr<const template_read> r);
  void store(std::shared_ptr<const prompt_get> r);
  void store(std::shared_ptr<const tool_call> r);
  void set_listener(change_listener l);

private:
  template <class Map, class Ptr>
  void put(Map& m, const std::string& key, Ptr r, const char* kind);
  template <class Map>
  void erase(Map& m, const std::string& key, const char* kind);
  void changed(const std::string& kind, const std::string& key, bool stored) const;

  mutable std::shared_mutex mtx_;
  std::map<std::string, std::shared_ptr<const resource_read>> resources_;
  std::map<std::string, std::shared_ptr<const template_read>> templates_;
  std::map<std::string, std::shared_ptr<const prompt_get>> prompts_;
  std::map<std::string, std::shared_ptr<const tool_call>> tool_calls_;
  change_listener listener_;
};

} // namespace cafmcp
