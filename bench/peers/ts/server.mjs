// An MCP server written the way the official TypeScript SDK (1.32.2) teaches:
// McpServer, one per HTTP session, with the everything-server's mutation
// tools over one registry shared by every session. cafmcp-check judges it and
// cafmcp-load drives it, so both are measured against a server they did not
// come from. It is deliberately plain SDK usage, not tuned: no event store
// (so no resumption), subscriptions accepted for any uri, no operation
// metadata - what a typical SDK server does.
//
//   node server.mjs --stdio
//   node server.mjs --http [--port N]   (N = 0: any free port; the URL is printed on stderr)
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { SubscribeRequestSchema, UnsubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

// -- the registry every session shares ------------------------------------
const registry = {
  resources: new Map([['test://static-text', { name: 'static-text', text: 'This is the content of the static text resource.' }]]),
  tools: new Set(),
  prompts: new Set(),
};
const sessions = new Set(); // { mcp, resources: Map, tools: Map, prompts: Map, subscriptions: Set }

const text = (t) => ({ content: [{ type: 'text', text: t }] });
const failure = (t) => ({ content: [{ type: 'text', text: t }], isError: true });
const everySession = (fn) => { for (const s of sessions) fn(s); };

function registerResource(s, uri) {
  const r = registry.resources.get(uri);
  s.resources.set(uri, s.mcp.registerResource(r.name, uri, { mimeType: 'text/plain', description: r.description },
    async () => ({ contents: [{ uri, mimeType: 'text/plain', text: registry.resources.get(uri)?.text ?? '' }] })));
}
function registerTool(s, name) {
  s.tools.set(name, s.mcp.registerTool(name, { description: 'Added at run time by add_tool' }, async () => text(`I am ${name}`)));
}
function registerPrompt(s, name) {
  s.prompts.set(name, s.mcp.registerPrompt(name, { description: 'Added at run time by add_prompt' },
    async () => ({ messages: [{ role: 'user', content: { type: 'text', text: `Prompt ${name}` } }] })));
}

// -- one McpServer per session ---------------------------------------------
function newSession() {
  const mcp = new McpServer({ name: 'cafmcp-ts-peer', version: '1.0.0' },
    { capabilities: { resources: { subscribe: true, listChanged: true }, tools: { listChanged: true }, prompts: { listChanged: true } } });
  const s = { mcp, resources: new Map(), tools: new Map(), prompts: new Map(), subscriptions: new Set() };

  mcp.server.setRequestHandler(SubscribeRequestSchema, async (req) => { s.subscriptions.add(req.params.uri); return {}; });
  mcp.server.setRequestHandler(UnsubscribeRequestSchema, async (req) => { s.subscriptions.delete(req.params.uri); return {}; });

  mcp.registerTool('test_simple_text', { description: 'Returns simple text content' },
    async () => text('This is a simple text response for testing.'));

  mcp.registerTool('add_resource', { description: 'Adds a text resource', inputSchema: { uri: z.string(), name: z.string(), text: z.string() } },
    async ({ uri, name, text: body }) => {
      const existed = registry.resources.has(uri);
      registry.resources.set(uri, { name, text: body });
      everySession((o) => { if (existed) o.resources.get(uri)?.remove(); registerResource(o, uri); });
      return text(`added ${uri}`);
    });
  mcp.registerTool('update_resource', {
    description: 'Changes a resource: text -> resources/updated to subscribers; name/description -> list_changed',
    inputSchema: { uri: z.string(), text: z.string().optional(), name: z.string().optional(), description: z.string().optional() },
  }, async ({ uri, text: body, name, description }) => {
    const r = registry.resources.get(uri);
    if (!r) return failure(`unknown resource (add it with add_resource first): ${uri}`);
    if (body !== undefined) r.text = body;
    if (name !== undefined) r.name = name;
    if (description !== undefined) r.description = description;
    if (name !== undefined || description !== undefined)
      everySession((o) => o.resources.get(uri)?.update({ name: r.name, metadata: { mimeType: 'text/plain', description: r.description } }));
    else
      everySession((o) => { if (o.subscriptions.has(uri)) o.mcp.server.sendResourceUpdated({ uri }).catch(() => {}); });
    return text(`updated ${uri}`);
  });
  mcp.registerTool('remove_resource', { description: 'Removes a resource', inputSchema: { uri: z.string() } },
    async ({ uri }) => {
      if (!registry.resources.delete(uri)) return failure(`no such resource: ${uri}`);
      everySession((o) => { o.resources.get(uri)?.remove(); o.resources.delete(uri); });
      return text(`removed ${uri}`);
    });
  mcp.registerTool('add_tool', { description: 'Adds a tool that answers with its own name', inputSchema: { name: z.string() } },
    async ({ name }) => {
      if (registry.tools.has(name)) return failure(`tool exists: ${name}`);
      registry.tools.add(name);
      everySession((o) => registerTool(o, name));
      return text(`added tool ${name}`);
    });
  mcp.registerTool('remove_tool', { description: 'Removes a tool', inputSchema: { name: z.string() } },
    async ({ name }) => {
      if (!registry.tools.delete(name)) return failure(`no such tool: ${name}`);
      everySession((o) => { o.tools.get(name)?.remove(); o.tools.delete(name); });
      return text(`removed tool ${name}`);
    });
  mcp.registerTool('add_prompt', { description: 'Adds a prompt', inputSchema: { name: z.string() } },
    async ({ name }) => {
      if (registry.prompts.has(name)) return failure(`prompt exists: ${name}`);
      registry.prompts.add(name);
      everySession((o) => registerPrompt(o, name));
      return text(`added prompt ${name}`);
    });
  mcp.registerTool('remove_prompt', { description: 'Removes a prompt', inputSchema: { name: z.string() } },
    async ({ name }) => {
      if (!registry.prompts.delete(name)) return failure(`no such prompt: ${name}`);
      everySession((o) => { o.prompts.get(name)?.remove(); o.prompts.delete(name); });
      return text(`removed prompt ${name}`);
    });

  for (const uri of registry.resources.keys()) registerResource(s, uri);
  for (const name of registry.tools) registerTool(s, name);
  for (const name of registry.prompts) registerPrompt(s, name);
  sessions.add(s);
  return s;
}

// -- transports -----------------------------------------------------------
const args = process.argv.slice(2);
if (args.includes('--stdio')) {
  const s = newSession();
  await s.mcp.connect(new StdioServerTransport());
} else if (args.includes('--http')) {
  const i = args.indexOf('--port');
  const port = i >= 0 ? Number(args[i + 1]) : 3001;
  const transports = new Map(); // session id -> transport

  const http = createServer(async (req, res) => {
    if (new URL(req.url, 'http://127.0.0.1').pathname !== '/mcp') { res.writeHead(404).end(); return; }
    const sid = req.headers['mcp-session-id'];
    if (sid) {
      const t = transports.get(sid);
      if (!t) { res.writeHead(404).end(); return; }
      await t.handleRequest(req, res);
      return;
    }
    if (req.method !== 'POST') { res.writeHead(400).end(); return; }
    const s = newSession();
    const t = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => transports.set(id, t),
    });
    t.onclose = () => { if (t.sessionId) transports.delete(t.sessionId); sessions.delete(s); };
    await s.mcp.connect(t);
    await t.handleRequest(req, res);
    if (!t.sessionId) sessions.delete(s); // not an initialize: nothing to keep
  });
  http.listen(port, '127.0.0.1', () => {
    process.stderr.write(`cafmcp-ts-peer listening on http://127.0.0.1:${http.address().port}/mcp\n`);
  });
  const stop = () => { http.close(() => process.exit(0)); http.closeAllConnections(); };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
} else {
  process.stderr.write('usage: node server.mjs --stdio | --http [--port N]\n');
  process.exit(2);
}
