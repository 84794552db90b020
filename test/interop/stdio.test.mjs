// everything-server over stdio, driven by the official TypeScript SDK client.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import {
  CreateMessageRequestSchema, ElicitRequestSchema, LoggingMessageNotificationSchema,
  ResourceListChangedNotificationSchema, McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { connect, isMethod, serverPath, textOf } from './lib/harness.mjs';

const RES_CHANGED = 'notifications/resources/list_changed';
const TOOLS_CHANGED = 'notifications/tools/list_changed';
const PROMPTS_CHANGED = 'notifications/prompts/list_changed';
const UPDATED = 'notifications/resources/updated';

describe('everything-server over stdio with the TypeScript SDK client', () => {
  let s;
  before(async () => {
    s = await connect({ capabilities: { sampling: {}, elicitation: {} } });
    s.client.setRequestHandler(CreateMessageRequestSchema, async (req) => ({
      role: 'assistant', model: 'test-model',
      content: { type: 'text', text: `echo: ${req.params.messages[0].content.text}` },
    }));
    s.client.setRequestHandler(ElicitRequestSchema, async () => ({
      action: 'accept', content: { username: 'ada', email: 'ada@example.com' },
    }));
  });
  after(async () => s?.close());

  test('initialize negotiates 2025-11-25 and declares every capability', () => {
    const caps = s.client.getServerCapabilities();
    assert.deepEqual(caps.resources, { subscribe: true, listChanged: true });
    assert.deepEqual(caps.tools, { listChanged: true });
    assert.deepEqual(caps.prompts, { listChanged: true });
    assert.deepEqual(caps.logging, {});
    assert.deepEqual(caps.completions, {});
    assert.equal(s.client.getServerVersion().name, 'cafmcp-everything-server');
  });

  test('lists show every fixture', async () => {
    const tools = (await s.client.listTools()).tools.map((t) => t.name);
    for (const name of ['test_simple_text', 'test_image_content', 'test_audio_content', 'test_embedded_resource',
      'test_multiple_content_types', 'test_tool_with_logging', 'test_error_handling', 'test_tool_with_progress',
      'test_sampling', 'test_elicitation', 'test_elicitation_sep1034_defaults', 'test_elicitation_sep1330_enums',
      'json_schema_2020_12_tool', 'test_reconnection', 'add_resource', 'update_resource', 'remove_resource',
      'add_tool', 'remove_tool', 'add_prompt', 'remove_prompt']) assert.ok(tools.includes(name), name);
    for (const t of (await s.client.listTools()).tools) assert.ok(t.description, `${t.name} has a description`);
    const resources = (await s.client.listResources()).resources.map((r) => r.uri);
    for (const uri of ['test://static-text', 'test://static-binary', 'test://watched-resource']) assert.ok(resources.includes(uri));
    const templates = (await s.client.listResourceTemplates()).resourceTemplates;
    assert.equal(templates[0].uriTemplate, 'test://template/{id}/data');
    const prompts = (await s.client.listPrompts()).prompts.map((p) => p.name);
    assert.deepEqual(prompts.sort(), ['test_prompt_with_arguments', 'test_prompt_with_embedded_resource',
      'test_prompt_with_image', 'test_simple_prompt']);
  });

  test('reads text, binary and template resources; an unknown uri is -32002', async () => {
    const text = await s.client.readResource({ uri: 'test://static-text' });
    assert.equal(text.contents[0].text, 'This is the content of the static text resource.');
    const bin = await s.client.readResource({ uri: 'test://static-binary' });
    assert.equal(bin.contents[0].mimeType, 'image/png');
    assert.ok(bin.contents[0].blob.length > 0);
    const tpl = await s.client.readResource({ uri: 'test://template/123/data' });
    assert.equal(JSON.parse(tpl.contents[0].text).id, '123');
    await assert.rejects(s.client.readResource({ uri: 'test://nowhere' }),
      (e) => e instanceof McpError && e.code === -32002);
  });

  test('content tools return their content blocks', async () => {
    assert.match(textOf(await s.client.callTool({ name: 'test_simple_text' })), /simple text/);
    const img = await s.client.callTool({ name: 'test_image_content', arguments: {} });
    assert.equal(img.content[0].type, 'image');
    const audio = await s.client.callTool({ name: 'test_audio_content', arguments: {} });
    assert.equal(audio.content[0].mimeType, 'audio/wav');
    const emb = await s.client.callTool({ name: 'test_embedded_resource', arguments: {} });
    assert.equal(emb.content[0].resource.uri, 'test://embedded-resource');
    const mixed = await s.client.callTool({ name: 'test_multiple_content_types', arguments: {} });
    assert.deepEqual(mixed.content.map((c) => c.type), ['text', 'image', 'resource']);
    const err = await s.client.callTool({ name: 'test_error_handling', arguments: {} });
    assert.equal(err.isError, true);
  });

  test('invalid tool arguments come back as an isError result', async () => {
    const r = await s.client.callTool({ name: 'json_schema_2020_12_tool', arguments: { unexpected: 1 } });
    assert.equal(r.isError, true);
    const ok = await s.client.callTool({ name: 'json_schema_2020_12_tool', arguments: { name: 'x' } });
    assert.notEqual(ok.isError, true);
  });

  test('logging: three messages at debug level', async () => {
    const seen = [];
    s.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => { seen.push(n.params); });
    await s.client.setLoggingLevel('debug');
    await s.client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    assert.ok(seen.length >= 3, `got ${seen.length} log messages`);
    assert.equal(seen[0].data, 'Tool execution started');
  });

  test('progress: increasing notifications before the result', async () => {
    const progress = [];
    await s.client.callTool({ name: 'test_tool_with_progress', arguments: {} }, undefined,
      { onprogress: (p) => progress.push(p.progress) });
    assert.deepEqual(progress, [0, 50, 100]);
  });

  test('sampling and elicitation round-trip through the client', async () => {
    const sampled = await s.client.callTool({ name: 'test_sampling', arguments: { prompt: 'hi there' } });
    assert.match(textOf(sampled), /echo: hi there/);
    const elicited = await s.client.callTool({ name: 'test_elicitation', arguments: { message: 'who?' } });
    assert.match(textOf(elicited), /ada@example.com/);
  });

  test('completion and prompts', async () => {
    const c = await s.client.complete({ ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
      argument: { name: 'arg1', value: 'te' } });
    assert.ok(Array.isArray(c.completion.values) && c.completion.values.length > 0);
    const p = await s.client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'A', arg2: 'B' } });
    assert.match(JSON.stringify(p.messages), /arg1='A'.*arg2='B'/);
    const e = await s.client.getPrompt({ name: 'test_prompt_with_embedded_resource', arguments: { resourceUri: 'test://example-resource' } });
    assert.ok(e.messages.some((m) => m.content.type === 'resource'));
    await assert.rejects(s.client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'A' } }),
      (err) => err.code === -32602);
  });

  test('add_resource: list_changed "added" with operation metadata on the wire, no id', async () => {
    const from = s.recorder.mark;
    await s.client.callTool({ name: 'add_resource', arguments: { uri: 'test://added/1', name: 'one', text: 'v1' } });
    const n = await s.recorder.waitFor(isMethod(RES_CHANGED), { from });
    assert.equal(n.id, undefined);
    assert.equal(n.params.operation, 'added');
    assert.equal(n.params.uri, 'test://added/1');
    assert.equal(n.params.resource.name, 'one');
    assert.equal(n.params._meta['io.cafmcp/change'].operation, 'added');
    assert.ok((await s.client.listResources()).resources.some((r) => r.uri === 'test://added/1'));
  });

  test('the SDK handler sees the change under _meta (the server runs with --change-metadata both)', async () => {
    const got = new Promise((resolve) => s.client.setNotificationHandler(ResourceListChangedNotificationSchema, (n) => resolve(n.params)));
    await s.client.callTool({ name: 'add_resource', arguments: { uri: 'test://added/meta', name: 'm', text: 'x' } });
    const params = await got;
    assert.equal(params.operation, undefined, 'the SDK strips unknown params keys');
    assert.equal(params._meta['io.cafmcp/change'].uri, 'test://added/meta');
  });

  test('update_resource: name -> list_changed "updated"; text -> updated only while subscribed', async () => {
    await s.client.callTool({ name: 'add_resource', arguments: { uri: 'test://added/2', name: 'two', text: 'v1' } });
    await s.client.callTool({ name: 'add_resource', arguments: { uri: 'test://added/3', name: 'three', text: 'v1' } });
    let from = s.recorder.mark;
    await s.client.callTool({ name: 'update_resource', arguments: { uri: 'test://added/2', name: 'TWO' } });
    const renamed = await s.recorder.waitFor((m) => m.method === RES_CHANGED && m.params.operation === 'updated', { from });
    assert.equal(renamed.params.resource.name, 'TWO');

    await s.client.subscribeResource({ uri: 'test://added/2' });
    await s.client.subscribeResource({ uri: 'test://added/3' });
    from = s.recorder.mark;
    await s.client.callTool({ name: 'update_resource', arguments: { uri: 'test://added/2', text: 'v2' } });
    const upd = await s.recorder.waitFor(isMethod(UPDATED), { from });
    assert.deepEqual(upd.params, { uri: 'test://added/2' });
    assert.equal(s.recorder.count((m) => m.method === RES_CHANGED, from), 0, 'a content change is not a list change');
    assert.equal((await s.client.readResource({ uri: 'test://added/2' })).contents[0].text, 'v2');

    await s.client.unsubscribeResource({ uri: 'test://added/2' });
    from = s.recorder.mark;
    await s.client.callTool({ name: 'update_resource', arguments: { uri: 'test://added/2', text: 'v3' } });
    await s.client.callTool({ name: 'update_resource', arguments: { uri: 'test://added/3', text: 'v2' } });
    // The subscribed resource's update arrives; the unsubscribed one, sent first, did not.
    const later = await s.recorder.waitFor(isMethod(UPDATED), { from });
    assert.equal(later.params.uri, 'test://added/3');
    assert.equal(s.recorder.count((m) => m.method === UPDATED && m.params.uri === 'test://added/2', from), 0);
  });

  test('remove_resource -> "removed"; tools and prompts add/remove with name and descriptor', async () => {
    let from = s.recorder.mark;
    await s.client.callTool({ name: 'remove_resource', arguments: { uri: 'test://added/1' } });
    const removed = await s.recorder.waitFor((m) => m.method === RES_CHANGED && m.params.operation === 'removed', { from });
    assert.equal(removed.params.uri, 'test://added/1');

    from = s.recorder.mark;
    await s.client.callTool({ name: 'add_tool', arguments: { name: 'dynamic_tool' } });
    const addedTool = await s.recorder.waitFor(isMethod(TOOLS_CHANGED), { from });
    assert.equal(addedTool.params.operation, 'added');
    assert.equal(addedTool.params.name, 'dynamic_tool');
    assert.equal(addedTool.params.tool.name, 'dynamic_tool');
    assert.match(textOf(await s.client.callTool({ name: 'dynamic_tool', arguments: {} })), /dynamic_tool/);
    from = s.recorder.mark;
    await s.client.callTool({ name: 'remove_tool', arguments: { name: 'dynamic_tool' } });
    assert.equal((await s.recorder.waitFor(isMethod(TOOLS_CHANGED), { from })).params.operation, 'removed');
    assert.ok(!(await s.client.listTools()).tools.some((t) => t.name === 'dynamic_tool'));

    from = s.recorder.mark;
    await s.client.callTool({ name: 'add_prompt', arguments: { name: 'dynamic_prompt' } });
    const addedPrompt = await s.recorder.waitFor(isMethod(PROMPTS_CHANGED), { from });
    assert.equal(addedPrompt.params.prompt.name, 'dynamic_prompt');
    from = s.recorder.mark;
    await s.client.callTool({ name: 'remove_prompt', arguments: { name: 'dynamic_prompt' } });
    assert.equal((await s.recorder.waitFor(isMethod(PROMPTS_CHANGED), { from })).params.operation, 'removed');
    const missing = await s.client.callTool({ name: 'remove_prompt', arguments: { name: 'dynamic_prompt' } });
    assert.equal(missing.isError, true);
  });

  test('subscribing to an unknown uri is refused', async () => {
    await assert.rejects(s.client.subscribeResource({ uri: 'test://no-such-thing' }), (e) => e.code === -32002);
  });
});

