// An MCP server on stdio (plain Node, no SDK) whose tools/list really fails:
// the first call (the client's load at connect) succeeds, the next N (argv[2])
// answer a JSON-RPC error, later ones succeed again. add_tool{name} adds a
// tool and announces it with a plain tools/list_changed (no cafmcp metadata),
// so the client must reload, fail, back off and retry against a real process.
import { createInterface } from 'node:readline';

const failures = Number(process.argv[2] ?? '2');
const send = (m) => process.stdout.write(JSON.stringify(m) + '\n');
const tools = [{ name: 'add_tool', inputSchema: { type: 'object', properties: { name: { type: 'string' } } } }];
let lists = 0;

createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.id === undefined) return; // notifications (initialized) need no answer
  const ok = (result) => send({ jsonrpc: '2.0', id: m.id, result });
  const fail = (code, message) => send({ jsonrpc: '2.0', id: m.id, error: { code, message } });
  switch (m.method) {
    case 'initialize':
      return ok({ protocolVersion: '2025-11-25', serverInfo: { name: 'flaky-list', version: '0' },
        capabilities: { tools: { listChanged: true } } });
    case 'ping': return ok({});
    case 'tools/list':
      lists += 1;
      if (lists > 1 && lists <= 1 + failures) return fail(-32603, `tools/list failure ${lists - 1} of ${failures}`);
      return ok({ tools });
    case 'tools/call':
      if (m.params.name !== 'add_tool') return fail(-32602, 'Unknown tool');
      tools.push({ name: m.params.arguments.name, inputSchema: { type: 'object' } });
      send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
      return ok({ content: [{ type: 'text', text: 'added' }] });
    default: return fail(-32601, 'Method not found');
  }
});
