// Streamable HTTP client transport on Boost.Beast. Everything below runs on
// the transport's one io thread, so its state needs no locks (the few values
// other threads read are guarded). Each HTTP exchange gets its own loopback
// connection (Connection: close): concurrent requests never wait behind a
// long SSE answer, and there is no pool to keep healthy.
//
// Ordering: a notification or response POST holds back the messages queued
// after it until the server has answered it (202), so `initialized` or
// `cancelled` always reaches the server before what the caller sent next.
// Requests do not hold the queue: a long tool call never delays a ping.
#include "cafmcp/http_client_transport.hpp"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <future>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <type_traits>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include "cafmcp/json.hpp"
#include "cafmcp/json_rpc.hpp"

#include "client_transport/http_stream_control.hpp"
#include "client_transport/reconnect_delay.hpp"
#include "client_transport/sse_parser.hpp"
#include "foundation/base64.hpp"

namespace cafmcp {
namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = net::ssl;
using tcp = net::ip::tcp;
using error_code = beast::error_code;
using client_detail::sse_event;
using client_detail::sse_parser;

struct url_parts {
  bool tls = false;
  std::string host, port, target;
};

url_parts parse_url(const std::string& url) {
  url_parts u;
  std::string rest;
  if (url.rfind("http://", 0) == 0) {
    rest = url.substr(7);
    u.port = "80";
  } else if (url.rfind("https://", 0) == 0) {
    rest = url.substr(8);
    u.port = "443";
    u.tls = true;
  } else {
    throw std::invalid_argument("only http:// and https:// URLs are supported: " + url);
  }
  auto slash = rest.find('/');
  std::string authority = rest.substr(0, slash);
  u.target = slash == std::string::npos ? "/" : rest.substr(slash);
  if (!authority.empty() && authority.front() == '[') { // [::1]:port
    auto close = authority.find(']');
    if (close == std::string::npos)
      throw std::invalid_argument("bad IPv6 host in URL: " + url);
    u.host = authority.substr(1, close - 1);
    if (close + 1 < authority.size() && authority[close + 1] == ':')
      u.port = authority.substr(close + 2);
  } else if (auto colon = authority.rfind(':'); colon != std::string::npos) {
    u.host = authority.substr(0, colon);
    u.port = authority.substr(colon + 1);
  } else {
    u.host = authority;
  }
  if (u.host.empty() || u.port.empty())
    throw std::invalid_argument("no host in URL: " + url);
  return u;
}

/// The TLS settings every https exchange shares: verify the chain against
/// the system store (or only `ca_file`), TLS 1.2 at least.
std::unique_ptr<ssl::context> make_tls_context(const std::optional<std::string>& ca_file) {
  auto ctx = std::make_unique<ssl::context>(ssl::context::tls_client);
  ctx->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3
                   | ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1);
  error_code ec;
  if (ca_file)
    ctx->load_verify_file(*ca_file, ec);
  else
    ctx->set_default_verify_paths(ec);
  if (ec)
    throw std::invalid_argument("cannot load CA certificates"
                                + (ca_file ? " from " + *ca_file : std::string()) + ": " + ec.message());
  ctx->set_verify_mode(ssl::verify_peer);
  return ctx;
}

/// Per connection: the certificate must name `host` (OpenSSL checks it with
/// the chain, and reports a mismatch as such), and SNI carries a host name
/// (never an address: RFC 6066).
error_code prepare_tls(SSL* ssl, const std::string& host) {
  error_code ec;
  net::ip::make_address(host, ec); // an address, or a name
  if (!ec) {
    if (X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host.c_str()) != 1)
      return error_code(static_cast<int>(::ERR_get_error()), net::error::get_ssl_category());
    return {};
  }
  if (SSL_set1_host(ssl, host.c_str()) != 1 || SSL_set_tlsext_host_name(ssl, host.c_str()) != 1)
    return error_code(static_cast<int>(::ERR_get_error()), net::error::get_ssl_category());
  return {};
}

/// One HTTP request and its (possibly endless) response on its own
/// connection. The owner learns of the head, each body chunk, and the end.
/// What is common to plain and TLS connections; stream_exchange below runs
/// the one exchange sequence over either stream.
struct exchange : std::enable_shared_from_this<exchange> {
  virtual ~exchange() = default;

