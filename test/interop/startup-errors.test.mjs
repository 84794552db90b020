// Every server binary, started into each failure it cannot serve through (a
// port in use, an address it cannot bind, a host that is not an address, a
// trace file it cannot write, an OTLP endpoint it cannot post to, a missing
// directory; a client whose server is not there): one line on stderr naming
// the cause, and exit code 1. Never an abort (134), never silence. And the
// flags they share: the same --help, defaults shown, without reading stdin.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { readdirSync } from 'node:fs';

const bin = {
  everything: process.env.EVERYTHING_SERVER,
  vault: process.env.VAULT_SERVER,
  store: process.env.STORE_SERVER,
  embedded: process.env.EMBEDDED_SERVER,
  watch: process.env.WATCH_RESOURCE,
};

// Every server binary: its name, path, and the arguments it cannot start without.
const servers = [
  ['everything-server', bin.everything, []],
  ['vault-server', bin.vault, ['--root', '.']],
  ['resource-store-server', bin.store, []],
  ['embedded-job-queue', bin.embedded, []],
];

// Exit code, stdout and stderr of `cmd args` (bounded). stdin: 'ignore'
// (closed at once) or 'pipe' (left open: a program that reads it waits).
function run(cmd, args, { ms = 10000, stdin = 'ignore' } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: [stdin, 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { err += d; });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${cmd} ${args.join(' ')} still running; stderr: ${err}`));
    }, ms);
    child.on('exit', (code, signal) => { clearTimeout(timer); resolve({ code, signal, out, err }); });
  });
}

// A port something already listens on, for the test's length.
async function busyPort() {
  const s = createServer();
  await new Promise((r) => s.listen(0, '127.0.0.1', r));
  return { port: s.address().port, close: () => new Promise((r) => s.close(r)) };
}

const lines = (err) => err.trim().split('\n');

// `name args` fails with exactly this one line and exit code 1.
async function failsWith(name, cmd, args, line) {
  const r = await run(cmd, args);
  assert.equal(r.code, 1, `${name} ${args.join(' ')}: exit ${r.code} (${r.signal}): ${r.err}`);
  assert.deepEqual(lines(r.err), [`${name}: ${line}`], `${name} ${args.join(' ')}`);
  assert.equal(r.out, '', `${name} wrote on stdout`);
}

test('a port in use: every HTTP server names it and exits 1', async () => {
  const busy = await busyPort();
  try {
    for (const [name, cmd, extra] of servers)
      await failsWith(name, cmd, ['--http', '--port', String(busy.port), ...extra],
        `cannot listen on 127.0.0.1:${busy.port}: bind: Address already in use`);
  } finally {
    await busy.close();
  }
});

test('a host it cannot bind, or one that is not an address: named, exit 1', async () => {
  for (const [name, cmd, extra] of servers) {
    await failsWith(name, cmd, ['--http', '--host', '192.0.2.1', '--port', '0', ...extra],
      'cannot listen on 192.0.2.1:0: bind: Cannot assign requested address');
    await failsWith(name, cmd, ['--http', '--host', 'not-a-host', '--port', '0', ...extra],
      'cannot listen on not-a-host: not an IP address (give one, or localhost)');
  }
});

test('a trace file it cannot write: named with the cause, exit 1, over either transport', async () => {
  for (const [name, cmd, extra] of servers)
    for (const transport of [[], ['--http', '--port', '0']])
      await failsWith(name, cmd, [...transport, '--trace-file', '/nonexistent/dir/t.jsonl', ...extra],
        'cannot write traces to /nonexistent/dir/t.jsonl: No such file or directory');
});

test('an OTLP endpoint no exporter can post to: named, exit 1', async () => {
  for (const [name, cmd, extra] of servers)
    for (const endpoint of ['localhost:4318', 'grpc://collector.example', 'http://:4318'])
      await failsWith(name, cmd, ['--otlp-endpoint', endpoint, ...extra],
        `--otlp-endpoint ${endpoint}: not an http(s)://HOST[:PORT] URL`);
});

test('half a TLS setup: named, exit 1', async () => {
  for (const [name, cmd, extra] of servers)
    await failsWith(name, cmd, ['--http', '--port', '0', '--tls-cert', '/nonexistent.pem', ...extra],
      'HTTPS needs both a certificate file and a private key file');
});

test('a vault directory that is not there: named, exit 1', async () => {
  for (const transport of [[], ['--http', '--port', '0']])
    await failsWith('vault-server', bin.vault, [...transport, '--root', '/nonexistent'],
      '--root /nonexistent: no such directory');
});