// Bad input straight onto the wire: every line gets its error and the same
// process keeps serving; stdout carries nothing but JSON-RPC.
describe('raw stdio', () => {
  function start(args = []) {
    const child = spawn(serverPath, ['--stdio', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    const lines = [];
    const waiters = [];
    createInterface({ input: child.stdout }).on('line', (line) => {
      lines.push(line);
      waiters.splice(0).forEach((w) => w());
    });
    const next = (ms = 5000) => new Promise((resolve, reject) => {
      const take = () => { if (lines.length) { resolve(lines.shift()); return true; } return false; };
      if (take()) return;
      const timer = setTimeout(() => reject(new Error('no line from the server')), ms);
      waiters.push(() => { clearTimeout(timer); take(); });
    });
    const send = (text) => child.stdin.write(text + '\n');
    return { child, next, send };
  }

  test('each bad message gets its error and the session goes on', async () => {
    const p = start(['--max-message-bytes', '65536']);
    p.send(JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }));
    assert.equal(JSON.parse(await p.next()).id, 0);
    p.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    const cases = [
      ['{"jsonrpc":"2.0","id":1,', -32700, null],
      ['{"jsonrpc":"1.0","id":2,"method":"ping"}', -32600, 2],
      ['{"jsonrpc":"2.0","id":3,"method":"no/such"}', -32601, 3],
      ['{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":5}}', -32602, 4],
      ['{"jsonrpc":"2.0","id":5,"method":"ping","params":{"pad":"' + 'x'.repeat(70000) + '"}}', -32600, null],
      ['{"jsonrpc":"2.0","id":6,"method":"ping","params":{"deep":' + '['.repeat(100000) + ']'.repeat(100000) + '}}', -32600, null],
    ];
    let n = 100;
    for (const [text, code, id] of cases) {
      p.send(text);
      const reply = JSON.parse(await p.next());
      assert.equal(reply.jsonrpc, '2.0');
      assert.equal(reply.error.code, code, text.slice(0, 80));
      if (id !== null) assert.equal(reply.id, id);
      p.send(JSON.stringify({ jsonrpc: '2.0', id: ++n, method: 'ping' }));
      assert.deepEqual(JSON.parse(await p.next()), { jsonrpc: '2.0', id: n, result: {} });
    }
    const exited = new Promise((resolve) => p.child.on('exit', (code) => resolve(code)));
    p.child.stdin.end();
    assert.equal(await exited, 0, 'closing stdin ends the server with status 0');
  });
});
