#pragma once
// Exactly once from an at-least-once log. Each node numbers its entries
// 1, 2, ... and appends them in that order; an append retried after a lost
// answer can put an entry in the log twice (and, with a batch in flight,
// a run of them), but never out of order. A reader that keeps the highest
// number seen per origin therefore delivers each entry once, in log order,
// and every node decides the same. A number past the next expected one
// means entries of that origin are missing (trimmed before this node read
// them): the reader cannot replay them and must say so (a resync).
#include <cstdint>
#include <string>
#include <unordered_map>

namespace cafmcp::cluster {

class origin_filter {
public:
  enum class verdict { fresh, duplicate, after_gap };

  verdict admit(const std::string& origin, std::uint64_t seq) {
    auto [it, first] = last_.try_emplace(origin, seq);
    if (first) // an origin this node had not read from: its start may predate us
      return verdict::fresh;
    if (seq <= it->second)
      return verdict::duplicate;
    auto expected = it->second + 1;
    it->second = seq;
    return seq == expected ? verdict::fresh : verdict::after_gap;
  }

private:
  std::unordered_map<std::string, std::uint64_t> last_;
};

} // namespace cafmcp::cluster
