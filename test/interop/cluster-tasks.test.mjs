// Tasks in a cluster on Redis: a task one node runs is read, and its result
// waited for, from another node; a finished task's result is fetched from
// another node after its own was killed; when the node running a task is killed
// (SIGKILL: no goodbye), the others see the task failed, naming the node,
// instead of working forever.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { CallToolResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { connectHttp, textOf } from './lib/harness.mjs';
import { startRedis, startNode } from './lib/cluster.mjs';

async function startTask(client, args) {
  const { task } = await client.request(
    { method: 'tools/call', params: { name: 'slow_compute', arguments: args, task: { ttl: 120000 } } },
    CreateTaskResultSchema);
  return task;
}

describe('tasks across the nodes of a cluster', () => {
  let redis, n1, n2, a, b;
  before(async () => {
    redis = await startRedis();
    n1 = await startNode(redis.url, 'n1');
    n2 = await startNode(redis.url, 'n2');
    a = await connectHttp(n1.url);
    b = await connectHttp(n2.url);
  });
  after(async () => {
    for (const c of [a, b]) await c?.close().catch(() => {});
    for (const n of [n1, n2]) await n?.kill().catch(() => {});
    await redis?.stop();
  });

  test('a task run by one node is read and awaited from another', async () => {
    const task = await startTask(a.client, { seconds: 0.3, label: 'roaming' });
    const seen = await b.client.experimental.tasks.getTask(task.taskId);
    assert.equal(seen.status, 'working');
    const result = await b.client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    assert.match(textOf(result), /roaming done/);
    assert.equal(result._meta['io.modelcontextprotocol/related-task'].taskId, task.taskId);
    assert.equal((await b.client.experimental.tasks.getTask(task.taskId)).status, 'completed');
  });

  test('a result outlives its connection and its node: fetched from another node after kill -9', async () => {
    const n3 = await startNode(redis.url, 'n3');
    try {
      const c = await connectHttp(n3.url);
      const task = await startTask(c.client, { seconds: 0.2, label: 'survivor' });
      await c.close(); // the connection drops mid-task
      // Waited for on n2 (answered once n3 ends the task), then n3 dies without a goodbye.
      const early = await b.client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
      assert.match(textOf(early), /survivor done/);
      await n3.kill(); // SIGKILL, and returns once the process is gone
      const d = await connectHttp(n2.url);
      try {
        const late = await d.client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
        assert.deepEqual(late, early);
        assert.equal((await d.client.experimental.tasks.getTask(task.taskId)).status, 'completed');
      } finally {
        await d.close().catch(() => {});
      }
    } finally {
      await n3.kill().catch(() => {});
    }
  });

  test('the task of a killed node is failed, never working forever', async () => {
    const task = await startTask(a.client, { seconds: 60, label: 'orphaned' });
    assert.equal((await b.client.experimental.tasks.getTask(task.taskId)).status, 'working');
    await a.close().catch(() => {});
    a = undefined;
    n1.child.kill('SIGKILL');
    // The node's heartbeat outlives it by at most three seconds: poll, bounded.
    let last;
    for (let i = 0; i < 100; i++) {
      last = await b.client.experimental.tasks.getTask(task.taskId);
      if (last.status !== 'working') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(last.status, 'failed', JSON.stringify(last));
    assert.match(last.statusMessage, /n1.*stopped/);
    await assert.rejects(b.client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema),
      (e) => /stopped/.test(e.message));
  });
});
