// End to end: everything-server exports its spans over OTLP/HTTP to a strict
// receiver; one mutation is followed from the request that caused it to
// every notification it sent.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startReceiver } from './receiver.mjs';
import { connectHttp, isMethod, startHttpServer } from '../interop/lib/harness.mjs';

let rx, server, a, b, c;

before(async () => {
  rx = await startReceiver({ failFirst: 1 }); // the first export meets a 503 and is retried
  server = startHttpServer([], {
    OTEL_EXPORTER_OTLP_ENDPOINT: rx.url,
    OTEL_SERVICE_NAME: 'everything-e2e',
    OTEL_BSP_SCHEDULE_DELAY: '50',
    OTEL_TRACES_SAMPLER: 'always_on',
  });
  const url = await server.url;
  [a, b, c] = await Promise.all([connectHttp(url), connectHttp(url), connectHttp(url)]);
});

after(async () => {
  for (const s of [a, b, c]) await s?.close().catch(() => {});
  await server?.stop();
  await rx?.close();
});

const byName = (spans, name) => spans.filter((s) => s.name === name);
const childrenOf = (spans, parent, name) =>
  spans.filter((s) => s.parentSpanId === parent.spanId && s.traceId === parent.traceId && (!name || s.name === name));

test('one trace from the request to every send, exported strictly valid OTLP', async () => {
  await a.client.callTool({ name: 'add_resource', arguments: { uri: 'test://trace/1', name: 't1', text: 'v1' } });
  await b.client.subscribeResource({ uri: 'test://trace/1' });
  const mark = b.recorder.mark;
  await a.client.callTool({ name: 'update_resource', arguments: { uri: 'test://trace/1', text: 'v2' } });
  const updated = await b.recorder.waitFor(isMethod('notifications/resources/updated'), { from: mark });

  const listSend = 'send notifications/resources/list_changed';
  const updSend = 'send notifications/resources/updated';
  const state = await rx.waitFor((st) => byName(st.spans, listSend).length >= 3 && byName(st.spans, updSend).length >= 1
    && byName(st.spans, 'tools/call update_resource').length >= 1);
  assert.deepEqual(state.failures, [], 'every export is valid OTLP');
  assert.equal(state.rejected503, 1);
  const spans = state.spans;
  assert.equal(spans[0].resource['service.name'], 'everything-e2e');

  // add_resource: request -> mutation -> broadcast -> one send per session.
  const [call] = byName(spans, 'tools/call add_resource');
  assert.ok(call, 'a SERVER span for the request');
  assert.equal(call.kind, 2);
  assert.equal(call.attrs['mcp.method.name'], 'tools/call');
  assert.equal(call.attrs['gen_ai.tool.name'], 'add_resource');
  assert.equal(call.attrs['network.transport'], 'tcp');
  assert.ok(call.attrs['mcp.session.id']);
  assert.ok(call.attrs['jsonrpc.request.id'] !== undefined);
  const [mutation] = childrenOf(spans, call, 'mutation add_resource');
  assert.ok(mutation, 'the mutation is a child of the request');
  const [broadcast] = childrenOf(spans, mutation, 'broadcast notifications/resources/list_changed');
  assert.ok(broadcast, 'the broadcast is a child of the mutation');
  assert.equal(broadcast.attrs['cafmcp.operation'], 'added');
  assert.equal(broadcast.attrs['cafmcp.subscriber_count'], 3);
  const sends = childrenOf(spans, broadcast, listSend);
  assert.equal(sends.length, 3, 'one send span per receiving session');
  assert.equal(new Set(sends.map((s) => s.attrs['mcp.session.id'])).size, 3);
  for (const s of sends) assert.equal(s.kind, 3);

  // update_resource: only the subscriber is sent to, and it can continue the trace.
  const [call2] = byName(spans, 'tools/call update_resource');
  const [mutation2] = childrenOf(spans, call2, 'mutation set_resource_contents');
  assert.ok(mutation2);
  const [broadcast2] = childrenOf(spans, mutation2, 'broadcast notifications/resources/updated');
  assert.ok(broadcast2);
  assert.equal(broadcast2.attrs['mcp.resource.uri'], 'test://trace/1');
  const sends2 = childrenOf(spans, broadcast2, updSend);
  assert.equal(sends2.length, 1);
  assert.equal(updated.params._meta.traceparent, `00-${broadcast2.traceId}-${broadcast2.spanId}-01`);
});

test('the receiver refuses what OTLP/JSON forbids (so its acceptance above means something)', async () => {
  const span = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', name: 's', kind: 2,
    startTimeUnixNano: '1', endTimeUnixNano: '2' };
  const body = (s) => JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'x' }, spans: [s] }] }] });
  const post = (text) => fetch(`${rx.url}/v1/traces`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: text });
  assert.equal((await post(body(span))).status, 200);
  for (const bad of [
    { ...span, traceId: 'S/kvNXezTaajzpKdDg5HNg==' },      // base64, not hex
    { ...span, kind: 'SPAN_KIND_SERVER' },                  // enum name, not integer
    { ...span, startTimeUnixNano: 1.5 },                    // not an integer
    { ...span, spanName: 's' },                             // unknown field
    { ...span, attributes: [{ key: 'k', value: { stringValue: 'a', intValue: '1' } }] }, // two oneof members
  ]) assert.equal((await post(body(bad))).status, 400, JSON.stringify(bad));
});

// --trace-file: the same spans as OTLP/JSON lines in a file (what Jaeger's
// UI loads); every line is a request the strict receiver accepts.
test('--trace-file writes every span as strictly valid OTLP/JSON lines', async () => {
  const { mkdtempSync, readFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const file = join(mkdtempSync(join(tmpdir(), 'cafmcp-trace-')), 'spans.jsonl');
  const srv = startHttpServer(['--trace-file', file], { OTEL_TRACES_SAMPLER: 'always_on' });
  const url = await srv.url;
  const [x, y] = await Promise.all([connectHttp(url), connectHttp(url)]);
  await x.client.callTool({ name: 'add_resource', arguments: { uri: 'test://file/1', name: 'f1', text: 'v1' } });
  await y.client.subscribeResource({ uri: 'test://file/1' });
  const mark = y.recorder.mark;
  await x.client.callTool({ name: 'update_resource', arguments: { uri: 'test://file/1', text: 'v2' } });
  await y.recorder.waitFor(isMethod('notifications/resources/updated'), { from: mark });
  for (const s of [x, y]) await s.close().catch(() => {});
  await srv.stop(); // exports what is left at exit

  const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l.length > 0);
  assert.ok(lines.length > 0, 'spans were written');
  const before = rx.state.spans.length;
  for (const line of lines) {
    const r = await fetch(`${rx.url}/v1/traces`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: line });
    assert.equal(r.status, 200, `a line the receiver refused: ${line.slice(0, 200)}`);
  }
  const spans = rx.state.spans.slice(before);
  const [broadcast] = byName(spans, 'broadcast notifications/resources/updated');
  assert.ok(broadcast);
  const sends = childrenOf(spans, broadcast, 'send notifications/resources/updated');
  assert.equal(sends.length, 1, 'one send span: one subscriber');
  assert.equal(sends[0].attrs['mcp.resource.uri'], 'test://file/1');
  assert.ok(sends[0].attrs['mcp.session.id']);
});
