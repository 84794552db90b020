// 2026-07-28 clients (official TypeScript SDK v2) against three
// everything-server nodes on one Redis change log behind haproxy
// (round-robin, no affinity): each stateless request lands on any node, a
// subscriptions/listen stream on one node hears every node's changes once
// and in order, and requestState sealed by one node opens on another.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startCluster } from '../interop/lib/cluster.mjs';

const CHANGE_META = 'io.cafmcp/change';
const METHODS = ['notifications/tools/list_changed', 'notifications/prompts/list_changed', 'notifications/resources/updated'];
const nameOf = (n) => n.params?._meta?.[CHANGE_META]?.name ?? n.params?.uri ?? '';

async function modernClient(url, { capabilities = {}, setup = () => {} } = {}) {
  const client = new Client({ name: 'cafmcp-cluster-v2', version: '1.0.0' },
    { capabilities, versionNegotiation: { mode: { pin: '2026-07-28' } } });
  setup(client);
  const seen = [];
  const waiters = [];
  for (const method of METHODS)
    client.setNotificationHandler(method, (n) => { seen.push(n); for (const w of waiters.splice(0)) w(); });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const until = (pred, ms = 20000) => new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not seen in ${ms} ms: ${JSON.stringify(seen.map(nameOf))}`)), ms);
    const check = () => { if (pred(seen)) { clearTimeout(timer); resolve(seen); } else waiters.push(check); };
    check();
  });
  return { client, seen, until };
}

describe('2026-07-28 clients on three nodes behind haproxy', () => {
  let cluster;
  before(async () => { cluster = await startCluster(3); });
  after(async () => { await cluster?.stop(); });

  test('a listen stream on node 3 hears the changes made on every node, once each, in one order', async () => {
    const onThree = await modernClient(cluster.nodes[2].url);
    const viaProxy = await modernClient(cluster.proxy.url);
    const drivers = [];
    for (const n of cluster.nodes) drivers.push(await modernClient(n.url));
    try {
      const subs = [await onThree.client.listen({ toolsListChanged: true, promptsListChanged: true }),
        await viaProxy.client.listen({ toolsListChanged: true, promptsListChanged: true })];
      const made = [];
      for (let i = 0; i < 30; i++) { // node 1, 2, 3, 1, ... in turn, one at a time
        const name = `v2-${i}`;
        await drivers[i % 3].client.callTool({ name: i % 2 ? 'add_tool' : 'add_prompt', arguments: { name } });
        made.push(name);
      }
      await onThree.until((s) => s.some((n) => nameOf(n) === 'v2-29'));
      await viaProxy.until((s) => s.some((n) => nameOf(n) === 'v2-29'));
      // One at a time: the log's order is the order they were made in.
      assert.deepEqual(onThree.seen.map(nameOf), made);
      assert.deepEqual(viaProxy.seen.map(nameOf), made);
      for (const s of subs) await s.close();
    } finally {
      await Promise.all([onThree, viaProxy, ...drivers].map((c) => c.client.close()));
    }
  });

  test('a multi-round request whose rounds land on different nodes completes: they share the requestState key', async () => {
    const { client } = await modernClient(cluster.proxy.url, {
      capabilities: { elicitation: {} },
      setup: (c) => c.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { name: 'Ada' } })),
    });
    try {
      for (let i = 0; i < 3; i++) { // three rounds each, round-robin over three nodes
        const m = await client.callTool({ name: 'test_input_required_result_multi_round', arguments: {} });
        assert.equal(m.content?.[0]?.text, 'Multi-round complete for Ada who likes unknown', JSON.stringify(m));
      }
    } finally {
      await client.close();
    }
  });
});
