#pragma once
// The request a connection reads and hands on, and the short names for
// Asio and Beast that the transport's files share.
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

namespace cafmcp::http {

namespace net = boost::asio;
namespace beast = boost::beast;
using tcp = net::ip::tcp;
using request = beast::http::request<beast::http::string_body>;

} // namespace cafmcp::http
