// The examples users copy, driven by the official TypeScript SDK client:
// each one runs and does what its comment says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { connectWith } from './lib/harness.mjs';

const start = (command, args = []) =>
  connectWith(new StdioClientTransport({ command, args, stderr: 'pipe' }), { name: 'examples-test' });

const changed = (op, uri) => (m) => m.method === 'notifications/resources/list_changed'
  && m.params?.operation === op && (!uri || m.params.uri === uri);

test('embedded job queue: its worker threads publish results and stats', async () => {
  const { client, recorder } = await start(process.env.EMBEDDED_SERVER);
  await client.subscribeResource({ uri: 'jobs://stats' });
  await client.callTool({ name: 'submit', arguments: { job: 'resize photo' } });
  const added = await recorder.waitFor(changed('added', 'jobs://done/1'));
  assert.equal(added.params.resource.name, 'job 1');
  await recorder.waitFor((m) => m.method === 'notifications/resources/updated' && m.params.uri === 'jobs://stats');
  const stats = JSON.parse((await client.readResource({ uri: 'jobs://stats' })).contents[0].text);
  assert.equal(stats.done, 1);
  const done = await client.readResource({ uri: 'jobs://done/1' });
  assert.equal(done.contents[0].text, 'finished: resize photo');
  await client.close();
});

// Two servers: eviction with a TTL no run outlasts, and expiry with a short
// one. One server with --ttl 1 for both had the LRU checks race the timer on
// a busy machine (b expiring before the list that must show it).
test('resource-store-server: LRU eviction says "removed"; missing ids are -32002', async () => {
  const { client, recorder } = await start(process.env.STORE_SERVER, ['--ttl', '3600', '--max-entries', '2']);
  for (const id of ['a', 'b', 'c'])
    await client.callTool({ name: 'store_text', arguments: { id, title: `T ${id}`, text: `text ${id}` } });
  await recorder.waitFor(changed('removed', 'store://packet/a')); // least recently used
  const listed = (await client.listResources()).resources.map((r) => r.uri);
  assert.deepEqual(listed, ['store://packet/c', 'store://packet/b']); // newest first
  const content = await client.readResource({ uri: 'store://content/c' });
  assert.equal(content.contents[0].text, 'text c');
  await assert.rejects(client.readResource({ uri: 'store://content/a' }), (e) => e.code === -32002);
  await client.close();
});

test('resource-store-server: an entry nobody reads expires on its own and says "removed"', async () => {
  const { client, recorder } = await start(process.env.STORE_SERVER, ['--ttl', '1', '--max-entries', '2']);
  await client.callTool({ name: 'store_text', arguments: { id: 'b', title: 'T b', text: 'text b' } });
  await recorder.waitFor(changed('removed', 'store://packet/b'), { ms: 10000 });
  assert.deepEqual((await client.listResources()).resources, []);
  await assert.rejects(client.readResource({ uri: 'store://content/b' }), (e) => e.code === -32002);
  await client.close();
});

test('vault-server: a new note is listed; an edited note reaches its subscriber', async () => {
  const fs = await import('node:fs');
  const os = await import('node:os');
  const path = await import('node:path');
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'vault-'));
  fs.writeFileSync(path.join(root, 'a.md'), '# A #one');
  try {
    const { client, recorder } = await start(process.env.VAULT_SERVER, ['--root', root]);
    await client.subscribeResource({ uri: 'vault://note/a.md' });
    fs.writeFileSync(path.join(root, 'b.md'), 'B');
    await recorder.waitFor(changed('added', 'vault://note/b.md'));
    fs.writeFileSync(path.join(root, 'a.md'), '# A #two');
    await recorder.waitFor((m) => m.method === 'notifications/resources/updated' && m.params.uri === 'vault://note/a.md');
    assert.equal((await client.readResource({ uri: 'vault://note/a.md' })).contents[0].text, '# A #two');
    await client.close();
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('watch-resource (the client example): prints the resource, then again on each update', async () => {
  const { spawn } = await import('node:child_process');
  const { createInterface } = await import('node:readline');
  const { startHttpServer, connectHttp } = await import('./lib/harness.mjs');
  const server = startHttpServer();
  const url = await server.url;
  const { client } = await connectHttp(url);
  try {
    await client.callTool({ name: 'add_resource', arguments: { uri: 'test://note', name: 'note', text: 'v1' } });
    const watcher = spawn(process.env.WATCH_RESOURCE, ['--url', url, '--uri', 'test://note', '--updates', '2'],
      { stdio: ['ignore', 'pipe', 'inherit'] });
    const lines = [];
    const waiters = [];
    createInterface({ input: watcher.stdout }).on('line', (line) => {
      lines.push(line);
      for (const w of [...waiters]) w();
    });
    const line = (text) => new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no "${text}" in ${JSON.stringify(lines)}`)), 10000);
      const check = () => {
        if (!lines.includes(text)) return;
        clearTimeout(timer);
        waiters.splice(waiters.indexOf(check), 1);
        resolve();
      };
      waiters.push(check);
      check();
    });
    const exited = new Promise((resolve) => watcher.on('exit', resolve));
    await line('watching test://note'); // subscribed: updates from here on reach it
    for (const text of ['v2', 'v3']) {
      await client.callTool({ name: 'update_resource', arguments: { uri: 'test://note', text } });
      await line(`test://note: ${text}`);
    }
    assert.equal(await exited, 0);
    assert.deepEqual(lines.filter((l) => l.startsWith('test://note')), ['test://note: v1', 'test://note: v2', 'test://note: v3']);
  } finally {
    await client.close();
    await server.stop();
  }
});
