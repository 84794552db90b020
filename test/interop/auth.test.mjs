// cafmcp as an OAuth 2.1 resource server (MCP 2025-11-25 basic/authorization)
// against a real authorization server, oidc-provider: everything-server with
// --auth-issuer and --resource-uri, tokens from the client credentials
// grant (JWT and opaque), the official SDK client with its OAuth provider,
// and every refusal checked for status, challenge and body.
import { test, describe, before, after } from 'node:test';
import { execFile } from 'node:child_process';
import assert from 'node:assert/strict';
import { SignJWT } from 'jose';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ClientCredentialsProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { startHttpServer } from './lib/harness.mjs';
import { freePort, signingKey, startAuthorizationServer } from './lib/oidc.mjs';

const PROTOCOL = '2025-11-25';
const initialize = (id = 1) => JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize',
  params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'auth-test', version: '1' } } });
const rpc = (id, method, params = {}) => JSON.stringify({ jsonrpc: '2.0', id, method, params });

describe('everything-server as an OAuth resource server, oidc-provider as its authorization server', () => {
  let as, server, url, resource, key1, key2;

  async function post(body, { token, session } = {}) {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream',
      'mcp-protocol-version': PROTOCOL };
    if (token) headers.authorization = `Bearer ${token}`;
    if (session) headers['mcp-session-id'] = session;
    const r = await fetch(url, { method: 'POST', headers, body });
    const text = await r.text();
    return { status: r.status, challenge: r.headers.get('www-authenticate'), session: r.headers.get('mcp-session-id'),
      body: text ? JSON.parse(text) : null };
  }
  async function sessionOf(token) {
    const r = await post(initialize(), { token });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const n = await post(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), { token, session: r.session });
    assert.equal(n.status, 202);
    return r.session;
  }
  const metadataUrl = () => `${new URL(url).origin}/.well-known/oauth-protected-resource/mcp`;

  before(async () => {
    const mcpPort = await freePort();
    resource = `http://127.0.0.1:${mcpPort}/mcp`;
    key1 = await signingKey('key-1');
    key2 = await signingKey('key-2');
    as = await startAuthorizationServer({ resource, keys: [key1] });
    server = startHttpServer(['--port', String(mcpPort), '--auth-issuer', as.issuer, '--resource-uri', resource,
      '--auth-scopes', 'mcp:read mcp:admin', '--auth-introspection-client-id', 'mcp-server', '--auth-jwks-refetch-s', '0'],
    { CAFMCP_AUTH_CLIENT_SECRET: 'rs-secret' });
    url = await server.url;
    assert.equal(url, resource);
  });
  after(async () => {
    await server?.stop();
    await as?.stop();
  });

  test('the protected resource metadata is public and names the authorization server', async () => {
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      const r = await fetch(new URL(path, url));
      assert.equal(r.status, 200, path);
      const doc = await r.json();
      assert.equal(doc.resource, resource);
      assert.deepEqual(doc.authorization_servers, [as.issuer]);
      assert.deepEqual(doc.scopes_supported, ['mcp:read', 'mcp:admin']);
    }
  });

  test('nothing else is served without a token: 401 with resource_metadata', async () => {
    const r = await post(initialize());
    assert.equal(r.status, 401);
    assert.equal(r.challenge, `Bearer resource_metadata="${metadataUrl()}"`);
    assert.equal(r.body.error.message, 'Unauthorized: a bearer token is required');
    const get = await fetch(url, { headers: { accept: 'text/event-stream', 'mcp-session-id': 'x' } });
    assert.equal(get.status, 401);
    await get.body?.cancel();
  });

  test('the official SDK client with its OAuth provider discovers, gets a token and is served', async () => {
    const provider = new ClientCredentialsProvider({ clientId: 'mcp-app', clientSecret: 'app-secret',
      scope: 'mcp:read mcp:admin', expectedIssuer: as.issuer });
    const client = new Client({ name: 'sdk-oauth', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: provider }));
    try {
      const tools = (await client.listTools()).tools.map((t) => t.name);
      assert.ok(tools.includes('admin_report') && tools.includes('whoami'), tools.join());
      const me = await client.callTool({ name: 'whoami', arguments: {} });
      assert.equal(me.structuredContent.subject, 'mcp-app');
      assert.deepEqual([...me.structuredContent.scopes].sort(), ['mcp:admin', 'mcp:read']);
      assert.ok(provider.tokens()?.access_token, 'the provider holds the token it got');
    } finally {
      await client.close();
    }
  });

  test('a token without a tool\'s scope: the tool is not listed, and calling it is 403 insufficient_scope', async () => {
    const token = await as.token('reader-app', 'reader-secret', { scope: 'mcp:read' });
    const session = await sessionOf(token);
    const listed = await post(rpc(2, 'tools/list'), { token, session });
    const names = listed.body.result.tools.map((t) => t.name);
    assert.ok(names.includes('whoami') && !names.includes('admin_report'), names.join());
    const r = await post(rpc(3, 'tools/call', { name: 'admin_report', arguments: {} }), { token, session });
    assert.equal(r.status, 403);
    assert.equal(r.challenge, `Bearer error="insufficient_scope", scope="mcp:admin", resource_metadata="${metadataUrl()}"`);
    assert.equal(r.body.id, 3);
    assert.deepEqual(r.body.error.data, { requiredScopes: ['mcp:admin'] });
  });

  test('another subject\'s valid token on an existing session is 404, as for an unknown one', async () => {
    const mine = await as.token('mcp-app', 'app-secret');
    const theirs = await as.token('reader-app', 'reader-secret', { scope: 'mcp:read' });
    const session = await sessionOf(mine);
    const r = await post(rpc(2, 'tools/list'), { token: theirs, session });
    assert.equal(r.status, 404);
    assert.equal(r.body.id, 2);
    assert.equal((await post(rpc(3, 'ping'), { token: mine, session })).status, 200);
  });

  test('an opaque token is checked by introspection', async () => {
    const token = await as.token('opaque-app', 'opaque-secret', { scope: 'mcp:read' });
    assert.equal(token.split('.').length, 1, 'oidc-provider issued an opaque token');
    const session = await sessionOf(token);
    const r = await post(rpc(2, 'tools/call', { name: 'whoami', arguments: {} }), { token, session });
    assert.equal(r.status, 200);
    assert.equal(r.body.result.structuredContent.subject, 'opaque-app');
    assert.deepEqual(r.body.result.structuredContent.scopes, ['mcp:read']);
    const unknown = await post(initialize(), { token: 'not-issued-by-anyone' });
    assert.equal(unknown.status, 401);
    assert.match(unknown.challenge, /error="invalid_token", error_description="token is not active"/);
  });

  test('every bad token is 401 invalid_token, saying why', async () => {
    const now = Math.floor(Date.now() / 1000);
    const sign = (claims, { key = key1, alg = 'ES256', kid = key.kid } = {}) =>
      new SignJWT({ scope: 'mcp:read', client_id: 'mcp-app', ...claims })
        .setProtectedHeader({ alg, kid, typ: 'at+jwt' }).sign(key.privateKey);
    const base = { iss: as.issuer, aud: resource, sub: 'mcp-app', iat: now, exp: now + 600 };
    const b64 = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const hmacKey = new TextEncoder().encode(JSON.stringify(key1.jwk)); // an attacker's guess at the "secret"
    const cases = [
      ['token expired', await sign({ ...base, iat: now - 7200, exp: now - 3600 })],
      ['token not yet valid', await sign({ ...base, nbf: now + 3600 })],
      ['token audience is not this resource', await sign({ ...base, aud: 'http://127.0.0.1:1/other' })],
      ['token issued by another issuer', await sign({ ...base, iss: 'http://127.0.0.1:1' })],
      ["alg 'none' is not accepted", `${b64({ alg: 'none', kid: 'key-1' })}.${b64(base)}.`],
      ["alg 'HS256' is not accepted", await new SignJWT(base).setProtectedHeader({ alg: 'HS256', kid: 'key-1' }).sign(hmacKey)],
    ];
    for (const [reason, token] of cases) {
      const r = await post(initialize(), { token });
      assert.equal(r.status, 401, reason);
      assert.equal(r.challenge, `Bearer error="invalid_token", error_description="${reason}", resource_metadata="${metadataUrl()}"`);
      assert.equal(r.body.error.message, `Unauthorized: invalid bearer token (${reason})`);
    }
  });

  test('cafmcp-check reports the auth surface, and its OAuth client gets a token and runs every check', async () => {
    const check = process.env.CAFMCP_CHECK ?? new URL('../../build/bin/cafmcp-check', import.meta.url).pathname;
    const run = (args, env = {}) => new Promise((resolve) => {
      execFile(check, ['--url', url, '--json', ...args], { env: { ...process.env, ...env }, timeout: 60000 },
        (err, stdout, stderr) => resolve({ code: err ? err.code : 0, report: stdout ? JSON.parse(stdout) : null, stderr }));
    });
    const byId = (report) => Object.fromEntries(report.checks.map((c) => [c.id, c]));
    const authed = await run(['--oauth-client-id', 'mcp-app', '--oauth-scope', 'mcp:read mcp:admin'],
      { CAFMCP_OAUTH_CLIENT_SECRET: 'app-secret' });
    const checks = byId(authed.report);
    assert.equal(checks['auth.challenge'].status, 'PASS', JSON.stringify(checks['auth.challenge']));
    assert.equal(checks['auth.metadata'].status, 'PASS', JSON.stringify(checks['auth.metadata']));
    const failed = authed.report.checks.filter((c) => c.status === 'FAIL');
    assert.deepEqual(failed, []);
    assert.ok(authed.report.summary.pass >= 10, JSON.stringify(authed.report.summary));
    assert.equal(authed.code, 0, authed.stderr);
    // A wrong secret: the surface is still judged, the rest cannot run.
    const refused = await run(['--oauth-client-id', 'mcp-app'], { CAFMCP_OAUTH_CLIENT_SECRET: 'wrong' });
    assert.equal(byId(refused.report)['auth.metadata'].status, 'PASS');
    assert.notEqual(refused.code, 0);
  });

  test('an unknown kid after a key rotation refetches the keys and is accepted', async () => {
    const before = await as.token('mcp-app', 'app-secret');
    assert.equal((await post(initialize(), { token: before })).status, 200); // key-1 is known now
    const port = as.port;
    await as.stop();
    as = await startAuthorizationServer({ resource, keys: [key2, key1], port }); // key-2 signs from now on
    const after = await as.token('mcp-app', 'app-secret');
    assert.equal(JSON.parse(Buffer.from(after.split('.')[0], 'base64url')).kid, 'key-2');
    const r = await post(initialize(), { token: after });
    assert.equal(r.status, 200, JSON.stringify(r.body));
  });
});
