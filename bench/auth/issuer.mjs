// A minimal OAuth issuer for the JWT benchmark rows (no dependencies): its
// OpenID metadata and JWKS on a loopback port, and one ES256 access token
// for the audience given, printed as {"issuer","token"} on stdout. Runs
// until SIGTERM. Not an authorization server: it grants nothing, it only
// lets a server verify one real JWT per request as it would in service.
//   node bench/auth/issuer.mjs AUDIENCE
import { createServer } from 'node:http';
import { generateKeyPairSync, sign } from 'node:crypto';

const audience = process.argv[2] ?? 'http://bench.local/mcp';
const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const jwk = { ...publicKey.export({ format: 'jwk' }), kid: 'bench', alg: 'ES256', use: 'sig' };
const b64 = (x) => Buffer.from(typeof x === 'string' ? x : JSON.stringify(x)).toString('base64url');

let issuer;
const server = createServer((req, res) => {
  const body = req.url === '/.well-known/openid-configuration' ? { issuer, jwks_uri: `${issuer}/jwks` }
    : req.url === '/jwks' ? { keys: [jwk] } : null;
  res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body ?? {}));
});
server.listen(0, '127.0.0.1', () => {
  issuer = `http://127.0.0.1:${server.address().port}`;
  const now = Math.floor(Date.now() / 1000);
  const input = `${b64({ alg: 'ES256', kid: 'bench', typ: 'at+jwt' })}.${b64({
    iss: issuer, aud: audience, sub: 'bench', client_id: 'bench', scope: 'mcp', iat: now, exp: now + 86400 })}`;
  const signature = sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' });
  console.log(JSON.stringify({ issuer, token: `${input}.${signature.toString('base64url')}` }));
});
process.on('SIGTERM', () => process.exit(0));
