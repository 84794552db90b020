#pragma once
// Certificates made at test time with the openssl command, in a temporary
// folder that goes with the object: a throwaway CA, a server certificate it
// signed for localhost, 127.0.0.1 and ::1, and one it signed for another
// name only (for hostname checks). Nothing is trusted by the system.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include <unistd.h>

namespace cafmcp::test {

class test_certificates {
public:
  test_certificates() {
    char tmpl[] = "/tmp/cafmcp-tls-XXXXXX";
    if (!::mkdtemp(tmpl))
      throw std::runtime_error("mkdtemp failed");
    dir_ = tmpl;
    run("req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj /CN=cafmcp-test-ca"
        " -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign"
        " -keyout "
        + path("ca.key") + " -out " + ca_file());
    issue("server", "localhost", "DNS:localhost,IP:127.0.0.1,IP:::1");
    issue("other", "other.example", "DNS:other.example");
  }
  ~test_certificates() {
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }
  test_certificates(const test_certificates&) = delete;
  test_certificates& operator=(const test_certificates&) = delete;

  /// The CA that signed both server certificates (PEM).
  std::string ca_file() const { return path("ca.pem"); }
  /// For localhost, 127.0.0.1 and ::1.
  std::string server_cert() const { return path("server.pem"); }
  std::string server_key() const { return path("server.key"); }
  /// For other.example only.
  std::string other_cert() const { return path("other.pem"); }
  std::string other_key() const { return path("other.key"); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

private:
  void issue(const std::string& name, const std::string& cn, const std::string& san) {
    std::ofstream(path(name + ".ext"))
      << "subjectAltName=" << san << "\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n";
    run("req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj /CN=" + cn + " -keyout "
        + path(name + ".key") + " -out " + path(name + ".csr"));
    run("x509 -req -days 2 -in " + path(name + ".csr") + " -CA " + ca_file() + " -CAkey " + path("ca.key")
        + " -CAcreateserial -extfile " + path(name + ".ext") + " -out " + path(name + ".pem"));
  }
  void run(const std::string& args) const {
    auto cmd = "openssl " + args + " >" + path("openssl.log") + " 2>&1";
    if (std::system(cmd.c_str()) != 0)
      throw std::runtime_error("openssl failed: " + cmd);
  }

  std::filesystem::path dir_;
};

} // namespace cafmcp::test
