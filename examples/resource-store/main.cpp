// resource-store-server: what a client stores with a tool becomes resources
// that expire (--ttl) or are evicted (--max-entries), and every change is
// announced with list_changed and operation metadata (seed 002).
#include <fstream>
#include <sstream>

#include <CLI/CLI.hpp>
#include <cafmcp/resource_store.hpp>

#include "server_flags.hpp"

using namespace cafmcp;

namespace {

tool make(std::string name, std::string description, json schema, tool_handler h) {
  tool t;
  t.name = std::move(name);
  t.description = std::move(description);
  t.input_schema = std::move(schema);
  t.handler = std::move(h);
  return t;
}

std::string next_id() {
  static std::atomic<int> n{0};
  return "entry-" + std::to_string(++n);
}

} // namespace

int main(int argc, char** argv) {
  CLI::App app{"A TTL/LRU store of resources, filled by tools"};
  examples::server_flags flags(app, "resource-store-server");
  long ttl_s = 300;
  std::size_t max_entries = 100, max_file = 1 << 20;
  app.add_option("--ttl", ttl_s, "seconds an entry lives")->check(CLI::PositiveNumber)->capture_default_str();
  app.add_option("--max-entries", max_entries, "entries kept (least recently used go first)")
    ->capture_default_str();
  app.add_option("--max-file-bytes", max_file, "largest file store_file accepts")->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  return flags.run([&] {
    server_options opts;
    opts.name = "resource-store-server";
    opts.tools = opts.resources = capability_mode::on;
    flags.apply(opts);
    server srv(opts);
    resource_store_options store_opts;
    store_opts.ttl = std::chrono::seconds(ttl_s);
    store_opts.max_entries = max_entries;
    store_opts.representations = {store_representation::packet("store://packet/{id}"),
                                  store_representation::text("store://content/{id}"),
                                  store_representation::blob("store://blob/{id}")};
    resource_store store(srv, store_opts);

    json text_schema = {{"type", "object"},
                        {"properties",
                         {{"id", {{"type", "string"}}},
                          {"title", {{"type", "string"}}},
                          {"text", {{"type", "string"}}},
                          {"mimeType", {{"type", "string"}}}}},
                        {"required", {"title", "text"}}};
    srv.add_tool(make("store_text", "Stores a text entry; it becomes store://{packet,content,blob}/{id}",
                      text_schema, [&store](const json& a, request_context&) {
                        store_entry e;
                        e.id = a.value("id", next_id());
                        e.title = a["title"];
                        e.content = a["text"];
                        e.mime_type = a.value("mimeType", "text/markdown");
                        try {
                          bool fresh = store.put(e);
                          return tool_result::text((fresh ? "stored " : "replaced ") + e.id);
                        } catch (const std::invalid_argument& ex) {
                          return tool_result::error(ex.what());
                        }
                      }));
    json file_schema = {
      {"type", "object"}, {"properties", {{"path", {{"type", "string"}}}}}, {"required", {"path"}}};
    srv.add_tool(make("store_file", "Stores a local file (size-limited) as a binary entry", file_schema,
                      [&store, max_file](const json& a, request_context&) {
                        std::string path = a["path"];
                        std::ifstream in(path, std::ios::binary);
                        if (!in)
                          return tool_result::error("cannot open " + path);
                        std::ostringstream buf;
                        buf << in.rdbuf();
                        if (buf.str().size() > max_file)
                          return tool_result::error("file larger than " + std::to_string(max_file)
                                                    + " bytes");
                        store_entry e;
                        e.id = next_id();
                        e.title = path.substr(path.find_last_of('/') + 1);
                        e.content = buf.str();
                        e.binary = true;
                        e.mime_type = "application/octet-stream";
                        store.put(e);
                        return tool_result::text("stored " + e.id);
                      }));
    return flags.serve(srv);
  });
}
