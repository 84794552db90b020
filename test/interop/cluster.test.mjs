// Three everything-server nodes sharing one change log in a real
// redis-server, haproxy in front, the official TypeScript SDK client on
// each node: every change reaches every session on every node exactly once
// and in one order, through an outage of Redis too.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { connectHttp, connectWith, serverPath } from './lib/harness.mjs';
import { startCluster, pauseProcess } from './lib/cluster.mjs';
import { rawSession, openStream, notificationsOf } from './lib/raw-http.mjs';

const LIST_CHANGED = /^notifications\/(resources|tools|prompts)\/list_changed$/;
const UPDATED = 'notifications/resources/updated';
const isChange = (m) => m.id === undefined && (LIST_CHANGED.test(m.method ?? '') || m.method === UPDATED);
// What identifies one change: method, operation, uri|name (the metadata is
// in params, as --change-metadata both puts it).
const summary = (m) => `${m.method} ${m.params?.operation ?? ''} ${m.params?.uri ?? m.params?.name ?? ''}`;
const changes = (s, from = 0) => s.recorder.messages.slice(from).filter(isChange).map(summary);

// Waits (bounded) until `s` heard a change naming `marker`; returns every
// change it heard from `from` on, up to and including it.
async function heardUntil(s, marker, from = 0, ms = 20000) {
  await s.recorder.waitFor((m) => isChange(m) && summary(m).endsWith(` ${marker}`), { ms, from });
  const all = changes(s, from);
  return all.slice(0, all.findIndex((c) => c.endsWith(` ${marker}`)) + 1);
}

const call = (s, name, args) => s.client.callTool({ name, arguments: args });

async function health(url) {
  const res = await fetch(new URL('/healthz', url));
  return { status: res.status, body: await res.json() };
}

// /healthz's body once its status is `status`: a bounded probe of a state
// the node changes by itself (it notices an outage within its log timeout).
async function healthBecomes(url, status, tries = 100) {
  let h;
  for (let i = 0; i < tries; i++) {
    h = await health(url);
    if (h.body.status === status) return h.body;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`${url} never said ${status}: ${JSON.stringify(h)}`);
}

