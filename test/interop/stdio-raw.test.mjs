// Bad input straight onto everything-server's stdin: every line gets its
// error and the same process keeps serving; stdout carries nothing but
// JSON-RPC; closing stdin ends it with status 0.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startRaw } from './lib/raw-stdio.mjs';

function assertAllJsonRpc(lines) {
  assert.ok(lines.length > 0);
  for (const line of lines) {
    const msg = JSON.parse(line); // throws on anything but JSON
    assert.equal(msg.jsonrpc, '2.0', line.slice(0, 200));
    assert.ok('method' in msg || 'result' in msg || 'error' in msg, line.slice(0, 200));
  }
}

// Sends `text`, expects an error with `code` (and `id`, where one is
// readable), then proves the session still answers a ping.
async function expectErrorThenPing(p, text, code, id, pingId) {
  p.send(text);
  const reply = await p.next();
  assert.equal(reply.error?.code, code, `${text.slice(0, 80)} -> ${JSON.stringify(reply).slice(0, 200)}`);
  assert.ok(typeof reply.error.message === 'string' && reply.error.message.length > 0);
  assert.ok('id' in reply, 'an error response carries an id');
  if (id !== undefined) assert.equal(reply.id, id);
  p.request(pingId, 'ping');
  assert.deepEqual(await p.next(), { jsonrpc: '2.0', id: pingId, result: {} });
}

test('initialize over raw stdio negotiates 2025-11-25', async (t) => {
  const p = startRaw(t);
  const reply = await p.initialize();
  assert.equal(reply.id, 0);
  assert.equal(reply.result.protocolVersion, '2025-11-25');
  assert.equal(reply.result.serverInfo.name, 'cafmcp-everything-server');
  assert.equal(await p.close(), 0);
  assertAllJsonRpc(p.lines);
});

test('each bad message gets its error and the same process goes on', async (t) => {
  const p = startRaw(t, ['--max-message-bytes', '65536']);
  await p.initialize();
  const cases = [
    ['malformed JSON', '{"jsonrpc":"2.0","id":1,', -32700, null],
    ['wrong jsonrpc version', '{"jsonrpc":"1.0","id":2,"method":"ping"}', -32600, 2],
    ['unknown method', '{"jsonrpc":"2.0","id":3,"method":"no/such"}', -32601, 3],
    ['wrong param type', '{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":5}}', -32602, 4],
    ['line over --max-message-bytes', `{"jsonrpc":"2.0","id":5,"method":"ping","params":{"pad":"${'x'.repeat(70000)}"}}`, -32600, undefined],
    ['100k-deep array', `{"jsonrpc":"2.0","id":6,"method":"ping","params":{"deep":${'['.repeat(100000)}${']'.repeat(100000)}}}`, -32600, undefined],
  ];
  let pingId = 100;
  for (const [what, text, code, id] of cases) {
    await expectErrorThenPing(p, text, code, id, ++pingId).catch((e) => { e.message = `${what}: ${e.message}`; throw e; });
  }
  assert.equal(await p.close(), 0, 'closing stdin ends the server with status 0');
  assertAllJsonRpc(p.lines);
});

test('a line over the default 4 MiB limit is refused and the session goes on', async (t) => {
  const p = startRaw(t);
  await p.initialize();
  const big = `{"jsonrpc":"2.0","id":7,"method":"ping","params":{"pad":"${'y'.repeat(5 * 1024 * 1024)}"}}`;
  await expectErrorThenPing(p, big, -32600, undefined, 8);
  assert.equal(await p.close(), 0);
  assertAllJsonRpc(p.lines);
});

test('stdout stays pure JSON-RPC while tools log and report progress', async (t) => {
  const p = startRaw(t);
  await p.initialize();
  p.request(1, 'logging/setLevel', { level: 'debug' });
  assert.deepEqual((await p.next()).result, {});
  p.request(2, 'tools/call', { name: 'test_tool_with_logging', arguments: {}, _meta: { progressToken: 'raw-1' } });
  const seen = [];
  for (let m = await p.next(); m.id !== 2; m = await p.next()) seen.push(m.method);
  assert.equal(seen.filter((m) => m === 'notifications/message').length, 3);
  assert.equal(await p.close(), 0);
  assertAllJsonRpc(p.lines);
});