  http::request<http::string_body> req;
  /// Set: the whole answer must come within it (a 202 to a notification);
  /// unset: answers (SSE streams, long tool calls) take what they take.
  std::optional<std::chrono::milliseconds> answer_timeout;
  /// Why the TLS handshake failed, in OpenSSL's words for the certificate
  /// ("hostname mismatch", "unable to get local issuer certificate").
  std::string tls_failure;
  std::string www_authenticate; // of a refusal

  std::function<void(const http::response_header<>&)> on_head;
  std::function<void(std::string_view)> on_data;
  std::function<void(error_code)> on_end;

  virtual void run(const tcp::resolver::results_type& endpoints,
                   std::chrono::milliseconds connect_timeout) = 0;
  /// Abrupt end from our side (close(), a dropped stream in a test).
  virtual void cut() = 0;

  /// What failed, for an error the caller sees.
  std::string failure(error_code ec) const {
    return tls_failure.empty() ? ec.message() : "TLS handshake failed: " + tls_failure;
  }
};

template <class Stream>
struct stream_exchange final : exchange {
  static constexpr bool tls = !std::is_same_v<Stream, beast::tcp_stream>;

  explicit stream_exchange(net::io_context& ioc) requires(!tls) : stream(ioc) {}
  stream_exchange(net::io_context& ioc, ssl::context& ctx, const std::string& host) requires(tls)
    : stream(ioc, ctx), host(host) {}

  Stream stream;
  std::string host; // https: the name the certificate must carry
  beast::flat_buffer buf;
  std::optional<http::response_parser<http::buffer_body>> parser;
  char chunk[16 * 1024];
  bool ended = false;

  beast::tcp_stream& tcp() { return beast::get_lowest_layer(stream); }

  std::shared_ptr<stream_exchange> self() {
    return std::static_pointer_cast<stream_exchange>(shared_from_this());
  }

  void run(const tcp::resolver::results_type& endpoints, std::chrono::milliseconds connect_timeout) override {
    tcp().expires_after(connect_timeout); // bounds the handshake and the request's write too
    tcp().async_connect(endpoints, [self = self()](error_code ec, const tcp::endpoint&) {
      if (ec)
        return self->end(ec);
      if constexpr (tls) {
        if (auto bad = prepare_tls(self->stream.native_handle(), self->host))
          return self->end(bad);
        self->stream.async_handshake(ssl::stream_base::client, [self](error_code ec) {
          if (ec) {
            auto verdict = SSL_get_verify_result(self->stream.native_handle());
            self->tls_failure = verdict != X509_V_OK ? X509_verify_cert_error_string(verdict) : ec.message();
            return self->end(ec);
          }
          self->write_request();
        });
      } else {
        self->write_request();
      }
    });
  }

  void write_request() {
    http::async_write(stream, req, [self = self()](error_code ec, std::size_t) {
      if (ec)
        return self->end(ec);
      if (self->answer_timeout)
        self->tcp().expires_after(*self->answer_timeout);
      else
        self->tcp().expires_never();
      self->parser.emplace();
      self->parser->body_limit(boost::none);
      http::async_read_header(self->stream, self->buf, *self->parser, [self](error_code ec, std::size_t) {
        if (ec)
          return self->end(ec);
        if (self->on_head)
          self->on_head(self->parser->get().base());
        if (self->ended)
          return;
        if (self->parser->is_done())
          return self->end({});
        self->read_body();
      });
    });
  }

  void read_body() {
    auto& body = parser->get().body();
    body.data = chunk;
    body.size = sizeof chunk;
    http::async_read_some(stream, buf, *parser, [self = self()](error_code ec, std::size_t) {
      if (ec == http::error::need_buffer)
        ec = {};
      std::size_t got = sizeof self->chunk - self->parser->get().body().size;
      if (got && self->on_data && !self->ended)
        self->on_data(std::string_view(self->chunk, got));
      if (self->ended)
        return;
      if (ec)
        return self->end(ec);
      if (self->parser->is_done())
        return self->end({});
      self->read_body();
    });
  }

  // Connection: close, so no TLS close_notify either: the socket just goes.
  void end(error_code ec) {
    if (ended)
      return;
    ended = true;
    cut();
    if (on_end)
      on_end(ec);
    on_head = nullptr;
    on_data = nullptr;
    on_end = nullptr;
  }

  void cut() override {
    error_code ignored;
    tcp().socket().shutdown(tcp::socket::shutdown_both, ignored);
    tcp().socket().close(ignored);
  }
};

