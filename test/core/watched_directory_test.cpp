// The watched vault with real files, real inotify and real sessions.
#include <filesystem>
#include <fstream>
#include <set>

#include "cafmcp/watched_directory.hpp"

#include "support.hpp"

namespace cafmcp::test {
namespace {

namespace fs = std::filesystem;
const std::string list_changed = "notifications/resources/list_changed";
const std::string updated = "notifications/resources/updated";

struct Vault : ::testing::Test {
  fs::path root;
  fs::path outside;
  void SetUp() override {
    char tmpl[] = "/tmp/cafmcp-vault-XXXXXX";
    root = ::mkdtemp(tmpl);
    char tmpl2[] = "/tmp/cafmcp-outside-XXXXXX";
    outside = ::mkdtemp(tmpl2);
    write("welcome.md", "# Welcome #start");
  }
  void TearDown() override {
    fs::remove_all(root);
    fs::remove_all(outside);
  }
  void write(const std::string& rel, const std::string& text) {
    fs::create_directories((root / rel).parent_path());
    std::ofstream(root / rel) << text;
  }
  server_options opts() {
    auto o = all_on();
    // seed 004's whitelist: notes and the derived resources, nothing else
    o.subscribable = [](std::string_view uri) { return uri.rfind("vault://", 0) == 0; };
    return o;
  }
  std::optional<json> op(in_process_client& c, const std::string& operation, const std::string& uri) {
    return c.wait_for([&](const json& m) {
      return is_method(m, list_changed) && m["params"]["operation"] == operation && m["params"]["uri"] == uri;
    });
  }
  std::optional<json> update_of(in_process_client& c, const std::string& uri) {
    return c.wait_for([&](const json& m) { return is_method(m, updated) && m["params"]["uri"] == uri; });
  }
};

TEST_F(Vault, ExistingNotesAreListedAndReadable) {
  server srv(opts());
  watched_directory vault(srv, {root});
  in_process_client c(srv);
  c.initialize();
  auto read = c.request("resources/read", {{"uri", "vault://note/welcome.md"}});
  EXPECT_EQ(read["result"]["contents"][0]["text"], "# Welcome #start");
  auto tags = c.request("resources/read", {{"uri", "vault://tags"}});
  EXPECT_EQ(json::parse(tags["result"]["contents"][0]["text"].get<std::string>())["start"], 1);
}

TEST_F(Vault, CreatingAndDeletingNotesSendListChanged) {
  server srv(opts());
  watched_directory vault(srv, {root});
  in_process_client c(srv);
  c.initialize();
  write("sub/dir/new.md", "fresh"); // a new subdirectory is watched too
  auto added = op(c, "added", "vault://note/sub/dir/new.md");
  ASSERT_TRUE(added);
  EXPECT_EQ((*added)["params"]["resource"]["mimeType"], "text/markdown");
  fs::remove(root / "sub/dir/new.md");
  EXPECT_TRUE(op(c, "removed", "vault://note/sub/dir/new.md"));
}

// File names are bytes, not UTF-8: a note named with invalid UTF-8 must
// not stop the notifier (serializing it threw) or the sessions' lists.
// Tags were found with std::regex, which recursed once per character of a
// tag: a note holding "#" and half a megabyte of letters overflowed the
// stack. They are read by a scan now, by the same rule: "#" at the start or
// after white space, then letters, digits, '_', '/' and '-'.
TEST_F(Vault, ALongTagIsReadWithoutExhaustingTheStack) {
  const std::string long_tag(512 * 1024, 'a');
  write("big.md", "#" + long_tag + " text#not #ok\n#a/b-c_1, ##no #");
  server srv(opts());
  watched_directory vault(srv, {root});
  in_process_client c(srv);
  c.initialize();
  auto tags = c.request("resources/read", {{"uri", "vault://tags"}});
  ASSERT_TRUE(tags.contains("result")) << tags.dump().substr(0, 300);
  auto counted = json::parse(tags["result"]["contents"][0]["text"].get<std::string>());
  std::set<std::string> names;
  for (auto& [name, n] : counted.items())
    names.insert(name);
  EXPECT_EQ(names, (std::set<std::string>{"start", "ok", "a/b-c_1", long_tag}));
}

TEST_F(Vault, ANoteNamedWithInvalidUtf8BreaksNothing) {
  server srv(opts());
  watched_directory vault(srv, {root});
  in_process_client c(srv);
  c.initialize();
  write("bad\xff\xfe.md", "x");
  write("after.md", "y");
  // Both, in either order: a scan may find after.md first.
  EXPECT_TRUE(op(c, "added", "vault://note/after.md"));
  EXPECT_TRUE(op(c, "added", "vault://note/bad%FF%FE.md"));
  auto list = c.request("resources/list", json::object());
  ASSERT_TRUE(list.contains("result")) << list.dump(-1, ' ', false, json::error_handler_t::replace);
  std::set<std::string> uris;
  for (auto& r : list["result"]["resources"])
    uris.insert(r["uri"].get<std::string>());
  // Its bytes are percent-encoded: a valid URI that reads the note back.
  EXPECT_TRUE(uris.count("vault://note/bad%FF%FE.md"));
  auto read = c.request("resources/read", {{"uri", "vault://note/bad%FF%FE.md"}});
  EXPECT_EQ(read["result"]["contents"][0]["text"], "x");
}

// A file name is not a URI: a space, '#', '%' and non-ASCII letters are
// percent-encoded (RFC 3986), and the URI reads the note back.
TEST_F(Vault, NoteUrisArePercentEncodedAndReadBack) {
  server srv(opts());
  watched_directory vault(srv, {root});
  in_process_client c(srv);
  c.initialize();
  write("a dir/caf\xc3\xa9 #1 100%.md", "encoded");
  const std::string uri = "vault://note/a%20dir/caf%C3%A9%20%231%20100%25.md";
  ASSERT_TRUE(op(c, "added", uri));
  auto read = c.request("resources/read", {{"uri", uri}});
  EXPECT_EQ(read["result"]["contents"][0]["text"], "encoded");
  EXPECT_EQ(read["result"]["contents"][0]["uri"], uri);
}

TEST_F(Vault, RenamesAreARemovalAndAnAddition) {
  server srv(opts());
  watched_directory vault(srv, {root});
  in_process_client c(srv);
  c.initialize();
  fs::rename(root / "welcome.md", root / "hello.md");
  EXPECT_TRUE(op(c, "removed", "vault://note/welcome.md"));
  EXPECT_TRUE(op(c, "added", "vault://note/hello.md"));
}

TEST_F(Vault, ABurstOfWritesIsOneUpdateToSubscribersOfTheNoteAndWhatItAffects) {
  server srv(opts());
  // The burst must fit the window (no pause between two writes as long as
  // it): a second, not 150 ms, so a busy machine descheduling the writer
  // cannot split it. The update still comes well within the waits below.
  watched_directory vault(srv, {root, "vault", ".md", std::chrono::seconds(1)});
  in_process_client subscriber(srv), other(srv);
  subscriber.initialize();
  other.initialize();
  for (auto uri : {"vault://note/welcome.md", "vault://recent", "vault://tags"})
    ASSERT_TRUE(subscriber.request("resources/subscribe", {{"uri", uri}}).contains("result")) << uri;
  for (int i = 0; i < 20; ++i)
    write("welcome.md", "# Welcome #start #edited " + std::to_string(i));
  ASSERT_TRUE(update_of(subscriber, "vault://note/welcome.md"));
  EXPECT_TRUE(update_of(subscriber, "vault://recent"));
  EXPECT_TRUE(update_of(subscriber, "vault://tags")); // the tags changed
  // A later change from the same watcher: once it is here, any second
  // update of the burst would have arrived before it.
  write("marker.md", "x");
  ASSERT_TRUE(op(subscriber, "added", "vault://note/marker.md"));
  EXPECT_TRUE(subscriber
                .take([](const json& m) {
                  return is_method(m, updated) && m["params"]["uri"] == "vault://note/welcome.md";
                })
                .empty());
  srv.stats();
  EXPECT_TRUE(other.take([](const json& m) { return is_method(m, updated); }).empty());
  auto text = subscriber.request("resources/read", {{"uri", "vault://note/welcome.md"}});
  EXPECT_EQ(text["result"]["contents"][0]["text"], "# Welcome #start #edited 19");
}

// A subdirectory deleted with its notes, and one moved out of the vault
// (inotify then says only that the directory left, nothing per note): every
// note below either is removed, reads as absent, and the vault goes on
// watching (a new directory of the same name is watched afresh).
TEST_F(Vault, DeletingOrMovingOutAWatchedSubdirectoryRemovesItsNotes) {
  write("gone/a.md", "a");
  write("gone/deep/b.md", "b");
  write("moved/c.md", "c");
  write("moved/deep/d.md", "d");
  server srv(opts());
  watched_directory vault(srv, {root});
  in_process_client c(srv);
  c.initialize();
  fs::remove_all(root / "gone");
  fs::rename(root / "moved", outside / "moved");
  for (auto rel : {"gone/a.md", "gone/deep/b.md", "moved/c.md", "moved/deep/d.md"}) {
    auto uri = "vault://note/" + std::string(rel);
    ASSERT_TRUE(op(c, "removed", uri)) << rel;
    EXPECT_EQ(c.request("resources/read", {{"uri", uri}})["error"]["code"], -32002) << rel;
  }
  auto list = c.request("resources/list")["result"]["resources"];
  ASSERT_EQ(list.size(), 4u) << list.dump(); // welcome.md and the three derived
  write("moved/again.md", "new");
  EXPECT_TRUE(op(c, "added", "vault://note/moved/again.md"));
  auto read = c.request("resources/read", {{"uri", "vault://note/moved/again.md"}});
  EXPECT_EQ(read["result"]["contents"][0]["text"], "new");
  // The directory moved out is no longer the vault's: a write there is not
  // news of the note of the same name inside.
  ASSERT_TRUE(c.request("resources/subscribe", {{"uri", "vault://note/moved/again.md"}}).contains("result"));
  // A later change from the same watcher is settled after the events before
  // it (later, and within one pass sorted after them): once its news is
  // here, theirs has arrived. The first marker lets the creation's own
  // events pass (one may come as an update), the second the outside write's.
  write("zz-marker-1.md", "x");
  ASSERT_TRUE(op(c, "added", "vault://note/zz-marker-1.md"));
  c.take([](const json& m) { return is_method(m, updated); });
  std::ofstream(outside / "moved" / "again.md") << "outside";
  write("zz-marker-2.md", "x");
  ASSERT_TRUE(op(c, "added", "vault://note/zz-marker-2.md"));
  EXPECT_TRUE(c.take([](const json& m) {
                 return is_method(m, updated) && m["params"]["uri"] == "vault://note/moved/again.md";
               })
                .empty());
}

TEST_F(Vault, PathsLeavingTheRootAreRefused) {
  std::ofstream(outside / "secret.md") << "secret";
  fs::create_symlink(outside / "secret.md", root / "link.md");
  server srv(opts());
  watched_directory vault(srv, {root});
  in_process_client c(srv);
  c.initialize();
  for (auto uri : {"vault://note/../", "vault://note/link.md", "vault://note/sub/../../x.md"}) {
    auto r = c.request("resources/read", {{"uri", std::string(uri)}});
    ASSERT_TRUE(r.contains("error")) << uri;
    EXPECT_EQ(r["error"]["code"], -32002) << uri;
  }
  std::string traversal = "vault://note/../" + outside.filename().string() + "/secret.md";
  EXPECT_EQ(c.request("resources/read", {{"uri", traversal}})["error"]["code"], -32002);
  auto list = c.request("resources/list")["result"]["resources"];
  for (auto& r : list)
    EXPECT_NE(r["uri"], "vault://note/link.md");
}

TEST_F(Vault, OnlyWhitelistedUrisMayBeSubscribed) {
  auto o = opts();
  o.subscribable = [](std::string_view uri) { return uri == "vault://recent"; };
  server srv(o);
  watched_directory vault(srv, {root});
  in_process_client c(srv);
  c.initialize();
  EXPECT_TRUE(c.request("resources/subscribe", {{"uri", "vault://recent"}}).contains("result"));
  auto refused = c.request("resources/subscribe", {{"uri", "vault://note/welcome.md"}});
  EXPECT_EQ(refused["error"]["code"], -32602);
}

} // namespace
} // namespace cafmcp::test
