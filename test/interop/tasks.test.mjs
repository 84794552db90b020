// Tasks (2025-11-25) with the official TypeScript SDK client's task API
// against everything-server over Streamable HTTP: a streamed task call, the
// manual methods (get, list, cancel, result), input asked while the task
// runs, the -32601 rule, and a result fetched by another client after the
// first one left.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { CallToolResultSchema, CreateTaskResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { connectHttp, startHttpServer, textOf } from './lib/harness.mjs';

const RELATED = 'io.modelcontextprotocol/related-task';

async function collect(stream) {
  const seen = [];
  for await (const m of stream) seen.push(m);
  return seen;
}

describe('tasks with the TypeScript SDK client', () => {
  let server, url, a;
  before(async () => {
    server = startHttpServer();
    url = await server.url;
    a = await connectHttp(url, { capabilities: { elicitation: { form: {} } } });
    a.client.setRequestHandler(ElicitRequestSchema, async (req) => {
      assert.ok(req.params._meta?.[RELATED]?.taskId, 'a task asks with its related-task _meta');
      return { action: 'accept', content: { confirm: true } };
    });
    await a.client.listTools(); // the SDK learns each tool's taskSupport
  });
  after(async () => {
    await a?.close().catch(() => {});
    await server?.stop();
  });

  test('the server declares tasks and which tools support them', async () => {
    const caps = a.client.getServerCapabilities();
    assert.ok(caps.tasks?.requests?.tools?.call, JSON.stringify(caps));
    assert.ok(caps.tasks.list && caps.tasks.cancel);
    const { tools } = await a.client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    assert.equal(byName.slow_compute.execution.taskSupport, 'optional');
    assert.equal(byName.failing_job.execution.taskSupport, 'required');
    assert.equal(byName.greet.execution, undefined);
  });

  test('callToolStream: created, then the result with its related-task _meta', async () => {
    const seen = await collect(a.client.experimental.tasks.callToolStream(
      { name: 'slow_compute', arguments: { seconds: 0.2, label: 'streamed' } }, CallToolResultSchema,
      { task: { ttl: 60000 } }));
    const created = seen.find((m) => m.type === 'taskCreated');
    assert.ok(created, JSON.stringify(seen));
    assert.equal(created.task.ttl, 60000);
    const result = seen.find((m) => m.type === 'result');
    assert.ok(result, JSON.stringify(seen));
    assert.match(textOf(result.result), /streamed done/);
    assert.equal(result.result._meta[RELATED].taskId, created.task.taskId);
  });

  test('manual: get, list, cancel; a cancelled task stays cancelled', async () => {
    const { task } = await a.client.request(
      { method: 'tools/call', params: { name: 'slow_compute', arguments: { seconds: 30 }, task: { ttl: 60000 } } },
      CreateTaskResultSchema);
    assert.equal((await a.client.experimental.tasks.getTask(task.taskId)).status, 'working');
    const page = await a.client.experimental.tasks.listTasks();
    assert.ok(page.tasks.some((t) => t.taskId === task.taskId));
    const cancelled = await a.client.experimental.tasks.cancelTask(task.taskId);
    assert.equal(cancelled.status, 'cancelled');
    assert.equal((await a.client.experimental.tasks.getTask(task.taskId)).status, 'cancelled');
    await assert.rejects(a.client.experimental.tasks.cancelTask(task.taskId), (e) => e.code === -32602);
  });

  test('input asked while the task runs is answered by the client\'s handler', async () => {
    const seen = await collect(a.client.experimental.tasks.callToolStream(
      { name: 'confirm_delete', arguments: { filename: 'notes.txt' } }, CallToolResultSchema, { task: { ttl: 60000 } }));
    const result = seen.find((m) => m.type === 'result');
    assert.ok(result, JSON.stringify(seen));
    assert.equal(textOf(result.result), 'Deleted notes.txt');
  });

  test('a tool that requires a task, called without one, is -32601', async () => {
    await assert.rejects(
      a.client.request({ method: 'tools/call', params: { name: 'failing_job', arguments: {} } }, CallToolResultSchema),
      (e) => e.code === -32601);
  });

  test('a task outlives the client that started it: another one fetches its result', async () => {
    const b = await connectHttp(url);
    const { task } = await b.client.request(
      { method: 'tools/call', params: { name: 'slow_compute', arguments: { seconds: 0.3, label: 'orphan' }, task: { ttl: 60000 } } },
      CreateTaskResultSchema);
    await b.close(); // gone before the task ends
    const c = await connectHttp(url);
    try {
      const result = await c.client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
      assert.match(textOf(result), /orphan done/);
      assert.equal((await c.client.experimental.tasks.getTask(task.taskId)).status, 'completed');
    } finally {
      await c.close();
    }
  });
});