describe('three nodes behind haproxy on one Redis change log', () => {
  let cluster, sessions;
  before(async () => {
    cluster = await startCluster(3);
    sessions = [];
    for (const n of cluster.nodes) // two sessions per node, each on its node
      for (let i = 0; i < 2; i++) sessions.push(await connectHttp(n.url));
  });
  after(async () => {
    for (const s of sessions ?? []) await s.close().catch(() => {});
    await cluster?.stop();
  });

  test('every node is healthy, directly and as haproxy sees it', async () => {
    for (const n of cluster.nodes) assert.deepEqual(await health(n.url), { status: 200, body: { status: 'ok' } });
    assert.equal((await health(cluster.proxy.url)).body.status, 'ok');
  });

  test('a change on node 1 reaches the sessions on nodes 2 and 3 exactly once', async () => {
    const marks = sessions.map((s) => s.recorder.mark);
    await call(sessions[0], 'add_resource', { uri: 'test://from-n1', name: 'from n1', text: 'x' });
    await call(sessions[4], 'add_prompt', { name: 'after-n1' }); // a marker from node 3
    for (const [i, s] of sessions.entries())
      assert.deepEqual(await heardUntil(s, 'after-n1', marks[i]), [
        'notifications/resources/list_changed added test://from-n1',
        'notifications/prompts/list_changed added after-n1',
      ], `session ${i}`);
    // The data-only resource was recreated on node 2: its session reads it.
    const read = await sessions[2].client.readResource({ uri: 'test://from-n1' });
    assert.equal(read.contents[0].text, 'x');
  });

  test('a burst of 200 mixed changes from all three nodes arrives in one order at every session', async () => {
    const marks = sessions.map((s) => s.recorder.mark);
    const kinds = [
      (tag) => ['add_resource', { uri: `test://${tag}`, name: tag, text: tag }],
      (tag) => ['add_tool', { name: `t-${tag}` }],
      (tag) => ['add_prompt', { name: `p-${tag}` }],
    ];
    const calls = [];
    // Concurrently, from both sessions of each node: at most 34 calls in
    // flight per session, inside the server's per-session limit (64). From
    // one session per node, 67 each met that limit when a slow (sanitized)
    // build had them all in flight at once.
    for (let i = 0; i < 200; i++) {
      const [name, args] = kinds[i % 3](`b${i}`);
      calls.push(call(sessions[(i % 3) * 2 + (Math.floor(i / 3) % 2)], name, args));
    }
    const results = await Promise.all(calls);
    assert.equal(results.filter((r) => r.isError).length, 0, JSON.stringify(results.filter((r) => r.isError)));
    await call(sessions[1], 'add_prompt', { name: 'burst-end' });
    const first = await heardUntil(sessions[0], 'burst-end', marks[0]);
    assert.equal(first.length, 201);
    assert.equal(new Set(first).size, 201, 'no change twice');
    for (const [i, s] of sessions.entries())
      assert.deepEqual(await heardUntil(s, 'burst-end', marks[i]), first, `session ${i}`);
  });

  test('Redis stopped while changes are made: every session catches up when it continues, nothing lost or doubled', async () => {
    const marks = sessions.map((s) => s.recorder.mark);
    await cluster.redis.pause();
    // Each call is answered once its change is in the log: not while Redis is stopped.
    const pending = [];
    for (let i = 0; i < 30; i++)
      pending.push(call(sessions[(i % 3) * 2 + 1], 'add_prompt', { name: `outage-${i}` }));
    // Every node notices and says so (haproxy keeps them: degraded nodes still serve).
    for (const n of cluster.nodes)
      assert.match((await healthBecomes(n.url, 'degraded')).reason, /log (reader|writer)/);
    // Requests that need no log are served meanwhile.
    assert.ok((await sessions[3].client.listTools()).tools.length > 0);
    cluster.redis.resume();
    await Promise.all(pending);
    await call(sessions[0], 'add_prompt', { name: 'outage-end' });
    const first = await heardUntil(sessions[0], 'outage-end', marks[0]);
    assert.equal(first.length, 31);
    assert.deepEqual([...first].sort(), [...Array(30).keys()].map((i) => `notifications/prompts/list_changed added outage-${i}`)
      .concat(['notifications/prompts/list_changed added outage-end']).sort());
    for (const [i, s] of sessions.entries())
      assert.deepEqual(await heardUntil(s, 'outage-end', marks[i]), first, `session ${i}`);
    // Healthy again once each node's writer and reader have reached Redis.
    for (const n of cluster.nodes) await healthBecomes(n.url, 'ok');
  });
});

describe('2025-11-25 sessions through haproxy, each pinned to the node that created it', () => {
  let cluster;
  before(async () => { cluster = await startCluster(3, () => [], { affinity: true }); });
  after(async () => { await cluster?.stop(); });

  test('sessions spread over the nodes hear every change once, in one order; a node killed takes only its own sessions', async () => {
    const sessions = [];
    for (let i = 0; i < 6; i++) sessions.push(await connectHttp(cluster.proxy.url));
    try {
      // Round-robin at initialize: every node holds some of them.
      const holders = await Promise.all(cluster.nodes.map(async (n) => {
        const direct = await connectHttp(n.url);
        const stats = (await call(direct, 'server_stats', {})).structuredContent;
        await direct.close();
        return stats.sessions - 1; // not counting the one asking
      }));
      assert.deepEqual(holders, [2, 2, 2]);
      const calls = [];
      for (let i = 0; i < 30; i++) calls.push(call(sessions[i % 6], 'add_prompt', { name: `via-proxy-${i}` }));
      await Promise.all(calls);
      await call(sessions[0], 'add_prompt', { name: 'via-proxy-end' });
      const first = await heardUntil(sessions[0], 'via-proxy-end');
      assert.equal(first.filter((c) => c.includes('via-proxy-')).length, 31);
      for (const [i, s] of sessions.entries())
        assert.deepEqual(await heardUntil(s, 'via-proxy-end'), first, `session ${i}`);

      // kill -9 one node: the sessions whose GET streams it held go with it,
      // the others hear on. (Made directly on each node, so it is known
      // where they are: any node would answer a probe for any session.)
      const direct = [];
      for (const n of cluster.nodes) direct.push(await connectHttp(n.url));
      await cluster.nodes[1].kill();
      const marks = direct.map((s) => s.recorder.mark);
      await call(direct[0], 'add_prompt', { name: 'after-kill' });
      for (const i of [0, 2])
        assert.deepEqual(await heardUntil(direct[i], 'after-kill', marks[i]),
          ['notifications/prompts/list_changed added after-kill'], `session on node ${i + 1}`);
      for (const i of [0, 2]) await direct[i].close();
      // A new session through haproxy lands on a live node and hears the next change.
      let fresh;
      for (let tries = 0; !fresh; tries++) { // haproxy may still try the dead node once: the client retries
        try { fresh = await connectHttp(cluster.proxy.url); } catch (e) { assert.ok(tries < 5, String(e)); }
      }
      await call(fresh, 'add_prompt', { name: 'fresh-hears' });
      assert.deepEqual(await heardUntil(fresh, 'fresh-hears'), ['notifications/prompts/list_changed added fresh-hears']);
      await fresh.close();
    } finally {
      for (const s of sessions) await s.close().catch(() => {});
    }
  });
});

