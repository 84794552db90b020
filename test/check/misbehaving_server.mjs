// A deliberately non-compliant MCP server on stdio (plain Node, no SDK), so
// the tests can see cafmcp-check FAIL each rule it claims to judge:
//  - tools: listChanged NOT declared, yet add_tool sends list_changed, with
//    "params": null (a malformed notification), even before `initialized`;
//  - prompts: listChanged declared, yet add_prompt announces nothing;
//  - resources: updated goes out on every update, subscribed or not.
import { createInterface } from 'node:readline';

const send = (m) => process.stdout.write(JSON.stringify(m) + '\n');
const resources = new Map();
const subscribed = new Set();
const text = (t) => ({ content: [{ type: 'text', text: t }] });

const tools = {
  add_tool: () => { send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: null }); return text('added'); },
  remove_tool: () => text('removed'),
  add_prompt: () => text('added, silently'),
  remove_prompt: () => { send({ jsonrpc: '2.0', method: 'notifications/prompts/list_changed' }); return text('removed'); },
  add_resource: ({ uri }) => { resources.set(uri, true); send({ jsonrpc: '2.0', method: 'notifications/resources/list_changed' }); return text('added'); },
  update_resource: ({ uri, name }) => {
    if (name !== undefined) send({ jsonrpc: '2.0', method: 'notifications/resources/list_changed' });
    else send({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri } }); // to subscribers or not
    return text('updated');
  },
  remove_resource: ({ uri }) => { resources.delete(uri); send({ jsonrpc: '2.0', method: 'notifications/resources/list_changed' }); return text('removed'); },
};

createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.id === undefined) return; // notifications (initialized) need no answer
  const ok = (result) => send({ jsonrpc: '2.0', id: m.id, result });
  switch (m.method) {
    case 'initialize':
      return ok({ protocolVersion: '2025-11-25', serverInfo: { name: 'misbehaving', version: '0' },
        capabilities: { tools: {}, prompts: { listChanged: true }, resources: { subscribe: true, listChanged: true } } });
    case 'ping': return ok({});
    case 'tools/call': return ok(tools[m.params.name](m.params.arguments ?? {}));
    case 'resources/subscribe':
      if (!resources.has(m.params.uri))
        return send({ jsonrpc: '2.0', id: m.id, error: { code: -32002, message: 'Resource not found' } });
      subscribed.add(m.params.uri); return ok({});
    case 'resources/unsubscribe': subscribed.delete(m.params.uri); return ok({});
    default: return send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } });
  }
});
