// everything-server over Streamable HTTP, driven by three official
// TypeScript SDK clients at once: with one event loop, and with three, where
// the SDK's connections (POSTs and GET streams alike) land on any loop and
// move to their session's.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { connectHttp, isMethod, startHttpServer } from './lib/harness.mjs';

const RES_CHANGED = 'notifications/resources/list_changed';
const TOOLS_CHANGED = 'notifications/tools/list_changed';
const UPDATED = 'notifications/resources/updated';

async function stats(client) {
  return (await client.callTool({ name: 'server_stats', arguments: {} })).structuredContent;
}

// Polls the notifier through a real request until `pred` holds, for at most
// `ms`. Bounded in time, not in round trips: a killed client's session ends
// after the server's idle timeout (300 ms here, checked every 75 ms), and 400
// round trips once took only 543 ms on a fast run beside the rest of the suite.
async function eventually(client, pred, ms = 10000) {
  const until = Date.now() + ms;
  let last;
  do {
    last = await stats(client);
    if (pred(last)) return last;
  } while (Date.now() < until);
  assert.fail(`condition never held in ${ms} ms; last stats ${JSON.stringify(last)}`);
}

for (const loops of [1, 3])
describe(`three sessions over Streamable HTTP, ${loops} event loop(s)`, () => {
  let server, url, a, b, c;
  before(async () => {
    server = startHttpServer(['--session-idle-timeout-ms', '300', '--event-loops', String(loops)]);
    url = await server.url;
    [a, b, c] = await Promise.all([connectHttp(url), connectHttp(url), connectHttp(url)]);
    await eventually(a.client, (s) => s.sessions >= 3);
  });
  after(async () => {
    for (const s of [a, b, c]) await s?.close().catch(() => {});
    await server?.stop();
  });

  test('list_changed with operation metadata reaches every session once per mutation', async () => {
    const marks = [a, b, c].map((s) => s.recorder.mark);
    await a.client.callTool({ name: 'add_resource', arguments: { uri: `test://http/${loops}/1`, name: 'h1', text: 'v1' } });
    await a.client.callTool({ name: 'add_tool', arguments: { name: `marker_1_${loops}` } }); // a later broadcast to all
    for (const [i, s] of [a, b, c].entries()) {
      const n = await s.recorder.waitFor(isMethod(RES_CHANGED), { from: marks[i] });
      assert.equal(n.params.operation, 'added');
      assert.equal(n.params.uri, `test://http/${loops}/1`);
      assert.equal(n.params.resource.name, 'h1');
      await s.recorder.waitFor((m) => m.method === TOOLS_CHANGED && m.params.name === `marker_1_${loops}`, { from: marks[i] });
      assert.equal(s.recorder.count((m) => m.method === RES_CHANGED && m.params.uri === `test://http/${loops}/1`, marks[i]), 1);
    }
  });

  test('resources/updated reaches only the subscriber', async () => {
    await b.client.subscribeResource({ uri: `test://http/${loops}/1` });
    const marks = [a, b, c].map((s) => s.recorder.mark);
    await a.client.callTool({ name: 'update_resource', arguments: { uri: `test://http/${loops}/1`, text: 'v2' } });
    const n = await b.recorder.waitFor(isMethod(UPDATED), { from: marks[1] });
    assert.deepEqual(n.params, { uri: `test://http/${loops}/1` });
    // A broadcast sent after the update: once a and c have it, an update
    // meant for them would have arrived first on the same stream.
    await a.client.callTool({ name: 'add_tool', arguments: { name: `marker_2_${loops}` } });
    for (const [i, s] of [[0, a], [2, c]]) {
      await s.recorder.waitFor((m) => m.method === TOOLS_CHANGED && m.params.name === `marker_2_${loops}`, { from: marks[i] });
      assert.equal(s.recorder.count(isMethod(UPDATED), marks[i]), 0);
    }
  });

  test('a DELETEd session leaves no subscription behind', async () => {
    await c.client.subscribeResource({ uri: `test://http/${loops}/1` });
    const before = await eventually(a.client, (s) => s.subscriptions >= 2);
    await c.transport.terminateSession();
    const after = await eventually(a.client, (s) => s.sessions === before.sessions - 1);
    assert.equal(after.subscriptions, before.subscriptions - 1);
  });

  test('a killed client leaves no subscription behind', async () => {
    const child = spawn(process.execPath, [new URL('./lib/subscriber-child.mjs', import.meta.url).pathname, url, `test://http/${loops}/1`],
      { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('child never subscribed')), 10000);
      createInterface({ input: child.stdout }).on('line', (l) => { if (l === 'ready') { clearTimeout(timer); resolve(); } });
    });
    const withChild = await stats(a.client);
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    const after = await eventually(a.client, (s) => s.subscriptions === withChild.subscriptions - 1);
    assert.equal(after.sessions, withChild.sessions - 1);
    // The survivors still hear about changes.
    const mark = b.recorder.mark;
    await a.client.callTool({ name: 'update_resource', arguments: { uri: `test://http/${loops}/1`, text: 'v3' } });
    await b.recorder.waitFor(isMethod(UPDATED), { from: mark });
  });
});
