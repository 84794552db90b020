// One everything-server over Streamable HTTP, two wires at once: clients on
// the official TypeScript SDK v2 (2026-07-28: stateless, subscriptions/listen)
// and a client on SDK 1.32.2 (2025-11-25: session, resources/subscribe, GET
// stream), all seeing the same mutations.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client, StreamableHTTPClientTransport, SUBSCRIPTION_ID_META_KEY } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { connectHttp, serverPath, startHttpServer } from '../interop/lib/harness.mjs';

const UPDATED = 'notifications/resources/updated';
const TOOLS_CHANGED = 'notifications/tools/list_changed';
const PROMPTS_CHANGED = 'notifications/prompts/list_changed';

// A v2 client pinned to 2026-07-28 that records every notification it is handed.
async function modernClient(url, { capabilities = {}, setup = () => {} } = {}) {
  const client = new Client({ name: 'cafmcp-interop-v2', version: '1.0.0' },
    { capabilities, versionNegotiation: { mode: { pin: '2026-07-28' } } });
  setup(client);
  const seen = [];
  const waiters = [];
  for (const method of [UPDATED, TOOLS_CHANGED, PROMPTS_CHANGED]) {
    client.setNotificationHandler(method, (n) => {
      seen.push(n);
      for (const w of waiters.splice(0)) w();
    });
  }
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  // Resolves when `pred` holds over what arrived (bounded; never a sleep).
  const until = (pred, ms = 10000) => new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not seen in ${ms} ms: ${JSON.stringify(seen)}`)), ms);
    const check = () => {
      if (pred(seen)) { clearTimeout(timer); resolve(seen); } else waiters.push(check);
    };
    check();
  });
  return { client, seen, until };
}

// The same for an SDK 1.32.2 client on a 2025-11-25 session (its
// transport's recorder sees every message as it arrived).
async function legacyClient(url) {
  const s = await connectHttp(url);
  const notifications = () => s.recorder.messages.filter((m) => m.method && m.id === undefined);
  return {
    ...s,
    get seen() { return notifications(); },
    until: (pred, ms = 10000) => s.recorder.waitFor(() => pred(notifications()), { ms }),
  };
}

const subId = (n) => n.params?._meta?.[SUBSCRIPTION_ID_META_KEY];
const count = (seen, method, uri) => seen.filter((n) => n.method === method && (!uri || n.params?.uri === uri)).length;

describe('2026-07-28 listeners beside a 2025-11-25 session', () => {
  let server, url;
  before(async () => {
    server = startHttpServer();
    url = await server.url;
  });
  after(async () => { await server.stop(); });

  test('each gets exactly what it asked for, stamped with its subscription id', async () => {
    const driver = await modernClient(url); // makes the mutations
    const one = await modernClient(url);    // resources/updated for test://a only
    const tools = await modernClient(url);  // tools list_changed only
    const prompts = await modernClient(url); // prompts list_changed only (never tools)
    const legacy = await legacyClient(url);
    try {
      for (const uri of ['test://a', 'test://b'])
        await driver.client.callTool({ name: 'add_resource', arguments: { uri, name: uri, text: '0' } });
      const subOne = await one.client.listen({ resourceSubscriptions: ['test://a'] });
      assert.deepEqual(subOne.honoredFilter.resourceSubscriptions, ['test://a']);
      const subTools = await tools.client.listen({ toolsListChanged: true });
      assert.equal(subTools.honoredFilter.toolsListChanged, true);
      const subPrompts = await prompts.client.listen({ promptsListChanged: true });
      await legacy.client.subscribeResource({ uri: 'test://a' });
      const stats = (await driver.client.callTool({ name: 'server_stats', arguments: {} })).structuredContent;
      assert.equal(stats.listeners, 3);

      await driver.client.callTool({ name: 'update_resource', arguments: { uri: 'test://b', text: '1' } });
      await driver.client.callTool({ name: 'add_tool', arguments: { name: 'v2_added' } });
      await driver.client.callTool({ name: 'update_resource', arguments: { uri: 'test://a', text: '1' } });
      await driver.client.callTool({ name: 'add_prompt', arguments: { name: 'v2_prompt' } });

      // The last mutation each one wants is its barrier: what came before has arrived.
      await one.until((s) => count(s, UPDATED, 'test://a') === 1);
      assert.equal(one.seen.length, 1, JSON.stringify(one.seen));
      assert.ok(subId(one.seen[0]), 'resources/updated carries the subscription id');

      await tools.until((s) => count(s, TOOLS_CHANGED) === 1);
      assert.ok(subId(tools.seen[0]));
      assert.notEqual(subId(tools.seen[0]), undefined);

      await prompts.until((s) => count(s, PROMPTS_CHANGED) === 1);
      assert.equal(count(prompts.seen, TOOLS_CHANGED), 0, 'tools list_changed only when opted in');
      assert.equal(count(prompts.seen, UPDATED), 0);
      assert.ok(subId(prompts.seen[0]));

      // The 2025-11-25 session got its own, for the same mutations, without subscription ids.
      await legacy.until((s) => count(s, UPDATED, 'test://a') === 1 && count(s, TOOLS_CHANGED) === 1);
      assert.equal(count(legacy.seen, UPDATED, 'test://b'), 0);
      assert.ok(legacy.seen.every((n) => subId(n) === undefined));

      // Closing a subscription removes its listener at once.
      await subOne.close();
      await subTools.close();
      await subPrompts.close();
      for (let i = 0; i < 400; i++) {
        const s = (await driver.client.callTool({ name: 'server_stats', arguments: {} })).structuredContent;
        if (s.listeners === 0) break;
        assert.ok(i < 399, `listeners left: ${s.listeners}`);
      }
    } finally {
      await Promise.all([driver, one, tools, prompts].map((c) => c.client.close()));
      await legacy.close();
    }
  });

  test('multi-round-trip input: the SDK fulfils input_required with its elicitation handler and retries', async () => {
    const asked = [];
    const { client } = await modernClient(url, {
      capabilities: { elicitation: {} },
      setup: (c) => c.setRequestHandler('elicitation/create', async (req) => {
        asked.push(req.params.message);
        return { action: 'accept', content: { name: 'Ada' } };
      }),
    });
    try {
      const r = await client.callTool({ name: 'test_input_required_result_elicitation', arguments: {} });
      assert.equal(r.content?.[0]?.text, 'Hello, Ada!', JSON.stringify(r));
      assert.deepEqual(asked, ['What is your name?']);
      // Three rounds, the state sealed by the server in between.
      const m = await client.callTool({ name: 'test_input_required_result_multi_round', arguments: {} });
      assert.equal(m.content?.[0]?.text, 'Multi-round complete for Ada who likes unknown', // the handler answers 'name' only
        JSON.stringify(m));
    } finally {
      await client.close();
    }
  });
});

test('stdio: a listen stream on the shared channel carries only its kinds, each stamped with its id', async () => {
  const client = new Client({ name: 'cafmcp-interop-v2', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  const seen = [];
  let wake = () => {};
  for (const method of [TOOLS_CHANGED, PROMPTS_CHANGED, UPDATED])
    client.setNotificationHandler(method, (n) => { seen.push(n); wake(); });
  await client.connect(new StdioClientTransport({ command: serverPath, args: ['--stdio'] }));
  try {
    const sub = await client.listen({ toolsListChanged: true });
    await client.callTool({ name: 'add_tool', arguments: { name: 'stdio_marker' } });
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`marker not seen: ${JSON.stringify(seen)}`)), 10000);
      wake = () => { if (seen.some((n) => JSON.stringify(n).includes('stdio_marker'))) { clearTimeout(timer); resolve(); } };
      wake();
    });
    // Start-up registrations may also have been broadcast: every one is a tools change with our id.
    assert.ok(seen.every((n) => n.method === TOOLS_CHANGED), JSON.stringify(seen.map((n) => n.method)));
    const ids = new Set(seen.map(subId));
    assert.equal(ids.size, 1);
    assert.ok([...ids][0], 'stamped with the subscription id');
    await sub.close();
  } finally {
    await client.close();
  }
});
