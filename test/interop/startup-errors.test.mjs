// Every server binary, started into a failure it cannot serve through (a
// port in use, an address it cannot bind, a host that is not an address; a
// client whose server is not there): one line on stderr naming the cause,
// and exit code 1. Never an abort (134), never silence.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';

const bin = {
  everything: process.env.EVERYTHING_SERVER,
  vault: process.env.VAULT_SERVER,
  store: process.env.STORE_SERVER,
  watch: process.env.WATCH_RESOURCE,
};

// Exit code and stderr of `cmd args` (bounded).
function run(cmd, args, ms = 10000) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => { err += d; });
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`${cmd} ${args.join(' ')} still running`)); }, ms);
    child.on('exit', (code, signal) => { clearTimeout(timer); resolve({ code, signal, err }); });
  });
}

// A port something already listens on, for the test's length.
async function busyPort() {
  const s = createServer();
  await new Promise((r) => s.listen(0, '127.0.0.1', r));
  return { port: s.address().port, close: () => new Promise((r) => s.close(r)) };
}

const oneLine = (err) => err.trim().split('\n');

test('a port in use: every HTTP server names it and exits 1', async () => {
  const busy = await busyPort();
  try {
    for (const [name, cmd, extra] of [['everything-server', bin.everything, []],
      ['vault-server', bin.vault, ['--root', '.']], ['resource-store-server', bin.store, []]]) {
      const r = await run(cmd, ['--http', '--port', String(busy.port), ...extra]);
      assert.equal(r.code, 1, `${name}: ${r.err}`);
      assert.deepEqual(oneLine(r.err), [`${name}: cannot listen on 127.0.0.1:${busy.port}: bind: Address already in use`]);
    }
  } finally {
    await busy.close();
  }
});

test('a host it cannot bind, or one that is not an address: named, exit 1', async () => {
  let r = await run(bin.everything, ['--http', '--host', '192.0.2.1', '--port', '0']);
  assert.equal(r.code, 1, r.err);
  assert.deepEqual(oneLine(r.err), ['everything-server: cannot listen on 192.0.2.1:0: bind: Cannot assign requested address']);
  r = await run(bin.everything, ['--http', '--host', 'not-a-host', '--port', '0']);
  assert.equal(r.code, 1, r.err);
  assert.deepEqual(oneLine(r.err), ['everything-server: cannot listen on not-a-host: not an IP address (give one, or localhost)']);
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

test('every HTTP server says where it serves, in the same words', async () => {
  for (const [name, cmd, extra] of [['everything-server', bin.everything, []],
    ['vault-server', bin.vault, ['--root', '.']], ['resource-store-server', bin.store, []]]) {
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
    child.kill('SIGTERM');
    assert.match(line, new RegExp(`^${name}: listening on http://127\\.0\\.0\\.1:\\d+/mcp$`));
  }
});
