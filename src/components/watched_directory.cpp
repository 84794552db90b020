// One watcher thread per directory: it reads inotify, coalesces bursts per
// note, and tells the server through its public API (each call one
// message). Readers, on workers, read the files themselves and consult the
// note index under a lock of this component's own.
#include "cafmcp/watched_directory.hpp"

#include <cctype>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>
#include <unordered_map>

#include <poll.h>
#include <sys/inotify.h>
#include <unistd.h>

#include "cafmcp/json_rpc.hpp"

#include "foundation/percent_encoding.hpp"

namespace cafmcp {

namespace fs = std::filesystem;

namespace {

struct note_info {
  fs::file_time_type mtime;
  std::uintmax_t size = 0;
  std::set<std::string> tags;
};

bool is_tag_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '/'
         || c == '-';
}

// "#tag" at the start of the text or after white space. A scan, not
// std::regex: that recursed once per character of a tag, so a file holding
// "#" and a megabyte of letters overflowed the stack and took the server down.
std::set<std::string> tags_of(const std::string& text) {
  std::set<std::string> out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '#' || (i > 0 && !std::isspace(static_cast<unsigned char>(text[i - 1]))))
      continue;
    std::size_t end = i + 1;
    while (end < text.size() && is_tag_char(text[end]))
      ++end;
    if (end > i + 1)
      out.insert(text.substr(i + 1, end - i - 1));
    i = end - 1;
  }
  return out;
}

std::optional<std::string> read_file(const fs::path& p, std::size_t max) {
  std::error_code ec;
  auto size = fs::file_size(p, ec);
  if (ec || size > max)
    return std::nullopt;
  std::ifstream in(p, std::ios::binary);
  if (!in)
    return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

} // namespace

struct watched_directory::impl {
  server& srv;
  watched_directory_options opts;
  fs::path root; // canonical
  int inotify = -1;
  int wake[2] = {-1, -1};
  std::thread watcher;
  std::unordered_map<int, std::string> dirs; // watch descriptor -> relative dir ("" = root)
  std::mutex mtx;                            // guards notes: readers run on workers
  std::map<std::string, note_info> notes;    // relative path -> facts

  impl(server& s, watched_directory_options o) : srv(s), opts(std::move(o)) {}

  std::string uri(const std::string& what) const { return opts.scheme + "://" + what; }
  // Read back through the note/{+path} template, which decodes it.
  std::string note_uri(const std::string& rel) const {
    return uri("note/" + detail::percent_encode_path(rel));
  }

  // A relative path that stays inside the root, even through symlinks.
  std::optional<fs::path> inside(const std::string& rel) const {
    if (rel.empty() || rel.front() == '/')
      return std::nullopt;
    std::error_code ec;
    auto full = fs::weakly_canonical(root / rel, ec);
    if (ec)
      return std::nullopt;
    auto r = full.lexically_relative(root);
    if (r.empty() || *r.begin() == "..")
      return std::nullopt;
    return full;
  }

  bool is_note(const std::string& rel) const {
    auto full = inside(rel);
    std::error_code ec;
    return full && fs::is_regular_file(*full, ec) && full->extension() == opts.extension;
  }

  resource note_resource(const std::string& rel) {
    resource r;
    r.uri = note_uri(rel);
    r.name = rel;
    r.mime_type = "text/markdown";
    auto self = this;
    r.reader = [self, rel](const std::string& u, request_context&) {
      return std::vector<resource_contents>{self->read_note(rel, u)};
    };
    return r;
  }

  resource_contents read_note(const std::string& rel, const std::string& u) {
    auto full = inside(rel);
    if (!full || full->extension() != opts.extension)
      throw resource_not_found_error(u); // outside the vault: as if absent
    auto text = read_file(*full, opts.max_note_bytes);
    if (!text)
      throw resource_not_found_error(u);
    return resource_contents::make_text(u, *text, "text/markdown");
  }

  void add_watch(const std::string& rel_dir) {
    auto full = rel_dir.empty() ? root : root / rel_dir;
    int wd = inotify_add_watch(inotify, full.c_str(),
                               IN_CREATE | IN_CLOSE_WRITE | IN_MODIFY | IN_DELETE | IN_MOVED_FROM
                                 | IN_MOVED_TO | IN_DELETE_SELF | IN_ONLYDIR);
    if (wd >= 0)
      dirs[wd] = rel_dir;
  }

