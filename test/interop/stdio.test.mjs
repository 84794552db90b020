// everything-server over stdio, driven by the official TypeScript SDK client:
// every fixture, then the mutation tools and the notifications they cause.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  CreateMessageRequestSchema, ElicitRequestSchema, LoggingMessageNotificationSchema,
  ResourceListChangedNotificationSchema, McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { connect, isMethod, textOf } from './lib/harness.mjs';
import {
  FIXTURE_TOOLS, FIXTURE_RESOURCES, FIXTURE_PROMPTS, RES_CHANGED, TOOLS_CHANGED, PROMPTS_CHANGED, UPDATED, CHANGE,
} from './lib/fixtures.mjs';

describe('everything-server over stdio with the TypeScript SDK client', () => {
  let s;
  // What the server asked the client, so tests can check the requests' shapes.
  const asked = { sampling: [], elicitation: [] };
  before(async () => {
    s = await connect({ capabilities: { sampling: {}, elicitation: {} } });
    s.client.setRequestHandler(CreateMessageRequestSchema, async (req) => {
      asked.sampling.push(req.params);
      return { role: 'assistant', model: 'test-model',
        content: { type: 'text', text: `echo: ${req.params.messages[0].content.text}` } };
    });
    s.client.setRequestHandler(ElicitRequestSchema, async (req) => {
      asked.elicitation.push(req.params);
      const props = Object.keys(req.params.requestedSchema?.properties ?? {});
      // Only the plain form has an answer that fits its schema; the others are declined.
      return props.includes('username')
        ? { action: 'accept', content: { username: 'ada', email: 'ada@example.com' } }
        : { action: 'decline' };
    });
  });
  after(async () => s?.close());

  test('initialize negotiates 2025-11-25 and declares every capability', () => {
    const init = s.recorder.messages.find((m) => m.result?.protocolVersion);
    assert.equal(init.result.protocolVersion, '2025-11-25');
    const caps = s.client.getServerCapabilities();
    assert.deepEqual(caps.resources, { subscribe: true, listChanged: true });
    assert.deepEqual(caps.tools, { listChanged: true });
    assert.deepEqual(caps.prompts, { listChanged: true });
    assert.deepEqual(caps.logging, {});
    assert.deepEqual(caps.completions, {});
    assert.equal(s.client.getServerVersion().name, 'cafmcp-everything-server');
  });

  test('lists show every fixture, each tool and prompt with a description', async () => {
    const { tools } = await s.client.listTools();
    for (const name of FIXTURE_TOOLS) assert.ok(tools.some((t) => t.name === name), name);
    for (const t of tools) {
      assert.ok(t.description, `${t.name} has a description`);
      assert.equal(t.inputSchema.type, 'object', `${t.name} has an object inputSchema`);
    }
    const resources = (await s.client.listResources()).resources;
    for (const uri of FIXTURE_RESOURCES) {
      const r = resources.find((x) => x.uri === uri);
      assert.ok(r?.name, `${uri} is listed with a name`);
    }
    const templates = (await s.client.listResourceTemplates()).resourceTemplates;
    assert.deepEqual(templates.map((t) => t.uriTemplate), ['test://template/{id}/data']);
    const { prompts } = await s.client.listPrompts();
    assert.deepEqual(prompts.map((p) => p.name).sort(), FIXTURE_PROMPTS);
    for (const p of prompts) assert.ok(p.description, `${p.name} has a description`);
    const withArgs = prompts.find((p) => p.name === 'test_prompt_with_arguments');
    assert.deepEqual(withArgs.arguments.map((a) => [a.name, a.required]), [['arg1', true], ['arg2', true]]);
  });

  test('json_schema_2020_12_tool keeps its input schema verbatim', async () => {
    const tool = (await s.client.listTools()).tools.find((t) => t.name === 'json_schema_2020_12_tool');
    const schema = tool.inputSchema;
    assert.equal(schema.$schema, 'https://json-schema.org/draft/2020-12/schema');
    assert.equal(schema.$defs.address.$anchor, 'address');
    assert.equal(schema.additionalProperties, false);
    assert.ok(Array.isArray(schema.properties.contact.anyOf));
    const cond = schema.allOf[0];
    assert.ok(cond.if && cond.then && cond.else, 'allOf carries if/then/else');
  });

  test('reads text, binary and template resources; an unknown uri is -32002', async () => {
    const text = (await s.client.readResource({ uri: 'test://static-text' })).contents[0];
    assert.deepEqual([text.uri, text.mimeType, text.text],
      ['test://static-text', 'text/plain', 'This is the content of the static text resource.']);
    const bin = (await s.client.readResource({ uri: 'test://static-binary' })).contents[0];
    assert.equal(bin.mimeType, 'image/png');
    assert.equal(Buffer.from(bin.blob, 'base64').subarray(1, 4).toString(), 'PNG');
    const tpl = (await s.client.readResource({ uri: 'test://template/123/data' })).contents[0];
    assert.equal(tpl.uri, 'test://template/123/data');
    assert.equal(tpl.mimeType, 'application/json');
    assert.deepEqual(JSON.parse(tpl.text), { id: '123', templateTest: true, data: 'Data for ID: 123' });
    await assert.rejects(s.client.readResource({ uri: 'test://nowhere' }),
      (e) => e instanceof McpError && e.code === -32002);
  });

  test('content tools return their content blocks', async () => {
    // Called without `arguments`, as the conformance suite does.
    assert.equal(textOf(await s.client.callTool({ name: 'test_simple_text' })),
      'This is a simple text response for testing.');
    const img = (await s.client.callTool({ name: 'test_image_content', arguments: {} })).content[0];
    assert.deepEqual([img.type, img.mimeType], ['image', 'image/png']);
    assert.ok(img.data.length > 0);
    const audio = (await s.client.callTool({ name: 'test_audio_content', arguments: {} })).content[0];
    assert.deepEqual([audio.type, audio.mimeType], ['audio', 'audio/wav']);
    assert.equal(Buffer.from(audio.data, 'base64').subarray(0, 4).toString(), 'RIFF');
    const emb = (await s.client.callTool({ name: 'test_embedded_resource', arguments: {} })).content[0];
    assert.equal(emb.type, 'resource');
    assert.deepEqual(emb.resource, { uri: 'test://embedded-resource', mimeType: 'text/plain',
      text: 'This is an embedded resource content.' });
    const mixed = (await s.client.callTool({ name: 'test_multiple_content_types', arguments: {} })).content;
    assert.deepEqual(mixed.map((c) => c.type), ['text', 'image', 'resource']);
    assert.equal(mixed[2].resource.mimeType, 'application/json');
    const err = await s.client.callTool({ name: 'test_error_handling', arguments: {} });
    assert.equal(err.isError, true);
    assert.ok(err.content[0].text.length > 0);
    assert.match(textOf(await s.client.callTool({ name: 'test_reconnection', arguments: {} })), /completed/);
  });

  test('invalid tool arguments come back as an isError result', async () => {
    const r = await s.client.callTool({ name: 'json_schema_2020_12_tool', arguments: { unexpected: 1 } });
    assert.equal(r.isError, true);
    const ok = await s.client.callTool({ name: 'json_schema_2020_12_tool', arguments: { name: 'x' } });
    assert.notEqual(ok.isError, true);
  });

  test('logging: three info messages in order once the level is debug', async () => {
    const seen = [];
    s.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => { seen.push(n.params); });
    await s.client.setLoggingLevel('debug');
    await s.client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    assert.deepEqual(seen.map((p) => [p.level, p.data]), [['info', 'Tool execution started'],
      ['info', 'Tool processing data'], ['info', 'Tool execution completed']]);
  });

  test('progress: 0, 50, 100 of 100 before the result', async () => {
    const progress = [];
    await s.client.callTool({ name: 'test_tool_with_progress', arguments: {} }, undefined,
      { onprogress: (p) => progress.push([p.progress, p.total]) });
    assert.deepEqual(progress, [[0, 100], [50, 100], [100, 100]]);
  });

  test('sampling: the server asks the client model and returns its text', async () => {
    const sampled = await s.client.callTool({ name: 'test_sampling', arguments: { prompt: 'hi there' } });
    assert.match(textOf(sampled), /echo: hi there/);
    const req = asked.sampling.at(-1);
    assert.deepEqual(req.messages, [{ role: 'user', content: { type: 'text', text: 'hi there' } }]);
    assert.equal(req.maxTokens, 100);
  });

  test('elicitation: username and email, both required', async () => {
    const elicited = await s.client.callTool({ name: 'test_elicitation', arguments: { message: 'who?' } });
    assert.match(textOf(elicited), /ada@example.com/);
    const req = asked.elicitation.at(-1);
    assert.equal(req.message, 'who?');
    assert.deepEqual(req.requestedSchema.required, ['username', 'email']);
    assert.deepEqual(req.requestedSchema.properties, { username: { type: 'string' }, email: { type: 'string' } });
  });

  test('elicitation with SEP-1034 defaults and SEP-1330 enums', async () => {
    const d = await s.client.callTool({ name: 'test_elicitation_sep1034_defaults', arguments: {} });
    assert.notEqual(d.isError, true);
    const defaults = asked.elicitation.at(-1).requestedSchema.properties;
    assert.deepEqual(defaults.name, { type: 'string', default: 'John Doe' });
    assert.deepEqual(defaults.age, { type: 'integer', default: 30 });
    assert.deepEqual(defaults.score, { type: 'number', default: 95.5 });
    assert.deepEqual(defaults.status, { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' });
    assert.deepEqual(defaults.verified, { type: 'boolean', default: true });

    const e = await s.client.callTool({ name: 'test_elicitation_sep1330_enums', arguments: {} });
    assert.notEqual(e.isError, true);
    const enums = asked.elicitation.at(-1).requestedSchema.properties;
    assert.ok(Array.isArray(enums.untitledSingle.enum));
    assert.ok(enums.titledSingle.oneOf.every((o) => o.const && o.title));
    assert.equal(enums.legacyEnum.enumNames.length, enums.legacyEnum.enum.length);
    assert.equal(enums.untitledMulti.type, 'array');
    assert.deepEqual([enums.untitledMulti.items.type, Array.isArray(enums.untitledMulti.items.enum)], ['string', true]);
    assert.equal(enums.titledMulti.type, 'array');
    assert.ok(enums.titledMulti.items.anyOf.every((o) => o.const && o.title));
  });

  test('completions: prompt argument arg1 and template variable id', async () => {
    const c = await s.client.complete({ ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
      argument: { name: 'arg1', value: 'te' } });
    assert.ok(c.completion.values.length > 0);
    const t = await s.client.complete({ ref: { type: 'ref/resource', uri: 'test://template/{id}/data' },
      argument: { name: 'id', value: '1' } });
    assert.ok(t.completion.values.length > 0);
    for (const v of t.completion.values) assert.ok(v.startsWith('1'), `${v} completes "1"`);
  });

  test('every prompt', async () => {
    const simple = await s.client.getPrompt({ name: 'test_simple_prompt' });
    assert.ok(simple.messages.length > 0 && simple.messages.every((m) => m.role && m.content));
    const p = await s.client.getPrompt({ name: 'test_prompt_with_arguments',
      arguments: { arg1: 'testValue1', arg2: 'testValue2' } });
    assert.match(JSON.stringify(p.messages), /testValue1.*testValue2/);
    const e = await s.client.getPrompt({ name: 'test_prompt_with_embedded_resource',
      arguments: { resourceUri: 'test://example-resource' } });
    assert.ok(e.messages.some((m) => m.content.type === 'resource' && m.content.resource.uri === 'test://example-resource'));
    const img = await s.client.getPrompt({ name: 'test_prompt_with_image' });
    assert.ok(img.messages.some((m) => m.content.type === 'image' && m.content.data && m.content.mimeType));
    await assert.rejects(s.client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'A' } }),
      (err) => err.code === -32602);
  });

  test('add_resource: list_changed "added" with operation metadata on the wire, no id', async () => {
    const from = s.recorder.mark;
    await s.client.callTool({ name: 'add_resource', arguments: { uri: 'test://added/1', name: 'one', text: 'v1' } });
    const n = await s.recorder.waitFor(isMethod(RES_CHANGED), { from });
    assert.ok(!('id' in n), 'a notification has no id');
    assert.equal(n.params.operation, 'added');
    assert.equal(n.params.uri, 'test://added/1');
    assert.deepEqual([n.params.resource.uri, n.params.resource.name], ['test://added/1', 'one']);
    assert.equal(n.params._meta[CHANGE].operation, 'added');
    assert.ok((await s.client.listResources()).resources.some((r) => r.uri === 'test://added/1'));
    assert.equal((await s.client.readResource({ uri: 'test://added/1' })).contents[0].text, 'v1');
  });

  test('the SDK handler sees the change under _meta (the server runs with --change-metadata both)', async () => {
    const got = new Promise((resolve) => s.client.setNotificationHandler(ResourceListChangedNotificationSchema, (n) => resolve(n.params)));
    await s.client.callTool({ name: 'add_resource', arguments: { uri: 'test://added/meta', name: 'm', text: 'x' } });
    const params = await got;
    assert.equal(params.operation, undefined, 'the SDK strips unknown params keys');
    assert.equal(params._meta[CHANGE].uri, 'test://added/meta');
    assert.equal(params._meta[CHANGE].resource.name, 'm');
  });

  test('update_resource: name -> list_changed "updated"; text -> updated only while subscribed', async () => {
    await s.client.callTool({ name: 'add_resource', arguments: { uri: 'test://added/2', name: 'two', text: 'v1' } });
    await s.client.callTool({ name: 'add_resource', arguments: { uri: 'test://added/3', name: 'three', text: 'v1' } });
    let from = s.recorder.mark;
    await s.client.callTool({ name: 'update_resource', arguments: { uri: 'test://added/2', name: 'TWO' } });
    const renamed = await s.recorder.waitFor((m) => m.method === RES_CHANGED && m.params.operation === 'updated', { from });
    assert.equal(renamed.params.uri, 'test://added/2');
    assert.equal(renamed.params.resource.name, 'TWO');
    assert.equal((await s.client.readResource({ uri: 'test://added/2' })).contents[0].text, 'v1', 'a rename keeps the text');

    await s.client.subscribeResource({ uri: 'test://added/2' });
    await s.client.subscribeResource({ uri: 'test://added/3' });
    from = s.recorder.mark;
    await s.client.callTool({ name: 'update_resource', arguments: { uri: 'test://added/2', text: 'v2' } });
    const upd = await s.recorder.waitFor(isMethod(UPDATED), { from });
    assert.deepEqual(upd.params, { uri: 'test://added/2' });
    assert.equal(s.recorder.count((m) => m.method === RES_CHANGED, from), 0, 'a content change is not a list change');
    assert.equal((await s.client.readResource({ uri: 'test://added/2' })).contents[0].text, 'v2');
    assert.equal((await s.client.listResources()).resources.find((r) => r.uri === 'test://added/2').name, 'TWO');

    await s.client.unsubscribeResource({ uri: 'test://added/2' });
    from = s.recorder.mark;
    await s.client.callTool({ name: 'update_resource', arguments: { uri: 'test://added/2', text: 'v3' } });
    await s.client.callTool({ name: 'update_resource', arguments: { uri: 'test://added/3', text: 'v2' } });
    await s.client.ping();
    // The subscribed resource's update arrives; the unsubscribed one, changed first, did not.
    const later = await s.recorder.waitFor(isMethod(UPDATED), { from });
    assert.equal(later.params.uri, 'test://added/3');
    assert.equal(s.recorder.count((m) => m.method === UPDATED && m.params.uri === 'test://added/2', from), 0);
    assert.equal((await s.client.readResource({ uri: 'test://added/2' })).contents[0].text, 'v3');
  });

  test('remove_resource -> "removed"; unknown uri is a tool error', async () => {
    const from = s.recorder.mark;
    await s.client.callTool({ name: 'remove_resource', arguments: { uri: 'test://added/1' } });
    const removed = await s.recorder.waitFor((m) => m.method === RES_CHANGED && m.params.operation === 'removed', { from });
    assert.equal(removed.params.uri, 'test://added/1');
    assert.ok(!(await s.client.listResources()).resources.some((r) => r.uri === 'test://added/1'));
    await assert.rejects(s.client.readResource({ uri: 'test://added/1' }), (e) => e.code === -32002);
    const again = await s.client.callTool({ name: 'remove_resource', arguments: { uri: 'test://added/1' } });
    assert.equal(again.isError, true);
  });

  test('add_tool / remove_tool: list_changed with name and descriptor; listTools follows', async () => {
    let from = s.recorder.mark;
    await s.client.callTool({ name: 'add_tool', arguments: { name: 'dynamic_tool' } });
    const added = await s.recorder.waitFor(isMethod(TOOLS_CHANGED), { from });
    assert.equal(added.params.operation, 'added');
    assert.equal(added.params.name, 'dynamic_tool');
    assert.equal(added.params.tool.name, 'dynamic_tool');
    assert.equal(added.params._meta[CHANGE].name, 'dynamic_tool');
    assert.ok((await s.client.listTools()).tools.some((t) => t.name === 'dynamic_tool'));
    assert.match(textOf(await s.client.callTool({ name: 'dynamic_tool', arguments: {} })), /dynamic_tool/);

    from = s.recorder.mark;
    await s.client.callTool({ name: 'remove_tool', arguments: { name: 'dynamic_tool' } });
    const removed = await s.recorder.waitFor(isMethod(TOOLS_CHANGED), { from });
    assert.deepEqual([removed.params.operation, removed.params.name], ['removed', 'dynamic_tool']);
    assert.ok(!(await s.client.listTools()).tools.some((t) => t.name === 'dynamic_tool'));
    assert.equal((await s.client.callTool({ name: 'remove_tool', arguments: { name: 'dynamic_tool' } })).isError, true);
  });

  test('add_prompt / remove_prompt: list_changed with name and descriptor; listPrompts follows', async () => {
    let from = s.recorder.mark;
    await s.client.callTool({ name: 'add_prompt', arguments: { name: 'dynamic_prompt' } });
    const added = await s.recorder.waitFor(isMethod(PROMPTS_CHANGED), { from });
    assert.deepEqual([added.params.operation, added.params.name], ['added', 'dynamic_prompt']);
    assert.equal(added.params.prompt.name, 'dynamic_prompt');
    assert.ok((await s.client.listPrompts()).prompts.some((p) => p.name === 'dynamic_prompt'));
    assert.ok((await s.client.getPrompt({ name: 'dynamic_prompt' })).messages.length > 0);

    from = s.recorder.mark;
    await s.client.callTool({ name: 'remove_prompt', arguments: { name: 'dynamic_prompt' } });
    const removed = await s.recorder.waitFor(isMethod(PROMPTS_CHANGED), { from });
    assert.deepEqual([removed.params.operation, removed.params.name], ['removed', 'dynamic_prompt']);
    assert.ok(!(await s.client.listPrompts()).prompts.some((p) => p.name === 'dynamic_prompt'));
    assert.equal((await s.client.callTool({ name: 'remove_prompt', arguments: { name: 'dynamic_prompt' } })).isError, true);
  });

  test('mutation tools refuse calls without their required fields', async () => {
    const r = await s.client.callTool({ name: 'add_resource', arguments: { uri: 'test://added/x' } });
    assert.equal(r.isError, true);
    assert.ok(!(await s.client.listResources()).resources.some((x) => x.uri === 'test://added/x'));
  });

  test('subscribing to an unknown uri is refused', async () => {
    await assert.rejects(s.client.subscribeResource({ uri: 'test://no-such-thing' }), (e) => e.code === -32002);
    await s.client.subscribeResource({ uri: 'test://watched-resource' });
    await s.client.unsubscribeResource({ uri: 'test://watched-resource' });
  });
});