describe('2025-11-25 sessions through haproxy with no affinity: any node serves any session', () => {
  let cluster;
  before(async () => { cluster = await startCluster(3); });
  after(async () => { await cluster?.stop(); });

  test('each request lands on the next node, and the session, its subscription and its GET stream follow', async () => {
    const driver = await connectHttp(cluster.nodes[0].url); // makes the changes, on node 1
    const roaming = await connectHttp(cluster.proxy.url);  // every request round-robin
    try {
      await call(driver, 'add_resource', { uri: 'test://roam', name: 'roam', text: '0' });
      // Requests land on every node in turn: each serves the session it did not start.
      for (let i = 0; i < 6; i++)
        assert.ok((await roaming.client.listTools()).tools.length > 0);
      await roaming.client.subscribeResource({ uri: 'test://roam' });
      const mark = roaming.recorder.mark;
      await call(driver, 'update_resource', { uri: 'test://roam', text: '1' });
      await call(driver, 'add_prompt', { name: 'roam-end' });
      // The subscription, made on whichever node took it, holds wherever the GET stream is.
      assert.deepEqual(await heardUntil(roaming, 'roam-end', mark), [
        'notifications/resources/updated  test://roam',
        'notifications/prompts/list_changed added roam-end',
      ]);
      await roaming.client.unsubscribeResource({ uri: 'test://roam' });
      const after = roaming.recorder.mark;
      await call(driver, 'update_resource', { uri: 'test://roam', text: '2' });
      await call(driver, 'add_prompt', { name: 'roam-unsubscribed' });
      assert.deepEqual(await heardUntil(roaming, 'roam-unsubscribed', after),
        ['notifications/prompts/list_changed added roam-unsubscribed']);
    } finally {
      await driver.close();
      await roaming.close();
    }
  });

  test('a fresh GET on another node starts from now: what that node kept meanwhile went out on the first stream', async () => {
    const s = await connectHttp(cluster.nodes[0].url); // its GET stream is on node 1
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream',
      'mcp-session-id': s.transport.sessionId, 'mcp-protocol-version': '2025-11-25' };
    const stream = new AbortController();
    try {
      // Node 2 serves one request of the session: it holds a copy from then on.
      const ping = await fetch(cluster.nodes[1].url, { method: 'POST', headers,
        body: JSON.stringify({ jsonrpc: '2.0', id: 'p', method: 'ping' }) });
      assert.equal(ping.status, 200);
      await ping.arrayBuffer();
      const mark = s.recorder.mark;
      await call(s, 'add_prompt', { name: 'seen-on-node-1' });
      assert.deepEqual(await heardUntil(s, 'seen-on-node-1', mark), ['notifications/prompts/list_changed added seen-on-node-1']);
      // A GET without Last-Event-ID on node 2, then one more change.
      const res = await fetch(cluster.nodes[1].url, { headers: { ...headers, accept: 'text/event-stream' }, signal: stream.signal });
      assert.equal(res.status, 200);
      const reader = res.body.getReader();
      let text = '';
      const readUntil = async (needle, ms = 10000) => {
        const deadline = Date.now() + ms;
        while (!text.includes(needle)) {
          assert.ok(Date.now() < deadline, `no ${needle} in ${text}`);
          const { value, done } = await reader.read();
          assert.ok(!done, `stream ended before ${needle}`);
          text += new TextDecoder().decode(value);
        }
      };
      await readUntil('retry:'); // primed: attached
      await call(s, 'add_prompt', { name: 'after-the-second-get' });
      await readUntil('after-the-second-get');
      assert.ok(!text.includes('seen-on-node-1'), `sent again on a second stream: ${text}`);
    } finally {
      stream.abort();
      await s.close();
    }
  });

  test("a session's first GET stream, on either node, carries what the log told the session before it opened", async () => {
    const writer = await connectHttp(cluster.nodes[0].url);
    try {
      for (const [made, streamed] of [[0, 0], [0, 1]]) {
        const raw = await rawSession(cluster.nodes[made].url); // no GET stream yet
        const name = `before-the-first-get-${made}-${streamed}`;
        await call(writer, 'add_prompt', { name }); // answered once logged
        const first = await openStream(cluster.nodes[streamed].url, raw);
        assert.equal(first.status, 200, first.body);
        const told = await first.until((e) => e.data?.params?.name === name);
        assert.equal(told.data.method, 'notifications/prompts/list_changed');
        first.close();
        assert.equal(first.events.filter((e) => e.data?.params?.name === name).length, 1);
      }
    } finally {
      await writer.close();
    }
  });

  test('a GET stream resumes on another node with what its session missed there, and nothing twice', async () => {
    const writer = await connectHttp(cluster.nodes[1].url);
    const raw = await rawSession(cluster.nodes[0].url);
    await call(writer, 'add_resource', { uri: 'test://resumed', name: 'resumed', text: '0' });
    await raw.subscribe('test://resumed');
    const first = await openStream(cluster.nodes[0].url, raw);
    await call(writer, 'update_resource', { uri: 'test://resumed', text: '1' });
    const seen = await first.until((e) => e.data?.method === UPDATED);
    first.close();
    // Meanwhile: two updates, a list change and one of a resource it did not subscribe to.
    await call(writer, 'update_resource', { uri: 'test://resumed', text: '2' });
    await call(writer, 'add_prompt', { name: 'while-away' });
    await call(writer, 'add_resource', { uri: 'test://not-subscribed', name: 'other', text: 'y' });
    await call(writer, 'update_resource', { uri: 'test://not-subscribed', text: 'z' });
    await call(writer, 'update_resource', { uri: 'test://resumed', text: '3' });
    const resumed = await openStream(cluster.nodes[2].url, raw, seen.id);
    assert.equal(resumed.status, 200);
    await resumed.until((e) => e.data?.method === UPDATED, { from: 2 });
    const missed = notificationsOf(resumed.events).map((m) => `${m.method} ${m.params.uri ?? m.params.name ?? ''}`);
    assert.deepEqual(missed, [
      `${UPDATED} test://resumed`,
      'notifications/prompts/list_changed while-away',
      'notifications/resources/list_changed test://not-subscribed',
      `${UPDATED} test://resumed`,
    ]);
    // Every event id is another node's and this one's alike: ordered, none twice.
    const ids = resumed.events.map((e) => e.id);
    assert.equal(ids[0], seen.id, 'the priming event repeats the last id');
    assert.equal(new Set(ids.slice(1)).size, ids.length - 1);
    resumed.close();
    await writer.close();
  });

  test('a DELETE on one node ends the copies other nodes serve, their streams included', async () => {
    const raw = await rawSession(cluster.nodes[0].url);
    assert.equal(await raw.status('ping', {}, cluster.nodes[1].url), 200); // node 2 serves a copy
    const stream = await openStream(cluster.nodes[1].url, raw);
    assert.equal(stream.status, 200);
    assert.equal(await raw.end(cluster.nodes[2].url), 200);
    await stream.end(); // node 2 read the end from the log
    assert.equal(await raw.status('ping', {}, cluster.nodes[2].url), 404, 'the node that ended it');
    assert.equal(await raw.status('ping', {}, cluster.nodes[1].url), 404, 'the node whose copy ended');
    // Node 1, where it started, ends its copy when it reads the end (bounded).
    let status;
    for (let i = 0; i < 100 && (status = await raw.status('ping', {}, cluster.nodes[0].url)) !== 404; i++)
      await new Promise((r) => setTimeout(r, 20));
    assert.equal(status, 404, 'the node that started it');
  });

  test('a Last-Event-ID that is not one of the cluster\'s is refused plainly', async () => {
    const raw = await rawSession(cluster.nodes[0].url);
    const foreign = await openStream(cluster.nodes[1].url, raw, '0-5');
    assert.equal(foreign.status, 410);
  });

  test('an id no node issued is still unknown everywhere', async () => {
    const res = await fetch(cluster.nodes[2].url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream',
        'mcp-session-id': '0123456789abcdef0123456789abcdef', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    assert.equal(res.status, 404);
  });
});