test('a client whose server is not there names it and exits 1', async () => {
  const busy = await busyPort(); // a free port: listened on, then closed
  await busy.close();
  let r = await run(bin.watch, ['--uri', 'test://x', '--url', `http://127.0.0.1:${busy.port}/mcp`]);
  assert.equal(r.code, 1, r.err);
  assert.match(r.err, new RegExp(`^watch-resource: cannot connect to http://127.0.0.1:${busy.port}/mcp: .*Connection refused`));
  r = await run(bin.watch, ['--uri', 'test://x', '--', '/nonexistent/server']);
  assert.equal(r.code, 1, r.err);
  assert.match(r.err, /^watch-resource: cannot connect to \/nonexistent\/server: spawn \/nonexistent\/server: No such file or directory/);
});

test('--help: every binary prints the shared flags with their defaults and exits 0, stdin unread', async () => {
  for (const [name, cmd] of servers) {
    const r = await run(cmd, ['--help'], { ms: 5000, stdin: 'pipe' }); // stdin stays open: no waiting on it
    assert.equal(r.code, 0, `${name}: ${r.err}`);
    for (const flag of ['--stdio', '--http', '--otlp-endpoint', '--trace-file'])
      assert.match(r.out, new RegExp(`^\\s+${flag}\\b`, 'm'), `${name} --help lacks ${flag}`);
    assert.match(r.out, /^\s+--host TEXT=127\.0\.0\.1\s/m, `${name} --help: --host's default`);
    assert.match(r.out, /^\s+--port UINT=3000\s/m, `${name} --help: --port's default`);
    assert.match(r.out, /^\s+--log-level TEXT:\{debug,info,.*,emergency\}=info\s/m, `${name} --help: --log-level's default`);
    assert.match(r.out, /^\s+--event-loops UINT:UINT in \[1 - 16\]=1\s/m, `${name} --help: --event-loops`);
    assert.match(r.out, /^\s+--scheduler-threads UINT:UINT in \[1 - 256\]\s/m, `${name} --help: --scheduler-threads`);
  }
  const r = await run(bin.watch, ['--help'], { ms: 5000, stdin: 'pipe' });
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^\s+--updates INT=0\s/m);
});

test('every HTTP server says where it serves, in the same words', async () => {
  for (const [name, cmd, extra] of servers) {
    const child = spawn(cmd, ['--http', '--port', '0', ...extra], { stdio: ['ignore', 'ignore', 'pipe'] });
    const line = await new Promise((resolve, reject) => {
      let err = '';
      const timer = setTimeout(() => reject(new Error(`${name} said nothing: ${err}`)), 10000);
      child.stderr.on('data', (d) => {
        err += d;
        const m = err.match(/^.*listening on .*$/m);
        if (m) { clearTimeout(timer); resolve(m[0]); }
      });
    });
    const exited = new Promise((r) => child.on('exit', r));
    child.kill('SIGTERM');
    await exited;
    assert.match(line, new RegExp(`^${name}: listening on http://127\\.0\\.0\\.1:\\d+/mcp$`));
  }
});

// Starts `cmd args` over HTTP, waits for its "listening on" line, and gives
// back how many threads it runs then (Linux: /proc/PID/task), after a SIGTERM.
async function threadsWhenListening(cmd, args) {
  const child = spawn(cmd, ['--http', '--port', '0', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  await new Promise((resolve, reject) => {
    let err = '';
    const timer = setTimeout(() => reject(new Error(`${cmd} said nothing: ${err}`)), 10000);
    child.stderr.on('data', (d) => {
      err += d;
      if (/listening on /.test(err)) { clearTimeout(timer); resolve(); }
    });
  });
  const threads = readdirSync(`/proc/${child.pid}/task`).length;
  const exited = new Promise((r) => child.on('exit', r));
  child.kill('SIGTERM');
  await exited;
  return threads;
}

test('--scheduler-threads N runs N actor scheduler threads, whatever the core count', async () => {
  for (const [name, cmd, extra] of servers) {
    const two = await threadsWhenListening(cmd, ['--scheduler-threads', '2', ...extra]);
    const five = await threadsWhenListening(cmd, ['--scheduler-threads', '5', ...extra]);
    assert.equal(five - two, 3, `${name}: ${two} threads with 2, ${five} with 5`);
  }
  const zero = await run(bin.everything, ['--scheduler-threads', '0']); // a usage error, as CLI11 reports them
  assert.notEqual(zero.code, 0);
  assert.match(zero.err, /^--scheduler-threads: Value 0 not in range 1 to 256$/m);
});

test('over stdio, every server says so on stderr (stdout is MCP\'s), unless --log-level is above info', async () => {
  for (const [name, cmd, extra] of servers) {
    let r = await run(cmd, [...extra]); // stdin closed at once: the client has left
    assert.equal(r.code, 0, `${name}: ${r.err}`);
    assert.deepEqual(lines(r.err), [`${name}: serving MCP on stdin/stdout`]);
    assert.equal(r.out, '');
    r = await run(cmd, ['--log-level', 'warning', ...extra]);
    assert.equal(r.code, 0, `${name}: ${r.err}`);
    assert.equal(r.err, '', `${name} --log-level warning`);
  }
});
