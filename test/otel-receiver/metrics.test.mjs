// End to end: everything-server exports its metrics over OTLP/HTTP (the
// same endpoint as its traces, OTEL_EXPORTER_OTLP_ENDPOINT) to the strict
// receiver, which checks every request against the official
// ExportMetricsServiceRequest definition, in both encodings: binary
// protobuf (OTLP/HTTP's default, decoded by protobufjs and required to
// re-encode to the same bytes) and JSON. The exported points must be what
// the clients did.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startReceiver } from './receiver.mjs';
import { connectHttp, startHttpServer } from '../interop/lib/harness.mjs';

const SESSIONS = 2;
const CALLS = 5;

const find = (points, name, attrs = {}) =>
  points.find((p) => p.name === name && Object.entries(attrs).every(([k, v]) => p.attrs[k] === v)
    && Object.keys(p.attrs).length === Object.keys(attrs).length);

for (const [protocol, contentType] of [['http/protobuf', 'application/x-protobuf'], ['http/json', 'application/json']])
describe(`metrics over OTLP ${protocol}`, () => {
let rx, server, clients = [];

before(async () => {
  rx = await startReceiver({ failFirst: 1 }); // the first export meets a 503 and is retried
  server = startHttpServer([], {
    OTEL_EXPORTER_OTLP_ENDPOINT: rx.url,
    OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: protocol,
    OTEL_SERVICE_NAME: 'everything-metrics',
    OTEL_TRACES_EXPORTER: 'none', // metrics only: the receiver sees no spans
    OTEL_METRIC_EXPORT_INTERVAL: '100',
  });
  const url = await server.url;
  for (let i = 0; i < SESSIONS; i++) clients.push(await connectHttp(url));
});

after(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await server?.stop();
  await rx?.close();
});

test('the exported points are strictly valid OTLP and match the load', async () => {
  for (let i = 0; i < CALLS; i++)
    await clients[i % SESSIONS].client.callTool({ name: 'test_simple_text', arguments: {} });
  // An export taken after the last call: its tools/call histogram has them all.
  const state = await rx.waitFor((st) => st.metricExports.some((points) => {
    const h = find(points, 'mcp.server.operation.duration', { 'mcp.method.name': 'tools/call' });
    return h && Number(h.point.count) === CALLS;
  }));
  assert.deepEqual(state.failures, [], 'every export is valid OTLP');
  assert.equal(state.spans.length, 0);
  assert.ok(state.rejected503 >= 1);
  const points = state.metricExports.find((ps) => {
    const h = find(ps, 'mcp.server.operation.duration', { 'mcp.method.name': 'tools/call' });
    return h && Number(h.point.count) === CALLS;
  });

  const h = find(points, 'mcp.server.operation.duration', { 'mcp.method.name': 'tools/call' });
  assert.equal(h.kind, 'histogram');
  assert.equal(h.unit, 's');
  assert.equal(h.temporality, 2); // cumulative
  assert.deepEqual(h.point.explicitBounds, [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300]);
  assert.equal(h.point.bucketCounts.length, 15);
  assert.equal(h.point.bucketCounts.reduce((a, b) => a + Number(b), 0), CALLS);
  assert.ok(h.point.sum > 0);
  assert.ok(BigInt(h.point.startTimeUnixNano) <= BigInt(h.point.timeUnixNano));
  assert.equal(h.resource['service.name'], 'everything-metrics');

  const init = find(points, 'mcp.server.operation.duration', { 'mcp.method.name': 'initialize' });
  assert.equal(Number(init.point.count), SESSIONS);

  const sessions = find(points, 'cafmcp.sessions');
  assert.equal(sessions.kind, 'sum');
  assert.equal(sessions.monotonic, false);
  assert.equal(Number(sessions.point.asInt), SESSIONS);
  const http = find(points, 'cafmcp.http.sessions');
  assert.equal(Number(http.point.asInt), SESSIONS);
  const restarts = find(points, 'cafmcp.supervisor.restarts', { 'cafmcp.actor': 'notifier' });
  assert.equal(restarts.kind, 'sum');
  assert.equal(restarts.monotonic, true);
  assert.equal(Number(restarts.point.asInt), 0);
  for (const headers of state.headers) assert.equal(headers['content-type'], contentType);
});
});