describe('a session whose node is killed mid-stream', () => {
  let cluster;
  before(async () => { cluster = await startCluster(3); });
  after(async () => { await cluster?.stop(); });

  test('resumes through haproxy with Last-Event-ID: exactly the 50 updates made meanwhile, in order', async () => {
    const uris = [0, 1, 2, 3, 4].map((i) => `test://killed/${i}`);
    const writer = await connectHttp(cluster.nodes[1].url);
    try {
      for (const uri of [...uris, 'test://killed/end'])
        await call(writer, 'add_resource', { uri, name: uri, text: '0' });
      // The session lives on node 1: created, subscribed and streaming there.
      const raw = await rawSession(cluster.nodes[0].url);
      for (const uri of [...uris, 'test://killed/end']) await raw.subscribe(uri);
      const before = await openStream(cluster.nodes[0].url, raw);
      await call(writer, 'update_resource', { uri: uris[0], text: 'seen' });
      const seen = await before.until((e) => e.data?.method === UPDATED);
      await cluster.nodes[0].kill(); // SIGKILL: no goodbye
      const expected = [];
      for (let i = 0; i < 50; i++) {
        const uri = uris[i % uris.length];
        await call(writer, 'update_resource', { uri, text: `v${i}` });
        expected.push(uri);
      }
      const resumed = await openStream(cluster.proxy.url, raw, seen.id);
      assert.equal(resumed.status, 200, resumed.body);
      // A last update after them: what precedes it is everything missed.
      await call(writer, 'update_resource', { uri: 'test://killed/end', text: 'end' });
      await resumed.until((e) => e.data?.params?.uri === 'test://killed/end');
      const got = notificationsOf(resumed.events);
      assert.deepEqual(got.map((m) => m.method), Array(51).fill(UPDATED));
      assert.deepEqual(got.map((m) => m.params.uri), [...expected, 'test://killed/end']);
      resumed.close();
      before.close();
    } finally {
      await writer.close();
    }
  });
});