/// Worth another GET: the connection failed or dropped (0, or a 200 stream
/// that ended), the server had trouble (5xx), or it still holds the old
/// stream (409). Other refusals are final.
bool retryable(int status) { return status == 0 || status == 200 || status == 409 || status >= 500; }

bool is_event_stream(const http::response_header<>& h) {
  auto ct = h[http::field::content_type];
  return ct.size() >= 17 && beast::iequals(ct.substr(0, 17), "text/event-stream");
}

/// The JSON-RPC error response a request gets when HTTP could not carry it.
std::string too_large_message_for(std::size_t limit, bool event) {
  return std::string(event ? "the server sent an SSE event" : "the server sent a response body")
         + " larger than max_message_bytes (" + std::to_string(limit) + " bytes)";
}

std::string transport_error(const json& id, const std::string& message, int http_status,
                            const std::string& body) {
  json data = json::object();
  if (http_status)
    data["httpStatus"] = http_status;
  if (!body.empty())
    data["body"] = body.size() > 1024 ? body.substr(0, 1024) : body;
  return jsonrpc::wire_text(
    jsonrpc::error_message(id, jsonrpc::code::internal_error, message, data.empty() ? json() : data));
}

class http_transport final : public http_client_transport, public http_stream_control {
public:
  explicit http_transport(http_client_options opts)
    : opts_(std::move(opts)), url_(parse_url(opts_.url)), work_(net::make_work_guard(ioc_)) {
    if (url_.tls)
      tls_ = make_tls_context(opts_.ca_file);
    tcp::resolver resolver(ioc_);
    endpoints_ = resolver.resolve(url_.host, url_.port); // loopback names: no network wait
    host_header_ =
      (url_.host.find(':') != std::string::npos ? "[" + url_.host + "]" : url_.host) + ":" + url_.port;
  }

  ~http_transport() override {
    close();
    work_.reset();
    if (io_thread_.joinable()) {
      if (io_thread_.get_id() == std::this_thread::get_id()) {
        io_thread_.detach();
      } else {
        ioc_.stop();
        io_thread_.join();
      }
    }
    // A renewal still asking its authorization server: bounded by the
    // source's own timeout; what it posts is never run.
    std::lock_guard<std::mutex> g(renewals_mtx_);
    for (auto& t : renewals_)
      if (t.joinable())
        t.join();
  }

  void start(handlers h) override {
    h_ = std::move(h);
    io_thread_ = std::thread([this] { ioc_.run(); });
  }

  bool send(std::string text) override {
    if (closed_.load())
      return false;
    net::post(ioc_, [this, text = std::move(text)]() mutable {
      outbound_.push_back(std::move(text));
      pump();
    });
    return true;
  }

  void negotiated(const std::string& protocol_version) override {
    net::post(ioc_, [this, protocol_version] {
      protocol_version_ = protocol_version;
      if (opts_.open_get_stream && !closed_ && !get_started_) { // one standalone stream, however often called
        get_started_ = true;
        open_get(std::make_shared<follow>());
      }
    });
  }

  void close() override {
    if (closing_.exchange(true))
      return;
    auto done = closed_promise_.get_future();
    net::post(ioc_, [this] { begin_close(); });
    if (io_thread_.joinable() && io_thread_.get_id() != std::this_thread::get_id())
      done.wait_for(opts_.delete_timeout + opts_.connect_timeout);
  }

  std::string session_id() const override {
    std::lock_guard<std::mutex> g(mtx_);
    return session_id_;
  }

  bool wait_get_stream(std::chrono::milliseconds timeout, int opens) override {
    std::unique_lock<std::mutex> lk(mtx_);
    return cv_.wait_for(lk, timeout, [&] { return get_state_ == get_state::refused || get_opens_ >= opens; })
           && get_state_ != get_state::refused;
  }

  void drop_get_stream() override {
    net::post(ioc_, [this] {
      if (auto x = get_exchange_.lock())
        x->cut();
    });
  }

  void end_request_stream(const json& id) override {
    net::post(ioc_, [this, key = id.dump()] {
      auto it = request_streams_.find(key);
      if (it == request_streams_.end())
        return;
      auto [weak, f] = it->second;
      request_streams_.erase(it);
      f->answered = true; // ended on purpose: neither resumed nor answered with an error
      if (auto x = weak.lock())
        x->cut();
    });
  }

