// GET /metrics scraped while official TypeScript SDK clients load
// everything-server over Streamable HTTP: N sessions, M tool calls, K
// resource updates to every subscriber. The numbers scraped must be exactly
// what the load did; counters never go back between scrapes taken during
// the load.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { connectHttp, isMethod, startHttpServer } from './lib/harness.mjs';

const N = 4; // sessions
const M = 40; // tools/call test_simple_text, spread over the sessions
const K = 6; // update_resource calls: K * N resources/updated deliveries
const URI = 'test://metrics/load';

let server, base;

before(async () => {
  server = startHttpServer(['--metrics']);
  base = new URL(await server.url);
});

after(async () => { await server?.stop(); });

function get(path, headers = {}, method = 'GET') {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: base.hostname, port: base.port, path, method, headers }, (res) => {
      let body = '';
      res.on('data', (c) => { body += c; });
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

// { 'name{labels}': value } for every sample line.
function parse(text) {
  const out = {};
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    out[line.slice(0, at)] = Number(line.slice(at + 1));
  }
  return out;
}

async function scrape() {
  const r = await get('/metrics');
  assert.equal(r.status, 200);
  assert.match(r.headers['content-type'], /^text\/plain; version=0\.0\.4/);
  return { text: r.body, samples: parse(r.body) };
}

const dur = (method, extra = '') => `mcp_server_operation_duration_seconds_count{mcp_method_name="${method}"${extra}}`;
const delivered = (method) => `cafmcp_notifications_delivered_total{mcp_method_name="${method}"}`;

test('refused to foreign hosts and origins, and to methods other than GET', async () => {
  assert.equal((await get('/metrics', { Host: 'evil.example:80' })).status, 403);
  assert.equal((await get('/metrics', { Origin: 'http://evil.example' })).status, 403);
  const post = await get('/metrics', {}, 'POST');
  assert.equal(post.status, 405);
  assert.equal(post.headers.allow, 'GET');
});

test('scraped during a load, the numbers are what the load did', async () => {
  const before = (await scrape()).samples;
  assert.equal(before.cafmcp_sessions, 0);
  const clients = [];
  for (let i = 0; i < N; i++) clients.push(await connectHttp(base.href));
  await clients[0].client.callTool({ name: 'add_resource', arguments: { uri: URI, name: 'load', text: 'v0' } });
  for (const c of clients) await c.client.subscribeResource({ uri: URI });

  // Calls in flight while we scrape: counters only grow between scrapes.
  const calls = [];
  for (let i = 0; i < M; i++) calls.push(clients[i % N].client.callTool({ name: 'test_simple_text', arguments: {} }));
  let last = 0;
  let done = false;
  const all = Promise.all(calls).then(() => { done = true; });
  for (let round = 0; round < 50 && !done; round++) {
    const now = (await scrape()).samples[dur('tools/call')] ?? 0;
    assert.ok(now >= last, `tools/call count went back from ${last} to ${now}`);
    last = now;
  }
  await all;
  await clients[1].client.callTool({ name: 'test_error_handling', arguments: {} });

  const marks = clients.map((c) => c.recorder.mark);
  for (let k = 1; k <= K; k++)
    await clients[0].client.callTool({ name: 'update_resource', arguments: { uri: URI, text: `v${k}` } });
  // Every subscriber saw all K updates: the deliveries happened.
  const updated = isMethod('notifications/resources/updated');
  for (const [i, c] of clients.entries())
    await c.recorder.waitFor(() => c.recorder.count(updated, marks[i]) >= K, { from: marks[i] });

  const { text, samples } = await scrape();
  assert.equal(samples.cafmcp_sessions, N);
  assert.equal(samples.cafmcp_http_sessions, N);
  assert.equal(samples.cafmcp_subscriptions, N);
  assert.equal(samples.cafmcp_server_active_requests, 0);
  assert.equal(samples[dur('initialize')], N);
  assert.equal(samples[dur('resources/subscribe')], N);
  // add_resource, M test_simple_text, K update_resource; the tool error apart.
  assert.equal(samples[dur('tools/call')], 1 + M + K);
  assert.equal(samples[dur('tools/call', ',error_type="tool_error"')], 1);
  assert.equal(samples[delivered('notifications/resources/updated')], K * N);
  assert.equal(samples[delivered('notifications/resources/list_changed')], N); // add_resource's
  assert.equal(samples['cafmcp_supervisor_restarts_total{cafmcp_actor="server"}'], 0);
  assert.equal(samples['cafmcp_slow_consumers_dropped_total'], 0);
  // A histogram's +Inf bucket is its count; buckets are cumulative.
  const buckets = Object.entries(samples).filter(([k]) => k.startsWith('mcp_server_operation_duration_seconds_bucket{mcp_method_name="tools/call",le='));
  assert.equal(buckets.length, 15); // 14 bounds and +Inf
  for (let i = 1; i < buckets.length; i++) assert.ok(buckets[i][1] >= buckets[i - 1][1]);
  assert.equal(buckets.at(-1)[1], 1 + M + K);
  assert.match(text, /# TYPE mcp_server_operation_duration_seconds histogram\n/);
  assert.match(text, /# TYPE cafmcp_notifications_delivered_total counter\n/);
  const sessionsEnded = (samples) => Object.entries(samples)
    .filter(([k]) => k.startsWith('mcp_server_session_duration_seconds_count{'))
    .reduce((sum, [, v]) => sum + v, 0);
  assert.equal(sessionsEnded(samples), 0); // all still open

  for (const c of clients) { await c.transport.terminateSession(); await c.close(); }
  let after;
  for (let round = 0; round < 100; round++) {
    after = (await scrape()).samples;
    if (after.cafmcp_sessions === 0 && after.cafmcp_http_sessions === 0) break;
    await new Promise((r) => setImmediate(r));
  }
  assert.equal(after.cafmcp_sessions, 0);
  assert.equal(after.cafmcp_http_sessions, 0);
  assert.equal(after.cafmcp_subscriptions, 0);
  // Each ended session is one mcp.server.session.duration observation,
  // labelled with its protocol version and transport.
  assert.equal(sessionsEnded(after), N);
  const label = Object.keys(after).find((k) => k.startsWith('mcp_server_session_duration_seconds_count{'));
  assert.match(label, /mcp_protocol_version="\d{4}-\d{2}-\d{2}",network_transport="tcp"/);
});
