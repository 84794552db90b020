// Floor (d): stdio with nothing behind it. A process that answers each
// line read from its stdin pipe on stdout: blocking read(2) of whatever is
// there, every whole line answered, one write(2) for all the answers. No
// JSON parse (the id and the uri are copied out by a scan), no session, no
// actor, no thread hand-off: what a line-in, lines-out round trip costs on
// this machine. cafmcp-load --stdio drives it as it drives the servers; a
// tools/call of update_resource answers with notifications/resources/updated
// for its uri and then the result, as an MCP server would (the same text
// content the everything-server and the TypeScript peer answer), so the
// stdio fan-out row reads cafmcp's notifications/s against it.
//
// --spin (floor (d')): before each read, poll stdin for up to 50 us, as
// cafmcp's reader does by default (stdio_options::poll_before_sleep). A
// blocking echo is fast only while the scheduler keeps it on its client's
// CPU (each wake-up then a local switch); over a long run the two drift
// apart and every line costs a wake-up across CPUs each way (BENCHMARKS.md,
// ninth session). A spinning reader needs no wake-up for the request.
//
//   stdio-echo-floor [--spin]
#include <cerrno>
#include <chrono>
#include <string>
#include <string_view>

#include <poll.h>
#include <unistd.h>

namespace {

constexpr std::string_view init_result =
  R"({"protocolVersion":"2025-11-25","capabilities":{"tools":{},"resources":{"subscribe":true}},)"
  R"("serverInfo":{"name":"stdio-echo-floor","version":"1"}})";

// The text of `"key":` in `line`: a string's contents, or a number.
std::string_view field(std::string_view line, std::string_view quoted_key) {
  auto at = line.find(quoted_key);
  if (at == std::string_view::npos)
    return {};
  at += quoted_key.size();
  if (at < line.size() && line[at] == '"') {
    auto end = line.find('"', at + 1);
    return line.substr(at, end + 1 - at); // with its quotes
  }
  return line.substr(at, line.find_first_of(",}", at) - at);
}

void answer(std::string_view line, std::string& out) {
  auto id = field(line, "\"id\":");
  if (id.empty())
    return; // a notification
  std::string_view result = "{}";
  std::string_view updated_uri; // with its quotes
  if (line.find(R"("method":"initialize")") != std::string_view::npos) {
    result = init_result;
  } else if (line.find(R"("method":"tools/call")") != std::string_view::npos) {
    result = R"({"content":[{"type":"text","text":"ok"}]})";
    if (line.find(R"("name":"update_resource")") != std::string_view::npos) {
      updated_uri = field(line, "\"uri\":");
      out.append(R"({"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":)")
        .append(updated_uri)
        .append("}}\n");
    }
  }
  out.append(R"({"jsonrpc":"2.0","id":)").append(id).append(R"(,"result":)");
  // The text both MCP servers answer an update with ("updated <uri>"):
  // the client reads and parses the same bytes from the floor as from them
  // (an empty content array spared it ~70 bytes a round; on one CPU the
  // floor's rate moved by 0.97x, 9 pairs, inside the noise).
  if (updated_uri.size() >= 2)
    out.append(R"({"content":[{"type":"text","text":"updated )")
      .append(updated_uri.substr(1, updated_uri.size() - 2))
      .append(R"("}]})");
  else
    out.append(result);
  out.append("}\n");
}

bool write_all(const std::string& out) {
  for (std::size_t done = 0; done < out.size();) {
    auto n = ::write(1, out.data() + done, out.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

// Until stdin has something (or is at its end), for at most `budget`.
void poll_for_input(std::chrono::microseconds budget) {
  pollfd p{0, POLLIN, 0};
  const auto until = std::chrono::steady_clock::now() + budget;
  while (::poll(&p, 1, 0) == 0 && std::chrono::steady_clock::now() < until) {
  }
}

} // namespace

int main(int argc, char** argv) {
  const bool spin = argc > 1 && std::string_view(argv[1]) == "--spin";
  std::string in, out;
  char chunk[65536];
  for (;;) {
    if (spin)
      poll_for_input(std::chrono::microseconds(50));
    auto n = ::read(0, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return 0; // stdin closed: done
    in.append(chunk, static_cast<std::size_t>(n));
    std::size_t used = 0;
    for (std::size_t nl; (nl = in.find('\n', used)) != std::string::npos; used = nl + 1)
      answer(std::string_view(in).substr(used, nl - used), out);
    in.erase(0, used);
    if (!out.empty() && !write_all(out))
      return 1;
    out.clear();
  }
}