  void pause_get_stream() override {
    net::post(ioc_, [this] {
      get_paused_ = true;
      if (auto x = get_exchange_.lock())
        x->cut();
    });
  }

  void resume_get_stream() override {
    net::post(ioc_, [this] {
      get_paused_ = false;
      if (auto f = std::move(paused_follow_)) {
        f->failures = 0;
        open_get(f);
      }
    });
  }

  int resumptions() const override { return resumptions_.load(); }
  int get_stream_opens() const override { return get_opens_.load(); }

private:
  /// The SSE position of a stream we may have to resume: the standalone
  /// GET stream, or a POST's stream still owing its response.
  struct follow {
    std::optional<json> awaited_id; // a POST stream: the request's id
    std::string last_event_id;
    bool has_event_id = false;
    std::optional<long> retry_ms;
    int failures = 0;
    bool answered = false;
  };

  enum class get_state { pending, open, refused };

  // -- outbound ------------------------------------------------------------
  void pump() {
    while (!gate_closed_ && !outbound_.empty() && !closed_) {
      std::string text = std::move(outbound_.front());
      outbound_.pop_front();
      post_message(std::move(text));
    }
  }

  void post_message(std::string text, bool renewed = false) {
    std::optional<json> id; // set for a request: something must answer it
    try {
      auto j = json::parse(text);
      if (j.is_object() && j.contains("method") && j.contains("id"))
        id = j["id"];
    } catch (const json::exception&) {
      // not JSON: the server will refuse it with an HTTP error; nothing to correlate
    }
    auto x = make_exchange(http::verb::post);
    x->req.set(http::field::content_type, "application/json");
    x->req.set(http::field::accept, "application/json, text/event-stream");
    if (opts_.method_headers)
      set_method_headers(*x, text);
    // Kept only to send it again with a renewed token.
    auto again = opts_.auth && !renewed ? std::make_shared<std::string>(text) : nullptr;
    x->req.body() = std::move(text);
    x->req.prepare_payload();
    auto f = std::make_shared<follow>();
    f->awaited_id = id;
    if (!id) {
      gate_closed_ = true;                       // released when the server has answered it...
      x->answer_timeout = opts_.connect_timeout; // ...which must not take long
    }
    auto body = std::make_shared<std::string>();
    auto sse = std::make_shared<sse_parser>(opts_.max_message_bytes);
    auto status = std::make_shared<int>(0);
    auto streaming = std::make_shared<bool>(false);
    auto challenge = std::make_shared<std::string>();
    if (id)
      request_streams_[id->dump()] = {x, f};
    x->on_head = [this, f, status, streaming, challenge](const http::response_header<>& h) {
      *status = h.result_int();
      if (auto it = h.find(http::field::www_authenticate); it != h.end())
        *challenge = std::string(it->value());
      remember_session(h);
      *streaming = *status == 200 && is_event_stream(h);
      if (*status == 404 && !session_id().empty()) {
        if (f->awaited_id)
          deliver(transport_error(*f->awaited_id, "HTTP 404: the session has ended", 404, ""));
        f->answered = true;
        finish("the server ended the session (HTTP 404)");
      }
    };
    x->on_data = [this, f, body, sse, streaming, raw = x.get()](std::string_view bytes) {
      // raw: runs inside x
      bool too_large = false;
      if (*streaming) {
        feed_sse(*sse, *f, bytes);
        too_large = sse->overflowed();
      } else if (body->size() + bytes.size() > opts_.max_message_bytes) {
        too_large = true;
      } else {
        body->append(bytes);
      }
      if (too_large && !f->answered) {
        if (f->awaited_id)
          deliver(transport_error(*f->awaited_id, too_large_message(*streaming), 0, ""));
        f->answered = true;
        raw->cut(); // its end follows, with nothing left to answer
      }
    };
    x->on_end = [this, f, body, status, streaming, id, challenge, again, raw = x.get()](error_code ec) {
      // raw: runs inside x
      if (again && refused(*status, *challenge)) {
        auto why = refusal(*status, *challenge, *raw);
        return renew_then(why, [this, again, id, status, body](bool ok, const std::string& failure) {
          if (ok)
            return post_message(std::move(*again), true); // the gate (a notification's) stays closed
          if (id) {
            request_streams_.erase(id->dump());
            deliver(transport_error(*id, "HTTP " + std::to_string(*status) + ": " + failure, *status, *body));
          } else {
            gate_closed_ = false;
            net::post(ioc_, [this] { pump(); });
          }
        });
      }
      if (!id) {
        gate_closed_ = false;
        net::post(ioc_, [this] { pump(); });
        return;
      }
      request_streams_.erase(id->dump());
      if (f->answered || closed_)
        return;
      if (*status == 0) {
        deliver(transport_error(*id, "HTTP request failed: " + raw->failure(ec), 0, ""));
      } else if (*status < 200 || *status >= 300) {
        // The server's own JSON-RPC error for this request, when it sent one
        // with the status (2026-07-28 pairs them), says more than ours would.
        auto j = json::parse(*body, nullptr, false);
        if (j.is_object() && j.contains("error") && j.value("id", json()) == *id)
          deliver(*body);
        else
          deliver(transport_error(*id, "HTTP " + std::to_string(*status), *status, *body));
      } else if (*streaming) {
        if (f->has_event_id)
          return schedule_resume(f); // the stream broke before its response
        deliver(transport_error(*id, "the SSE stream ended without a response", *status, ""));
      } else if (!body->empty()) {
        deliver(*body);
      } else {
        deliver(transport_error(*id, "HTTP " + std::to_string(*status) + " without a body", *status, ""));
      }
    };
    launch(x);
  }