  // Watches `rel_dir` and everything below; returns the notes found.
  std::vector<std::string> scan(const std::string& rel_dir) {
    std::vector<std::string> found;
    add_watch(rel_dir);
    std::error_code ec;
    auto start = rel_dir.empty() ? root : root / rel_dir;
    for (auto it = fs::recursive_directory_iterator(start, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      auto rel = it->path().lexically_relative(root).string();
      if (it->is_directory(ec) && !it->is_symlink(ec))
        add_watch(rel);
      else if (is_note(rel))
        found.push_back(rel);
    }
    return found;
  }

  // Applies what the file system now says about one path, and tells
  // exactly the subscribers it concerns.
  void settle(const std::string& rel) {
    bool exists = is_note(rel);
    bool known, tags_changed = false;
    {
      std::lock_guard<std::mutex> g(mtx);
      auto it = notes.find(rel);
      known = it != notes.end();
      if (exists) {
        auto full = *inside(rel);
        std::error_code ec;
        note_info info{fs::last_write_time(full, ec), fs::file_size(full, ec), {}};
        if (auto text = read_file(full, opts.max_note_bytes))
          info.tags = tags_of(*text);
        tags_changed = !known ? !info.tags.empty() : info.tags != it->second.tags;
        notes[rel] = std::move(info);
      } else if (known) {
        tags_changed = !it->second.tags.empty();
        notes.erase(it);
      }
    }
    if (exists && !known)
      srv.add_resource(note_resource(rel)); // list_changed "added"
    else if (exists)
      srv.resource_updated(note_uri(rel));
    else if (known)
      srv.remove_resource(note_uri(rel)); // list_changed "removed"
    else
      return;
    srv.resource_updated(uri("recent"));
    srv.resource_updated(uri("stats"));
    if (tags_changed)
      srv.resource_updated(uri("tags"));
  }

  void forget_below(const std::string& rel_dir) {
    std::vector<std::string> gone;
    {
      std::lock_guard<std::mutex> g(mtx);
      for (auto& [rel, info] : notes)
        if (rel.rfind(rel_dir + "/", 0) == 0)
          gone.push_back(rel);
    }
    for (auto& rel : gone)
      settle(rel);
  }

  // A directory that left the vault (deleted, or moved out or elsewhere):
  // its watches and those below go. A tree moved out keeps its inotify
  // watches, and its writes would otherwise pass for the vault's own under
  // the old paths.
  void unwatch_below(const std::string& rel_dir) {
    for (auto it = dirs.begin(); it != dirs.end();)
      if (it->second == rel_dir || it->second.rfind(rel_dir + "/", 0) == 0) {
        inotify_rm_watch(inotify, it->first); // a deleted one is gone already: harmless
        it = dirs.erase(it);
      } else {
        ++it;
      }
  }

  void run() {
    std::map<std::string, std::chrono::steady_clock::time_point> pending; // coalescing
    alignas(inotify_event) char buf[64 * 1024];
    for (;;) {
      int timeout = -1;
      if (!pending.empty()) {
        auto next = std::min_element(pending.begin(), pending.end(), [](auto& a, auto& b) {
                      return a.second < b.second;
                    })->second;
        timeout = static_cast<int>(std::max<long long>(
          0, std::chrono::duration_cast<std::chrono::milliseconds>(next - std::chrono::steady_clock::now())
               .count()));
      }
      pollfd fds[2] = {{inotify, POLLIN, 0}, {wake[0], POLLIN, 0}};
      ::poll(fds, 2, timeout);
      if (fds[1].revents)
        return;
      if (fds[0].revents & POLLIN) {
        auto n = ::read(inotify, buf, sizeof buf);
        for (char* p = buf; n > 0 && p < buf + n;) {
          auto* ev = reinterpret_cast<inotify_event*>(p);
          p += sizeof(inotify_event) + ev->len;
          auto dir = dirs.find(ev->wd);
          if (dir == dirs.end() || ev->len == 0)
            continue;
          auto rel = dir->second.empty() ? std::string(ev->name) : dir->second + "/" + ev->name;
          if (ev->mask & IN_ISDIR) {
            if (ev->mask & (IN_CREATE | IN_MOVED_TO))
              for (auto& note : scan(rel)) // files may land before the watch does
                pending[note] = std::chrono::steady_clock::now() + opts.coalesce_window;
            if (ev->mask & (IN_DELETE | IN_MOVED_FROM)) {
              unwatch_below(rel);
              forget_below(rel);
            }
            continue;
          }
          // Every event for a note pushes its deadline: one update per burst.
          pending[rel] = std::chrono::steady_clock::now() + opts.coalesce_window;
        }
      }
      auto now = std::chrono::steady_clock::now();
      for (auto it = pending.begin(); it != pending.end();)
        if (it->second <= now) {
          settle(it->first);
          it = pending.erase(it);
        } else {
          ++it;
        }
    }
  }

  json recent() {
    std::vector<std::pair<fs::file_time_type, std::string>> v;
    {
      std::lock_guard<std::mutex> g(mtx);
      for (auto& [rel, info] : notes)
        v.emplace_back(info.mtime, rel);
    }
    std::sort(v.begin(), v.end(), [](auto& a, auto& b) { return a.first > b.first; });
    json out = json::array();
    for (std::size_t i = 0; i < v.size() && i < opts.recent_count; ++i)
      out.push_back({{"uri", note_uri(v[i].second)}, {"path", v[i].second}});
    return out;
  }

  json stats() {
    std::lock_guard<std::mutex> g(mtx);
    std::uintmax_t bytes = 0;
    for (auto& [rel, info] : notes)
      bytes += info.size;
    return {{"notes", notes.size()}, {"bytes", bytes}};
  }

  json tags() {
    std::lock_guard<std::mutex> g(mtx);
    std::map<std::string, int> counts;
    for (auto& [rel, info] : notes)
      for (auto& t : info.tags)
        ++counts[t];
    return counts;
  }

  void derived(const std::string& what, std::function<json()> compute, const std::string& description) {
    resource r;
    r.uri = uri(what);
    r.name = what;
    r.description = description;
    r.mime_type = "application/json";
    r.reader = [compute](const std::string& u, request_context&) {
      return std::vector<resource_contents>{
        resource_contents::make_text(u, jsonrpc::wire_text(compute()), "application/json")};
    };
    srv.add_resource(std::move(r)).get();
  }
};

watched_directory::watched_directory(server& srv, watched_directory_options options)
  : impl_(std::make_unique<impl>(srv, std::move(options))) {
  auto& d = *impl_;
  d.root = fs::canonical(d.opts.root); // throws when missing
  d.inotify = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
  if (d.inotify < 0 || ::pipe(d.wake) != 0)
    throw std::system_error(errno, std::generic_category(), "inotify");
  for (auto& rel : d.scan("")) {
    d.settle(rel);
  }
  auto* self = impl_.get();
  d.derived(
    "recent", [self] { return self->recent(); }, "The most recently modified notes");
  d.derived(
    "stats", [self] { return self->stats(); }, "How many notes, how many bytes");
  d.derived(
    "tags", [self] { return self->tags(); }, "Every #tag with the number of notes using it");
  resource_template t;
  t.uri_template = d.uri("note/{+path}");
  t.name = "note";
  t.mime_type = "text/markdown";
  t.reader = [self](const std::string& u, request_context&) {
    auto vars = uri_template(self->uri("note/{+path}")).match(u);
    if (!vars)
      throw resource_not_found_error(u);
    return std::vector<resource_contents>{self->read_note(vars->at("path"), u)};
  };
  t.completions["path"] = [self](const std::string& partial, const std::map<std::string, std::string>&) {
    std::lock_guard<std::mutex> g(self->mtx);
    std::vector<std::string> out;
    for (auto& [rel, info] : self->notes)
      if (rel.rfind(partial, 0) == 0)
        out.push_back(rel);
    return out;
  };
  srv.add_resource_template(std::move(t)).get();
  d.watcher = std::thread([self] { self->run(); });
}

watched_directory::~watched_directory() {
  auto& d = *impl_;
  if (d.wake[1] >= 0) {
    char c = 1;
    [[maybe_unused]] auto n = ::write(d.wake[1], &c, 1);
  }
  if (d.watcher.joinable())
    d.watcher.join();
  for (int fd : {d.inotify, d.wake[0], d.wake[1]})
    if (fd >= 0)
      ::close(fd);
}

} // namespace cafmcp
