// A deliberately non-compliant MCP 2026-07-28 server on stdio (plain Node):
// it discovers and acknowledges correctly, but
//  - an unknown resource is -32002 (2026-07-28 says -32602);
//  - resources/updated and tools/list_changed go to every listener, asked
//    for or not (each correctly stamped with that listener's id);
//  - notifications/cancelled is ignored: a cancelled listener keeps hearing.
import { createInterface } from 'node:readline';

const send = (m) => process.stdout.write(JSON.stringify(m) + '\n');
const listeners = []; // ids of every listen request, never removed
const stamped = (method, params, id) =>
  ({ jsonrpc: '2.0', method, params: { ...params, _meta: { 'io.modelcontextprotocol/subscriptionId': id } } });
const everyone = (method, params) => listeners.forEach((id) => send(stamped(method, params, id)));
const text = (t) => ({ resultType: 'complete', content: [{ type: 'text', text: t }] });

const tools = {
  add_resource: () => text('added'),
  update_resource: ({ uri }) => { everyone('notifications/resources/updated', { uri }); return text('updated'); },
  add_tool: () => { everyone('notifications/tools/list_changed', {}); return text('added'); },
};

createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.id === undefined) return; // cancelled and the like: ignored
  const reply = (result) => send({ jsonrpc: '2.0', id: m.id, result });
  const fail = (code, message) => send({ jsonrpc: '2.0', id: m.id, error: { code, message } });
  switch (m.method) {
    case 'server/discover':
      return reply({ resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {}, resources: {} } });
    case 'resources/read':
      return fail(-32002, 'Resource not found');
    case 'subscriptions/listen':
      listeners.push(m.id);
      return send(stamped('notifications/subscriptions/acknowledged', { notifications: m.params.notifications }, m.id));
    case 'tools/call': {
      const tool = tools[m.params.name];
      return tool ? reply(tool(m.params.arguments ?? {})) : fail(-32602, `Unknown tool: ${m.params.name}`);
    }
    default:
      return fail(-32601, `Method not found: ${m.method}`);
  }
});