  // -- bearer tokens ---------------------------------------------------------
  // 401, or 403 with error="insufficient_scope" (step-up): a new token may help.
  static bool refused(int status, const std::string& challenge) {
    if (status == 401)
      return true;
    return status == 403 && parse_bearer_challenge(challenge).error == "insufficient_scope";
  }

  auth_challenge refusal(int status, const std::string& header, const exchange& x) const {
    auto c = parse_bearer_challenge(header);
    c.status = status;
    c.server_url = opts_.url;
    if (auto it = x.req.find(http::field::authorization); it != x.req.end())
      c.refused_token = std::string(it->value()).substr(7); // "Bearer "
    return c;
  }

  // The source may block (discovery, a token request): a thread of its
  // own, then back to the io thread with the outcome.
  void renew_then(auth_challenge why, std::function<void(bool, const std::string&)> then) {
    std::lock_guard<std::mutex> g(renewals_mtx_);
    renewals_.emplace_back([this, why = std::move(why), then = std::move(then)]() mutable {
      bool ok = false;
      std::string failure = "no new token";
      try {
        ok = opts_.auth->renew(why);
      } catch (const std::exception& e) {
        failure = e.what();
      }
      net::post(ioc_, [this, ok, failure, then = std::move(then)] {
        if (!closed_)
          then(ok, failure);
      });
    });
  }

  // -- SSE streams -----------------------------------------------------------
  void feed_sse(sse_parser& p, follow& f, std::string_view bytes) {
    std::vector<sse_event> events;
    p.feed(bytes, events);
    if (p.retry_ms())
      f.retry_ms = p.retry_ms();
    for (auto& e : events) {
      if (e.has_id) {
        f.last_event_id = e.id;
        f.has_event_id = true;
      }
      if (e.data.empty() || !(e.event.empty() || e.event == "message"))
        continue; // priming event or keep-alive: only its id matters
      if (f.awaited_id && !f.answered) {
        try {
          auto j = json::parse(e.data);
          if (j.is_object() && !j.contains("method") && j.contains("id") && j["id"] == *f.awaited_id)
            f.answered = true;
        } catch (const json::exception&) {
        }
      }
      deliver(std::move(e.data));
    }
  }

