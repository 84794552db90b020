// A real OAuth 2.1 / OpenID authorization server for the auth tests:
// oidc-provider (pinned in package-lock.json) on a loopback port, with
// client credentials, resource indicators (JWT access tokens whose `aud` is
// the MCP server), introspection and a JWKS. Its signing keys are made
// here, so a test can also forge the bad tokens a real server never issues
// (expired, another audience, alg none...) and rotate them.
import { request } from 'node:http';
import { createServer } from 'node:net';
import Provider, { errors } from 'oidc-provider';
import { exportJWK, generateKeyPair } from 'jose';

export async function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

// One connection per request (fetch would reuse a pooled connection to a
// server a test has just restarted).
function postForm(url, form, authorization) {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent: false,
      headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' } }, (res) => {
      let text = '';
      res.on('data', (c) => { text += c; });
      res.on('end', () => resolve({ status: res.statusCode, json: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(form.toString());
  });
}

export async function signingKey(kid) {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid, alg: 'ES256', use: 'sig' };
  return { kid, privateKey, publicKey, jwk };
}

// Clients: `mcp-app` may ask for every scope, `reader-app` for mcp:read
// only, `opaque-app` gets opaque tokens (introspected), `mcp-server` is
// the resource server introspecting them.
const CLIENTS = [
  { client_id: 'mcp-app', client_secret: 'app-secret', scope: 'mcp:read mcp:admin' },
  { client_id: 'reader-app', client_secret: 'reader-secret', scope: 'mcp:read' },
  { client_id: 'opaque-app', client_secret: 'opaque-secret', scope: 'mcp:read mcp:admin' },
  { client_id: 'mcp-server', client_secret: 'rs-secret' },
].map((c) => ({ ...c, grant_types: ['client_credentials'], redirect_uris: [], response_types: [],
  id_token_signed_response_alg: 'ES256' }));

export async function startAuthorizationServer({ resource, keys, port }) {
  port ??= await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    clients: CLIENTS,
    jwks: { keys: keys.map((k) => k.jwk) }, // the first signs
    scopes: ['mcp:read', 'mcp:admin'],
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      introspection: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (ctx, indicator, client) => {
          if (indicator !== resource) throw new errors.InvalidTarget();
          return {
            scope: 'mcp:read mcp:admin',
            audience: resource,
            accessTokenTTL: 600,
            accessTokenFormat: client.clientId === 'opaque-app' ? 'opaque' : 'jwt',
            jwt: { sign: { alg: 'ES256' } },
          };
        },
      },
    },
  });
  const server = await new Promise((resolve) => { const s = provider.listen(port, '127.0.0.1', () => resolve(s)); });
  return {
    issuer,
    port,
    // A client credentials token, as any client gets one.
    async token(clientId, secret, { scope, resource: res = resource } = {}) {
      const body = new URLSearchParams({ grant_type: 'client_credentials', resource: res });
      if (scope) body.set('scope', scope);
      const { status, json } = await postForm(`${issuer}/token`, body,
        'Basic ' + Buffer.from(`${clientId}:${secret}`).toString('base64'));
      if (status !== 200) throw new Error(`token request failed: ${JSON.stringify(json)}`);
      return json.access_token;
    },
    stop: () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }),
  };
}
