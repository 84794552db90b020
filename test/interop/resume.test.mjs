// A GET stream cut mid-way: the official TypeScript SDK client reconnects
// with Last-Event-ID and receives every notification it missed, in order,
// exactly once.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { connectHttp, startHttpServer } from './lib/harness.mjs';
import { startCuttingProxy } from './lib/cutting-proxy.mjs';

let proxy, server, s, driver;
after(async () => {
  await s?.close().catch(() => {});
  await driver?.close().catch(() => {});
  await server?.stop();
  await proxy?.close();
});

const addedTool = (name) => (m) => m.method === 'notifications/tools/list_changed' && m.params?.name === name;

test('missed notifications are replayed after a cut GET stream', async () => {
  proxy = await startCuttingProxy();
  server = startHttpServer(['--allowed-host', `127.0.0.1:${proxy.port}`]);
  const url = await server.url;
  proxy.setTarget(Number(new URL(url).port));
  const firstGet = proxy.nextGet();
  s = await connectHttp(`http://127.0.0.1:${proxy.port}/mcp`);
  driver = await connectHttp(url); // makes changes on a direct connection
  await firstGet;
  await driver.client.callTool({ name: 'add_tool', arguments: { name: 'before_cut' } });
  await s.recorder.waitFor(addedTool('before_cut')); // the stream is live

  const reconnected = proxy.nextGet();
  proxy.cutGets();
  const missed = ['missed_1', 'missed_2', 'missed_3'];
  for (const name of missed)
    await driver.client.callTool({ name: 'add_tool', arguments: { name } });
  await reconnected; // the SDK comes back on its own, with Last-Event-ID
  assert.match(proxy.getHeads.at(-1), /last-event-id: 0-\d+/i);
  for (const name of missed) await s.recorder.waitFor(addedTool(name));
  await driver.client.callTool({ name: 'add_tool', arguments: { name: 'after_resume' } });
  await s.recorder.waitFor(addedTool('after_resume'));

  const names = s.recorder.messages.filter((m) => m.method === 'notifications/tools/list_changed').map((m) => m.params.name);
  assert.deepEqual(names, ['before_cut', ...missed, 'after_resume'], 'in order, each once');
});