describe('the TypeScript SDK through haproxy when the node of its GET stream is killed', () => {
  let cluster;
  before(async () => { cluster = await startCluster(3); });
  after(async () => { await cluster?.stop(); });

  test('resumes on another node by itself and hears every change, once, in order', async () => {
    let streamNode; // the node haproxy gave the SDK's GET stream to
    const fetchNoting = async (url, init) => {
      const res = await fetch(url, init);
      if ((init?.method ?? 'GET') === 'GET' && res.ok) streamNode = res.headers.get('x-cafmcp-node');
      return res;
    };
    const transport = new StreamableHTTPClientTransport(new URL(cluster.proxy.url), {
      fetch: fetchNoting,
      reconnectionOptions: { initialReconnectionDelay: 200, maxReconnectionDelay: 1000, reconnectionDelayGrowFactor: 1.5, maxRetries: 10 },
    });
    const s = await connectWith(transport, { name: 'cafmcp-interop-cluster' });
    let writer;
    try {
      for (let i = 0; i < 500 && !streamNode; i++) await new Promise((r) => setTimeout(r, 20)); // bounded: 10 s
      assert.ok(streamNode, 'the SDK opened its GET stream');
      const victim = cluster.nodes.find((n) => n.nodeId === streamNode);
      writer = await connectHttp(cluster.nodes.find((n) => n !== victim).url);
      await call(writer, 'add_resource', { uri: 'test://sdk-killed', name: 'sdk-killed', text: '0' });
      await s.client.subscribeResource({ uri: 'test://sdk-killed' });
      await call(writer, 'update_resource', { uri: 'test://sdk-killed', text: 'seen' });
      await s.recorder.waitFor((m) => m.method === UPDATED, { ms: 20000 });
      const mark = s.recorder.mark;
      await victim.kill();
      const expected = [];
      for (let i = 0; i < 20; i++) {
        await call(writer, i % 5 === 4 ? 'add_prompt' : 'update_resource',
          i % 5 === 4 ? { name: `sdk-${i}` } : { uri: 'test://sdk-killed', text: `v${i}` });
        expected.push(i % 5 === 4 ? `notifications/prompts/list_changed added sdk-${i}` : `${UPDATED}  test://sdk-killed`);
      }
      await call(writer, 'add_prompt', { name: 'sdk-end' });
      assert.deepEqual(await heardUntil(s, 'sdk-end', mark), [...expected, 'notifications/prompts/list_changed added sdk-end']);
      assert.notEqual(streamNode, victim.nodeId, 'the stream moved to another node');
    } finally {
      await writer?.close();
      await s.close().catch(() => {});
    }
  });
});

