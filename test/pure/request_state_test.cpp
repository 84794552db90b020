// requestState sealing: round trip, and every alteration refused.
#include <gtest/gtest.h>

#include "protocol/request_state.hpp"

namespace cafmcp::protocol {
namespace {

TEST(RequestState, RoundTrips) {
  auto seal = request_state_seal::with_random_key();
  json state = {{"answers", {{"k", {{"action", "accept"}}}}}, {"state", {{"round", 2}}}};
  auto text = seal.seal(state);
  EXPECT_EQ(seal.open(text), state);
}

TEST(RequestState, TamperingIsDetected) {
  auto seal = request_state_seal::with_random_key();
  auto text = seal.seal({{"round", 1}});
  auto dot = text.rfind('.');
  auto flipped_payload = text;
  flipped_payload[0] = flipped_payload[0] == 'A' ? 'B' : 'A';
  auto flipped_mac = text;
  flipped_mac.back() = flipped_mac.back() == '0' ? '1' : '0';
  // A state the client wrote itself, with a made-up mac.
  auto forged = request_state_seal::with_random_key().seal({{"round", 9}});
  for (const auto& bad : {flipped_payload, flipped_mac, text.substr(0, dot), std::string(),
                          std::string("{\"round\":1}"), forged})
    EXPECT_FALSE(seal.open(bad)) << bad;
}

TEST(RequestState, KeysDifferPerSeal) {
  auto a = request_state_seal::with_random_key(), b = request_state_seal::with_random_key();
  EXPECT_NE(a.seal({{"x", 1}}), b.seal({{"x", 1}}));
}

} // namespace
} // namespace cafmcp::protocol
