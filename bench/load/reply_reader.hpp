#pragma once
// Reading a tools/call reply without building it. The request-rate run asks
// of each reply only that it answers its request's id with a result, and
// whether that result is an error. nlohmann's parser spent ~15k of the load
// client's ~51k instructions a request building a document to ask that,
// and the client, at a whole core, was what the tools/call row measured:
// simdjson's on-demand parser reads just those members.
#include <cstdint>
#include <memory>
#include <string>

namespace cafmcp::load {

enum class tool_reply {
  result,       // answers the id with a result
  error_result, // ... whose isError is true
  other,        // anything else (an error reply, another id, not JSON): the caller says what
};

/// Keeps simdjson's parser, and so its buffers, from one reply to the next.
class reply_reader {
public:
  reply_reader();
  ~reply_reader();
  reply_reader(const reply_reader&) = delete;
  reply_reader& operator=(const reply_reader&) = delete;

  /// What `body` is as an answer to request `id`. The string's capacity
  /// grows by simdjson's padding (its text stays as it is).
  tool_reply read(std::string& body, std::int64_t id);

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace cafmcp::load
