// The load client's reading of a tools/call reply: a reply counts as a
// success only when it answers the request's id with a result that is no
// error; anything else is refused, never counted.
#include "reply_reader.hpp"

#include <gtest/gtest.h>

namespace cafmcp::load {
namespace {

tool_reply read(std::string body, std::int64_t id = 7) {
  reply_reader r;
  return r.read(body, id);
}

TEST(ToolReply, AResultForTheIdIsASuccess) {
  EXPECT_EQ(read(R"({"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"hi"}]}})"),
            tool_reply::result);
  EXPECT_EQ(read(R"({"result":{"isError":false,"content":[]},"id":7,"jsonrpc":"2.0"})"), tool_reply::result);
}

TEST(ToolReply, AResultMarkedAsAnErrorIsOne) {
  EXPECT_EQ(read(R"({"jsonrpc":"2.0","id":7,"result":{"content":[],"isError":true}})"), tool_reply::error_result);
}

TEST(ToolReply, AnythingElseIsRefused) {
  for (const char* body : {
         R"({"jsonrpc":"2.0","id":8,"result":{"content":[]}})",                     // another request's
         R"({"jsonrpc":"2.0","id":"7","result":{"content":[]}})",                   // the id as a string
         R"({"jsonrpc":"2.0","result":{"content":[]}})",                            // no id
         R"({"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"bad"}})",     // an error reply
         R"({"jsonrpc":"2.0","id":7,"result":[1]})",                                // a result that is no object
         R"({"jsonrpc":"2.0","id":7,"result":{"isError":"yes"}})",                  // isError no boolean
         R"({"jsonrpc":"2.0","id":7})",                                             // no result
         R"([{"jsonrpc":"2.0","id":7,"result":{}}])",                               // a batch
         R"({"jsonrpc":"2.0","id":7,"result":{}})" "garbage",                     // trailing text
         R"({"jsonrpc":"2.0","id":7,"result":{})",                                  // cut short
         "",
       })
    EXPECT_EQ(read(body), tool_reply::other) << body;
}

TEST(ToolReply, OneReaderReadsReplyAfterReply) {
  reply_reader r;
  for (std::int64_t id = 1; id <= 100; ++id) {
    std::string ok = R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"result":{"content":[]}})";
    std::string other = R"({"jsonrpc":"2.0","id":)" + std::to_string(id + 1) + R"(,"result":{"content":[]}})";
    ASSERT_EQ(r.read(ok, id), tool_reply::result) << id;
    ASSERT_EQ(r.read(other, id), tool_reply::other) << id;
  }
}

} // namespace
} // namespace cafmcp::load
