// Two rare failures of interop_cluster under load (server-side races with a
// window of about a millisecond), made deterministic by injecting latency
// between one node and Redis (NOPROXY=1: none). In CTest as
// interop_cluster_races.
//
// 1. interop_cluster's "a node paused past its stream lease" test. The node
// taking a GET stream over (n2) answered 200 and replayed before its claim
// was in the log; the paused node, continued once the client had the 200,
// read the changes made meanwhile without the claim and wrote them to the
// old stream. Fixed: cluster_node::claim returns once the claim is read
// back. With 400 ms injected on n2's writes this failed every run before.
// The 1 run in 13 that still failed after the fix was the test's own race:
// kill(SIGSTOP) returns before the process stops, and on a loaded machine
// the node read and wrote the first "paused" change 3 ms after the signal
// (found with timestamps in the node). pauseProcess waits until every
// thread is stopped.
//
// 2. interop_cluster's "a fresh GET on another node starts from now": a GET
// without Last-Event-ID started from what the node had READ of the log, so
// a node whose reader lagged sent a change the client already had on its
// first stream again. Fixed: a fresh stream starts after the claim, which
// is read back first (http_session::open_marked_stream).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { connectHttp } from './lib/harness.mjs';
import { startRedis, startNode, pauseProcess } from './lib/cluster.mjs';
import { rawSession, openStream, notificationsOf } from './lib/raw-http.mjs';
const UPDATED = 'notifications/resources/updated';
const call = (s, name, args) => s.client.callTool({ name, arguments: args });

// A loopback TCP proxy to Redis holding what passes each way for a while
// (the injected fault: `delay` for what the node writes, `delayReplies` for
// what Redis answers).
function delayingProxy(target) {
  const st = { delay: 0, delayReplies: 0 };
  const server = net.createServer((client) => {
    const up = net.connect(target, '127.0.0.1');
    let chain = Promise.resolve(), back = Promise.resolve();
    client.on('data', (d) => { const ms = st.delay; chain = chain.then(() => new Promise((r) => setTimeout(r, ms))).then(() => up.write(d)); });
    up.on('data', (d) => { const ms = st.delayReplies; back = back.then(() => new Promise((r) => setTimeout(r, ms))).then(() => client.write(d)); });
    client.on('error', () => {}); up.on('error', () => {});
    client.on('close', () => up.destroy()); up.on('close', () => client.destroy());
  });
  return new Promise((r) => server.listen(0, '127.0.0.1', () => { st.port = server.address().port; st.server = server; r(st); }));
}

test('a takeover answered before its claim is logged: the paused node writes nothing more to the old stream', async () => {
  const LEASE_MS = 1500;
  const redis = await startRedis();
  const px = await delayingProxy(redis.port);
  const args = ['--stream-lease-ms', String(LEASE_MS)];
  const n1 = await startNode(redis.url, 'n1', args);
  const n2 = await startNode(process.env.NOPROXY ? redis.url : `redis://127.0.0.1:${px.port}`, 'n2', args);
  const n3 = await startNode(redis.url, 'n3', args);
  const near = await connectHttp(n1.url), far = await connectHttp(n3.url);
  try {
    await call(near, 'add_resource', { uri: 'test://fenced', name: 'fenced', text: '0' });
    const raw = await rawSession(n1.url);
    await raw.subscribe('test://fenced');
    const old = await openStream(n1.url, raw);
    await call(near, 'update_resource', { uri: 'test://fenced', text: 'before' });
    const seen = await old.until((e) => e.data?.method === UPDATED);
    const heard = old.events.length;
    await pauseProcess(n1.child);
    for (let i = 0; i < 5; i++) await call(far, 'update_resource', { uri: 'test://fenced', text: `paused ${i}` });
    await new Promise((r) => setTimeout(r, LEASE_MS + 500));
    px.delay = Number(process.env.CLAIM_DELAY_MS ?? 400); // from here on: the claim is late
    const taken = await openStream(n2.url, raw, seen.id);
    assert.equal(taken.status, 200, taken.body);
    n1.child.kill('SIGCONT');
    await call(far, 'update_resource', { uri: 'test://fenced', text: 'after' });
    await taken.until(() => notificationsOf(taken.events).length === 6);
    await old.end();
    assert.equal(old.events.length, heard, JSON.stringify(old.events.slice(heard)));
    taken.close();
  } finally {
    n1.child.kill('SIGCONT');
    await near.close().catch(() => {}); await far.close().catch(() => {});
    for (const n of [n1, n2, n3]) await n.kill();
    await redis.stop(); px.server.close();
  }
});

// The same kind of race for interop_cluster's "a fresh GET on another node
// starts from now" test: a GET without Last-Event-ID starts from what the
// node has READ of the log (http_session::open_marked_stream: from =
// last_mark_, delivered = history.last_seq()), not from the log's end. A
// node whose reader lags (here: Redis's replies to n2 held REPLY_DELAY_MS,
// default 300; under load, a late thread) sends a change the client already
// had on its first stream again on the new one.
test('a fresh GET on a node that lags behind the log sends nothing the first stream had', async () => {
  const redis = await startRedis();
  const px = await delayingProxy(redis.port);
  const n1 = await startNode(redis.url, 'n1');
  const n2 = await startNode(process.env.NOPROXY ? redis.url : `redis://127.0.0.1:${px.port}`, 'n2');
  const s = await connectHttp(n1.url);
  const stream = new AbortController();
  try {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream',
      'mcp-session-id': s.transport.sessionId, 'mcp-protocol-version': '2025-11-25' };
    const ping = await fetch(n2.url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 'p', method: 'ping' }) });
    assert.equal(ping.status, 200);
    await ping.arrayBuffer();
    px.delayReplies = Number(process.env.REPLY_DELAY_MS ?? 300); // from here on: n2 reads late
    const mark = s.recorder.mark;
    await call(s, 'add_prompt', { name: 'seen-on-node-1' });
    await s.recorder.waitFor((m) => m.params?.name === 'seen-on-node-1', { from: mark, ms: 20000 });
    const res = await fetch(n2.url, { headers: { ...headers, accept: 'text/event-stream' }, signal: stream.signal });
    assert.equal(res.status, 200);
    const reader = res.body.getReader();
    let text = '';
    await call(s, 'add_prompt', { name: 'after-the-second-get' });
    while (!text.includes('after-the-second-get')) {
      const { value, done } = await reader.read(); // bounded by the change made just above
      assert.ok(!done, `stream ended: ${text}`);
      text += new TextDecoder().decode(value);
    }
    assert.ok(!text.includes('seen-on-node-1'), `sent again on a second stream: ${text}`);
  } finally {
    stream.abort();
    await s.close().catch(() => {});
    for (const n of [n1, n2]) await n.kill();
    await redis.stop(); px.server.close();
  }
});
