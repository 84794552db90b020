// An MCP server on stdio whose replies have members of the wrong types
// (plain Node, no SDK): protocolVersion a number, capability flags that are
// not booleans, tool results whose isError is a string, notifications whose
// method is a number. cafmcp-check must judge it (FAIL what is wrong) and
// finish its report, not stop at the first reply it did not foresee.
import { createInterface } from 'node:readline';

const send = (m) => process.stdout.write(JSON.stringify(m) + '\n');

createInterface({ input: process.stdin }).on('line', (line) => {
  let m;
  try { m = JSON.parse(line); } catch { return; }
  if (m.id === undefined) return;
  const ok = (result) => send({ jsonrpc: '2.0', id: m.id, result });
  switch (m.method) {
    case 'initialize':
      return ok({ protocolVersion: 5, serverInfo: { name: 7, version: [] },
        capabilities: { tools: [], prompts: null, resources: { subscribe: 'yes', listChanged: 1 } } });
    case 'tools/call':
      send({ jsonrpc: '2.0', method: 5, params: { uri: [] } });
      send({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 9 } });
      return ok({ content: 5, isError: 'no' });
    case 'resources/subscribe': return ok([]);
    case 'ping': return ok({});
    default: return send({ jsonrpc: '2.0', id: m.id, error: { code: 'x', message: 3 } });
  }
});