describe('a server->client request whose answer lands on another node', () => {
  let cluster;
  before(async () => { cluster = await startCluster(3); });
  after(async () => { await cluster?.stop(); });

  test('reaches the handler that asked, through haproxy with no affinity', async () => {
    const served = []; // [what the POST carried, a promise of the node that took it]
    const fetchNoting = (url, init) => {
      const res = fetch(url, init);
      if (init?.method === 'POST') { // noted as sent: its answer may come after the tool's result
        const body = JSON.parse(init.body);
        const what = body.method ?? (body.result ? 'answer' : body.error ? 'error' : '?');
        served.push([what === 'tools/call' ? `tools/call ${body.params.name}` : what,
          res.then((r) => r.headers.get('x-cafmcp-node'))]);
      }
      return res;
    };
    const transport = new StreamableHTTPClientTransport(new URL(cluster.proxy.url), { fetch: fetchNoting });
    const s = await connectWith(transport, { name: 'cafmcp-interop-cluster', capabilities: { sampling: {} } });
    s.client.setRequestHandler(CreateMessageRequestSchema, async (req) => ({
      role: 'assistant', model: 'test-model',
      content: { type: 'text', text: `echo: ${req.params.messages[0].content.text}` },
    }));
    try {
      const result = await s.client.callTool({ name: 'test_sampling', arguments: { prompt: 'across nodes' } });
      assert.match(result.content[0].text, /echo: across nodes/);
      const asked = await served.find(([what]) => what === 'tools/call test_sampling')[1];
      const answered = await served.find(([what]) => what === 'answer')[1];
      assert.notEqual(answered, asked, `the answer went to the node that asked (${asked}): nothing crossed`);
    } finally {
      await s.close().catch(() => {});
    }
  });
});

describe('a message to one session that is not a change', () => {
  let cluster;
  before(async () => { cluster = await startCluster(2, () => ['--client-request-timeout-ms', '200']); });
  after(async () => { await cluster?.stop(); });

  test('reaches its GET stream on another node, in the log\'s order', async () => {
    const raw = await rawSession(cluster.nodes[0].url, { sampling: {} });
    const stream = await openStream(cluster.nodes[1].url, raw); // the stream on node 2
    // Node 1 asks the client, which never answers: the handler gives up and
    // node 1 cancels its request; the cancellation belongs to no request.
    const text = await raw.post('tools/call', { name: 'test_sampling', arguments: { prompt: 'x' } });
    assert.match(text, /did not answer/);
    const cancelled = await stream.until((e) => e.data?.method === 'notifications/cancelled');
    assert.match(cancelled.data.params.requestId, /^cafmcp-/);
    assert.match(cancelled.id, /^L\d+-\d+\.0\.0$/, 'named by its place in the log');
    stream.close();
  });
});

