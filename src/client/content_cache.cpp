#include "cafmcp/content_cache.hpp"

#include <mutex>
#include <vector>

namespace cafmcp {
namespace {

template <class Map>
typename Map::mapped_type find(const Map& m, const std::string& key) {
  auto it = m.find(key);
  return it == m.end() ? nullptr : it->second;
}

} // namespace

std::shared_ptr<const resource_read> content_cache::resource(const std::string& uri) const {
  std::shared_lock g(mtx_);
  return find(resources_, uri);
}
std::shared_ptr<const template_read> content_cache::resource_template(const std::string& t) const {
  std::shared_lock g(mtx_);
  return find(templates_, t);
}
std::shared_ptr<const prompt_get> content_cache::prompt(const std::string& name) const {
  std::shared_lock g(mtx_);
  return find(prompts_, name);
}
std::shared_ptr<const tool_call> content_cache::tool_call_result(const std::string& name) const {
  std::shared_lock g(mtx_);
  return find(tool_calls_, name);
}

std::size_t content_cache::size() const {
  std::shared_lock g(mtx_);
  return resources_.size() + templates_.size() + prompts_.size() + tool_calls_.size();
}

// The listener runs after the lock is released: it may read the cache.
template <class Map>
void content_cache::erase(Map& m, const std::string& key, const char* kind) {
  bool erased;
  {
    std::unique_lock g(mtx_);
    erased = m.erase(key) > 0;
  }
  if (erased)
    changed(kind, key, false);
}

void content_cache::clear_resource(const std::string& uri) { erase(resources_, uri, "resource"); }
void content_cache::clear_resource_template(const std::string& t) {
  erase(templates_, t, "resource_template");
}
void content_cache::clear_prompt(const std::string& name) { erase(prompts_, name, "prompt"); }
void content_cache::clear_tool_call_result(const std::string& name) { erase(tool_calls_, name, "tool_call"); }

void content_cache::clear_resource_and_templates(const std::string& uri) {
  clear_resource(uri);
  std::vector<std::string> matching;
  {
    std::shared_lock g(mtx_);
    for (const auto& [t, read] : templates_)
      if (read->expanded_uri == uri)
        matching.push_back(t);
  }
  for (const auto& t : matching)
    clear_resource_template(t);
}

void content_cache::clear_all() {
  std::vector<std::pair<const char*, std::string>> gone;
  {
    std::unique_lock g(mtx_);
    for (auto& [k, v] : resources_)
      gone.emplace_back("resource", k);
    for (auto& [k, v] : templates_)
      gone.emplace_back("resource_template", k);
    for (auto& [k, v] : prompts_)
      gone.emplace_back("prompt", k);
    for (auto& [k, v] : tool_calls_)
      gone.emplace_back("tool_call", k);
    resources_.clear();
    templates_.clear();
    prompts_.clear();
    tool_calls_.clear();
  }
  for (auto& [kind, key] : gone)
    changed(kind, key, false);
}

template <class Map, class Ptr>
void content_cache::put(Map& m, const std::string& key, Ptr r, const char* kind) {
  {
    std::unique_lock g(mtx_);
    m[key] = std::move(r);
  }
  changed(kind, key, true);
}

void content_cache::store(std::shared_ptr<const resource_read> r) { put(resources_, r->uri, r, "resource"); }
void content_cache::store(std::shared_ptr<const template_read> r) {
  put(templates_, r->uri_template, r, "resource_template");
}
void content_cache::store(std::shared_ptr<const prompt_get> r) { put(prompts_, r->name, r, "prompt"); }
void content_cache::store(std::shared_ptr<const tool_call> r) { put(tool_calls_, r->name, r, "tool_call"); }

void content_cache::set_listener(change_listener l) {
  std::unique_lock g(mtx_);
  listener_ = std::move(l);
}

void content_cache::changed(const std::string& kind, const std::string& key, bool stored) const {
  change_listener l;
  {
    std::shared_lock g(mtx_);
    l = listener_;
  }
  if (l)
    l(kind, key, stored);
}

} // namespace cafmcp