  void open_get(std::shared_ptr<follow> f) {
    if (closed_)
      return;
    auto x = make_exchange(http::verb::get);
    x->req.set(http::field::accept, "text/event-stream");
    bool resuming = f->has_event_id;
    if (resuming)
      x->req.set("Last-Event-ID", f->last_event_id);
    auto sse = std::make_shared<sse_parser>(opts_.max_message_bytes);
    auto status = std::make_shared<int>(0);
    x->on_head = [this, f, status, resuming, raw = x.get()](const http::response_header<>& h) {
      *status = h.result_int();
      if (auto it = h.find(http::field::www_authenticate); it != h.end())
        raw->www_authenticate = std::string(it->value());
      if (*status == 200 && is_event_stream(h)) {
        f->failures = 0;
        if (resuming)
          ++resumptions_;
        if (!f->awaited_id) {
          std::lock_guard<std::mutex> g(mtx_);
          ++get_opens_;
          get_state_ = get_state::open;
          cv_.notify_all();
        }
      } else if (*status == 404 && !session_id().empty()) {
        finish("the server ended the session (HTTP 404)");
      } else if (!retryable(*status) && !f->awaited_id) {
        set_get_state(get_state::refused); // e.g. 405: the server offers no GET stream
      }
    };
    x->on_data = [this, f, sse, status](std::string_view bytes) {
      if (*status != 200)
        return;
      feed_sse(*sse, *f, bytes);
      if (sse->overflowed()) {
        if (f->awaited_id && !f->answered)
          deliver(transport_error(*f->awaited_id, too_large_message(true), 0, ""));
        f->answered = true;
        if (!f->awaited_id) // the GET stream: what it would carry next is lost, so the connection ends
          finish(too_large_message(true));
      }
    };
    x->on_end = [this, f, status, raw = x.get()](error_code) {
      if (closed_ || f->answered)
        return;
      if (opts_.auth && *status == 401 && f->failures < opts_.max_reconnect_attempts) { // e.g. its token expired
        ++f->failures;
        return renew_then(refusal(401, raw->www_authenticate, *raw), [this, f](bool ok, const std::string&) {
          if (ok)
            open_get(f);
          else
            schedule_resume(f);
        });
      }
      if (!retryable(*status)) {
        if (f->awaited_id)
          deliver(transport_error(
            *f->awaited_id, "resuming the SSE stream failed: HTTP " + std::to_string(*status), *status, ""));
        return;
      }
      schedule_resume(f);
    };
    if (!f->awaited_id)
      get_exchange_ = x;
    launch(x);
  }

  void schedule_resume(std::shared_ptr<follow> f) {
    if (closed_)
      return;
    if (get_paused_ && !f->awaited_id) {
      paused_follow_ = std::move(f); // resume_get_stream() picks it up
      return;
    }
    if (++f->failures > opts_.max_reconnect_attempts) {
      if (f->awaited_id) {
        deliver(transport_error(*f->awaited_id, "the SSE stream broke and could not be resumed", 0, ""));
        return;
      }
      finish("the GET stream could not be resumed after " + std::to_string(opts_.max_reconnect_attempts)
             + " attempts");
      return;
    }
    auto delay = client_detail::reconnect_delay(f->failures, f->retry_ms, opts_.initial_backoff, opts_.max_backoff);
    auto timer = std::make_shared<net::steady_timer>(ioc_, delay);
    timers_.insert(timer);
    timer->async_wait([this, f, timer](error_code ec) {
      timers_.erase(timer);
      if (!ec && !closed_)
        open_get(f);
    });
  }

  // The 2026-07-28 headers mirror the body: Mcp-Method, and Mcp-Name in its
  // base64 form when the value is not plain visible ASCII.
  static void set_method_headers(exchange& x, const std::string& text) {
    auto j = json::parse(text, nullptr, false);
    if (!j.is_object() || !j.contains("method") || !j["method"].is_string())
      return;
    std::string method = j["method"];
    x.req.set("Mcp-Method", method);
    const char* field = method == "tools/call" || method == "prompts/get" ? "name"
                        : method == "resources/read"                      ? "uri"
                                                                          : nullptr;
    auto params = j.find("params");
    if (!field || params == j.end() || !params->is_object() || !(*params)[field].is_string())
      return;
    std::string name = (*params)[field];
    bool plain = std::all_of(name.begin(), name.end(), [](char c) { return c >= 0x21 && c <= 0x7e; });
    x.req.set("Mcp-Name", plain ? name : "=?base64?" + detail::base64_encode(name) + "?=");
  }

  // -- shared plumbing -------------------------------------------------------
  std::shared_ptr<exchange> make_exchange(http::verb verb) {
    std::shared_ptr<exchange> x;
    if (tls_)
      x = std::make_shared<stream_exchange<beast::ssl_stream<beast::tcp_stream>>>(ioc_, *tls_, url_.host);
    else
      x = std::make_shared<stream_exchange<beast::tcp_stream>>(ioc_);
    x->req.method(verb);
    x->req.target(url_.target);
    x->req.version(11);
    x->req.set(http::field::host, host_header_);
    x->req.set(http::field::connection, "close");
    x->req.set(http::field::user_agent, "cafmcp-client");
    auto sid = session_id();
    if (!sid.empty())
      x->req.set("Mcp-Session-Id", sid);
    if (!protocol_version_.empty())
      x->req.set("MCP-Protocol-Version", protocol_version_);
    for (auto& [k, v] : opts_.headers)
      x->req.set(k, v);
    if (opts_.auth)
      if (auto token = opts_.auth->current())
        x->req.set(http::field::authorization, "Bearer " + *token);
    return x;
  }