describe('a node paused past its stream lease', () => {
  const LEASE_MS = 1500;
  let cluster;
  before(async () => { cluster = await startCluster(3, () => ['--stream-lease-ms', String(LEASE_MS)]); });
  after(async () => { await cluster?.stop(); });

  test('writes nothing more to a GET stream another node took over meanwhile', async () => {
    const near = await connectHttp(cluster.nodes[0].url); // changes on node 1 follow its claim in the log
    const far = await connectHttp(cluster.nodes[2].url);
    try {
      await call(near, 'add_resource', { uri: 'test://fenced', name: 'fenced', text: '0' });
      const raw = await rawSession(cluster.nodes[0].url);
      await raw.subscribe('test://fenced');
      const old = await openStream(cluster.nodes[0].url, raw);
      await call(near, 'update_resource', { uri: 'test://fenced', text: 'before' });
      const seen = await old.until((e) => e.data?.method === UPDATED);
      const heard = old.events.length;
      await pauseProcess(cluster.nodes[0].child);
      // Logged while node 1 cannot read them; then it stays stopped past its
      // lease (the scenario's condition: a duration, not a synchronisation).
      for (let i = 0; i < 5; i++) await call(far, 'update_resource', { uri: 'test://fenced', text: `paused ${i}` });
      await new Promise((r) => setTimeout(r, LEASE_MS + 500));
      const taken = await openStream(cluster.nodes[1].url, raw, seen.id);
      assert.equal(taken.status, 200, taken.body);
      cluster.nodes[0].child.kill('SIGCONT');
      await call(far, 'update_resource', { uri: 'test://fenced', text: 'after' });
      await taken.until((e, k) => notificationsOf(taken.events).length === 6);
      // Node 1 read the five, the takeover and the last change: its stream
      // ends without another event.
      await old.end();
      assert.equal(old.events.length, heard, JSON.stringify(old.events) + " seen " + seen.id + " taken " + JSON.stringify(taken.events));
      taken.close();
    } finally {
      cluster.nodes[0].child.kill('SIGCONT');
      await near.close().catch(() => {});
      await far.close();
    }
  });
});

describe('a node whose outbox overflows while Redis is stopped', () => {
  let cluster;
  before(async () => { cluster = await startCluster(2, (i) => (i === 1 ? ['--outbox-limit', '3'] : [])); });
  after(async () => { await cluster?.stop(); });

  test('sends the resync fallback to every session instead of silence', async () => {
    const a = await connectHttp(cluster.nodes[0].url);
    const b = await connectHttp(cluster.nodes[1].url);
    try {
      await call(a, 'add_resource', { uri: 'test://watched', name: 'watched', text: '0' });
      await heardUntil(b, 'test://watched');
      await b.client.subscribeResource({ uri: 'test://watched' });
      const mark = b.recorder.mark;
      const stats = async () => (await call(a, 'server_stats', {})).structuredContent;
      await cluster.redis.pause();
      const pending = [];
      for (let i = 0; i < 10; i++) pending.push(call(a, 'add_prompt', { name: `lost-${i}` }));
      // The node counts its outbox's overflows (server_stats needs no log).
      for (let tries = 0; (await stats()).logOverflows === 0; tries++)
        assert.ok(tries < 200, 'the outbox of 3 never overflowed with 10 changes waiting');
      cluster.redis.resume();
      const results = await Promise.all(pending);
      assert.equal(results.filter((r) => r.isError).length, 0);
      await call(a, 'add_prompt', { name: 'resync-end' });
      const heard = await heardUntil(b, 'resync-end', mark);
      for (const kind of ['resources', 'tools', 'prompts'])
        assert.ok(heard.includes(`notifications/${kind}/list_changed  `), `plain ${kind} list_changed in ${JSON.stringify(heard)}`);
      assert.ok(heard.includes('notifications/resources/updated  test://watched'), JSON.stringify(heard));
      // What the overflow dropped is not also sent: the survivors are the
      // ones queued after the resync.
      const lost = heard.filter((h) => / lost-\d+$/.test(h));
      assert.ok(lost.length < 10, JSON.stringify(heard));
    } finally {
      await a.close();
      await b.close();
    }
  });
});

test('a node started without --cluster-secret refuses to start, naming it', async () => {
  const child = spawn(serverPath, ['--http', '--port', '0', '--cluster', 'redis://127.0.0.1:1'],
    { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, CAFMCP_CLUSTER_SECRET: '' } });
  let err = '';
  child.stderr.on('data', (d) => { err += d; });
  const code = await new Promise((resolve) => child.on('close', resolve)); // after its stderr is read
  assert.equal(code, 2);
  assert.match(err, /--cluster-secret/);
});
