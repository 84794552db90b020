// everything-server's flags as the TypeScript SDK client sees them:
// pagination (--page-size) and where list_changed metadata goes
// (--change-metadata).
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  PromptListChangedNotificationSchema, ResourceListChangedNotificationSchema, ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { connect, isMethod } from './lib/harness.mjs';
import {
  FIXTURE_TOOLS, FIXTURE_RESOURCES, FIXTURE_PROMPTS, RES_CHANGED, TOOLS_CHANGED, PROMPTS_CHANGED, CHANGE,
} from './lib/fixtures.mjs';

// Every page of one list, following nextCursor until it is absent.
async function allPages(list, key) {
  const pages = [];
  let cursor;
  do {
    const page = await list(cursor === undefined ? {} : { cursor });
    pages.push(page[key]);
    cursor = page.nextCursor;
    assert.ok(pages.length <= 50, 'pagination ends');
  } while (cursor !== undefined);
  return pages;
}

test('--page-size 2: every list comes in pages of at most two and nextCursor reaches every item once', async () => {
  const s = await connect({ args: ['--page-size', '2'] });
  try {
    const cases = [
      [(p) => s.client.listTools(p), 'tools', (t) => t.name, FIXTURE_TOOLS],
      [(p) => s.client.listResources(p), 'resources', (r) => r.uri, FIXTURE_RESOURCES],
      [(p) => s.client.listPrompts(p), 'prompts', (p) => p.name, FIXTURE_PROMPTS],
      [(p) => s.client.listResourceTemplates(p), 'resourceTemplates', (t) => t.uriTemplate, ['test://template/{id}/data']],
    ];
    for (const [list, key, id, expected] of cases) {
      const pages = await allPages(list, key);
      assert.ok(pages.every((p) => p.length <= 2), `${key}: page sizes ${pages.map((p) => p.length)}`);
      assert.equal(pages.length, Math.max(1, Math.ceil(expected.length / 2)), `${key}: pages`);
      const ids = pages.flat().map(id);
      assert.equal(new Set(ids).size, ids.length, `${key}: no item twice`);
      for (const e of expected) assert.ok(ids.includes(e), `${key}: ${e}`);
    }
    await assert.rejects(s.client.listTools({ cursor: 'not-a-cursor' }), (e) => e.code === -32602);
  } finally {
    await s.close();
  }
});

// One of each kind of change; resolves with the raw messages and what the
// SDK's own handlers received.
async function changeEachKind(s) {
  const viaSdk = {};
  const handled = (schema, key) => new Promise((resolve) =>
    s.client.setNotificationHandler(schema, (n) => { viaSdk[key] = n.params; resolve(); }));
  const sdkDone = Promise.all([handled(ResourceListChangedNotificationSchema, 'resource'),
    handled(ToolListChangedNotificationSchema, 'tool'), handled(PromptListChangedNotificationSchema, 'prompt')]);
  const from = s.recorder.mark;
  await s.client.callTool({ name: 'add_resource', arguments: { uri: 'test://mode/1', name: 'm1', text: 't' } });
  await s.client.callTool({ name: 'add_tool', arguments: { name: 'mode_tool' } });
  await s.client.callTool({ name: 'add_prompt', arguments: { name: 'mode_prompt' } });
  const raw = {
    resource: await s.recorder.waitFor(isMethod(RES_CHANGED), { from }),
    tool: await s.recorder.waitFor(isMethod(TOOLS_CHANGED), { from }),
    prompt: await s.recorder.waitFor(isMethod(PROMPTS_CHANGED), { from }),
  };
  await sdkDone;
  return { raw, viaSdk };
}

const expected = {
  resource: { operation: 'added', uri: 'test://mode/1', descriptor: ['resource', 'uri', 'test://mode/1'] },
  tool: { operation: 'added', name: 'mode_tool', descriptor: ['tool', 'name', 'mode_tool'] },
  prompt: { operation: 'added', name: 'mode_prompt', descriptor: ['prompt', 'name', 'mode_prompt'] },
};

function assertChange(change, kind) {
  const { descriptor: [field, key, value], ...ids } = expected[kind];
  for (const [k, v] of Object.entries(ids)) assert.equal(change?.[k], v, `${kind}: ${k}`);
  assert.equal(change[field]?.[key], value, `${kind}: ${field}.${key}`);
}

describe('--change-metadata', () => {
  test('meta: the change only under _meta, on the wire and through the SDK handler', async () => {
    const s = await connect({ args: ['--change-metadata', 'meta'] });
    try {
      const { raw, viaSdk } = await changeEachKind(s);
      for (const kind of Object.keys(expected)) {
        assert.equal(raw[kind].params.operation, undefined, `${kind}: no operation in params`);
        assertChange(raw[kind].params._meta?.[CHANGE], kind);
        assertChange(viaSdk[kind]?._meta?.[CHANGE], kind);
      }
    } finally {
      await s.close();
    }
  });

  test('params: the change in params only', async () => {
    const s = await connect({ args: ['--change-metadata', 'params'] });
    try {
      const { raw } = await changeEachKind(s);
      for (const kind of Object.keys(expected)) {
        assertChange(raw[kind].params, kind);
        assert.equal(raw[kind].params._meta?.[CHANGE], undefined, `${kind}: nothing under _meta`);
      }
    } finally {
      await s.close();
    }
  });

  test('both: the same change in params and under _meta', async () => {
    const s = await connect({ args: ['--change-metadata', 'both'] });
    try {
      const { raw } = await changeEachKind(s);
      for (const kind of Object.keys(expected)) {
        assertChange(raw[kind].params, kind);
        const { _meta, ...inParams } = raw[kind].params;
        assert.deepEqual(_meta[CHANGE], inParams, `${kind}: one change, two places`);
      }
    } finally {
      await s.close();
    }
  });

  test('none: plain list_changed', async () => {
    const s = await connect({ args: ['--change-metadata', 'none'] });
    try {
      const { raw } = await changeEachKind(s);
      for (const kind of Object.keys(expected)) {
        assert.equal(raw[kind].params?.operation, undefined, `${kind}: no operation`);
        assert.equal(raw[kind].params?._meta?.[CHANGE], undefined, `${kind}: nothing under _meta`);
      }
    } finally {
      await s.close();
    }
  });
});