  void launch(const std::shared_ptr<exchange>& x) {
    live_.insert(x);
    auto user_end = std::move(x->on_end);
    std::weak_ptr<exchange> wx = x;
    x->on_end = [this, wx, user_end](error_code ec) {
      if (auto s = wx.lock())
        live_.erase(s);
      if (user_end)
        user_end(ec);
    };
    x->run(endpoints_, opts_.connect_timeout);
  }

  void remember_session(const http::response_header<>& h) {
    auto it = h.find("Mcp-Session-Id");
    if (it == h.end())
      return;
    std::lock_guard<std::mutex> g(mtx_);
    if (session_id_.empty())
      session_id_ = std::string(it->value());
  }

  void set_get_state(get_state s) {
    std::lock_guard<std::mutex> g(mtx_);
    get_state_ = s;
    cv_.notify_all();
  }

  void deliver(std::string text) {
    if (!closed_ && h_.on_message)
      h_.on_message(std::move(text));
  }

  void begin_close() {
    if (closed_)
      return;
    auto sid = session_id();
    if (sid.empty() || !opts_.delete_on_close)
      return finish("closed");
    // DELETE ends the session on the server (405 means it keeps them: fine).
    auto x = make_exchange(http::verb::delete_);
    x->on_end = [this](error_code) { finish("closed"); };
    auto timer = std::make_shared<net::steady_timer>(ioc_, opts_.delete_timeout);
    timers_.insert(timer);
    timer->async_wait([this, timer](error_code ec) {
      timers_.erase(timer);
      if (!ec)
        finish("closed (DELETE timed out)");
    });
    launch(x);
  }

  std::string too_large_message(bool event) const { return too_large_message_for(opts_.max_message_bytes, event); }

  void finish(const std::string& reason) {
    if (closed_.exchange(true))
      return;
    closing_ = true;
    for (auto& x : std::vector<std::shared_ptr<exchange>>(live_.begin(), live_.end()))
      x->cut();
    for (auto& t : timers_)
      t->cancel();
    set_get_state(get_state::refused);
    if (h_.on_closed)
      h_.on_closed(reason);
    closed_promise_.set_value(); // the io thread idles until the destructor stops it
  }

  http_client_options opts_;
  url_parts url_;
  std::unique_ptr<ssl::context> tls_; // https only; shared by every exchange
  std::string host_header_;
  net::io_context ioc_;
  net::executor_work_guard<net::io_context::executor_type> work_;
  tcp::resolver::results_type endpoints_;
  std::thread io_thread_;
  handlers h_;

  // io thread only
  std::deque<std::string> outbound_;
  bool gate_closed_ = false;
  std::string protocol_version_;
  std::set<std::shared_ptr<exchange>> live_;
  std::set<std::shared_ptr<net::steady_timer>> timers_;
  std::weak_ptr<exchange> get_exchange_;
  // The POST streams still open for requests, by id (for end_request_stream).
  std::map<std::string, std::pair<std::weak_ptr<exchange>, std::shared_ptr<follow>>> request_streams_;
  bool get_started_ = false;
  bool get_paused_ = false;
  std::shared_ptr<follow> paused_follow_;

  // read by other threads
  mutable std::mutex mtx_;
  std::condition_variable cv_;
  std::string session_id_;
  get_state get_state_ = get_state::pending;
  std::atomic<bool> closed_{false};
  std::atomic<bool> closing_{false};
  std::atomic<int> resumptions_{0};
  std::atomic<int> get_opens_{0};
  std::promise<void> closed_promise_;
  std::mutex renewals_mtx_;
  std::vector<std::thread> renewals_; // bearer token renewals (joined by the destructor)
};

} // namespace

http_stream_control& stream_control(http_client_transport& t) {
  return dynamic_cast<http_stream_control&>(t);
}

std::unique_ptr<http_client_transport> make_http_client_transport(http_client_options opts) {
  return std::make_unique<http_transport>(std::move(opts));
}

} // namespace cafmcp
