// A JWT is three base64url parts joined by two dots; an opaque token of an
// authorization server may be anything else. Only the shape is looked at:
// a JWT that fails is refused by the JWT verifier, never introspected.
#include <algorithm>

#include "cafmcp/auth_verifiers.hpp"

namespace cafmcp::auth {
namespace {

bool jwt_shaped(std::string_view t) {
  if (std::count(t.begin(), t.end(), '.') != 2)
    return false;
  return std::all_of(t.begin(), t.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_'
           || c == '.';
  });
}

class by_shape final : public token_verifier {
public:
  by_shape(std::shared_ptr<token_verifier> jwt, std::shared_ptr<token_verifier> opaque)
    : jwt_(std::move(jwt)), opaque_(std::move(opaque)) {}
  verdict verify(std::string_view token) override {
    return jwt_shaped(token) ? jwt_->verify(token) : opaque_->verify(token);
  }

private:
  std::shared_ptr<token_verifier> jwt_, opaque_;
};

} // namespace

std::shared_ptr<token_verifier> by_token_shape(std::shared_ptr<token_verifier> jwt,
                                               std::shared_ptr<token_verifier> opaque) {
  return std::make_shared<by_shape>(std::move(jwt), std::move(opaque));
}

} // namespace cafmcp::auth
