// everything-server serving https (--tls-cert/--tls-key with a CA and a
// certificate made here by the openssl command), driven by the official
// TypeScript SDK client. The client runs in a child node process because
// NODE_EXTRA_CA_CERTS, how it trusts the test's CA, is read only at start.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHttpServer } from './lib/harness.mjs';

let dir, server, url;
const file = (name) => join(dir, name);
const openssl = (...args) => execFileSync('openssl', args, { stdio: 'ignore' });
const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cafmcp-interop-tls-'));
  openssl('req', '-x509', ...ec, '-days', '2', '-subj', '/CN=cafmcp-interop-ca',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign',
    '-keyout', file('ca.key'), '-out', file('ca.pem'));
  writeFileSync(file('server.ext'),
    'subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n');
  openssl('req', ...ec, '-subj', '/CN=localhost', '-keyout', file('server.key'), '-out', file('server.csr'));
  openssl('x509', '-req', '-days', '2', '-in', file('server.csr'), '-CA', file('ca.pem'), '-CAkey', file('ca.key'),
    '-CAcreateserial', '-extfile', file('server.ext'), '-out', file('server.pem'));
  server = startHttpServer(['--tls-cert', file('server.pem'), '--tls-key', file('server.key')]);
  url = await server.url;
});

after(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function runClient(env) {
  return new Promise((resolve) => {
    execFile(process.execPath, [new URL('./lib/https-client.mjs', import.meta.url).pathname, url],
      { env: { ...process.env, ...env }, timeout: 30000 },
      (error, stdout, stderr) => resolve({ code: error ? (error.code ?? 1) : 0, stdout, stderr }));
  });
}

test('the SDK client over https: initialize, tools/call, list_changed on the GET stream', async () => {
  assert.match(url, /^https:\/\/127\.0\.0\.1:\d+\/mcp$/);
  const out = await runClient({ NODE_EXTRA_CA_CERTS: file('ca.pem') });
  assert.equal(out.code, 0, out.stderr);
  assert.deepEqual(JSON.parse(out.stdout),
    { serverName: 'cafmcp-everything-server', addedIsError: false, notified: true, listed: true });
});

test('without the CA the SDK client refuses the server', async () => {
  const env = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  const out = await new Promise((resolve) => {
    execFile(process.execPath, [new URL('./lib/https-client.mjs', import.meta.url).pathname, url],
      { env, timeout: 30000 }, (error, stdout, stderr) => resolve({ code: error ? (error.code ?? 1) : 0, stderr }));
  });
  assert.notEqual(out.code, 0);
  assert.match(out.stderr, /certificate|issuer/i);
});

test('cafmcp-check over https trusts the CA given with --ca-file, and nothing else', async () => {
  const check = process.env.CAFMCP_CHECK ?? new URL('../../build/bin/cafmcp-check', import.meta.url).pathname;
  const run = (args) => new Promise((resolve) => {
    execFile(check, ['--url', url, '--json', ...args], { timeout: 60000 },
      (err, stdout, stderr) => resolve({ code: err ? err.code : 0, stdout, stderr }));
  });
  const trusted = await run(['--ca-file', file('ca.pem')]);
  assert.equal(trusted.code, 0, trusted.stderr + trusted.stdout);
  const report = JSON.parse(trusted.stdout);
  assert.deepEqual(report.checks.filter((c) => c.status === 'FAIL'), []);
  assert.ok(report.summary.pass >= 10, JSON.stringify(report.summary));
  const refused = await run([]); // the test's CA is in no system store
  assert.equal(refused.code, 2, refused.stdout); // could not connect: nothing judged
  assert.match(refused.stdout + refused.stderr, /certificate|issuer/i);
});
