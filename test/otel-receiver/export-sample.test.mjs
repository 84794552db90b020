// The otel library on its own: build/bin/otel-export-sample exports spans of
// every shape (configured only by OTEL_* variables) to the strict receiver,
// which checks each request against the official OTLP .proto definitions.
// The first request meets a 503 with Retry-After: 0 and must be retried.
// Both encodings: binary protobuf (OTLP's default), decoded by protobufjs,
// and JSON.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { startReceiver } from './receiver.mjs';

const program = process.env.OTEL_EXPORT_SAMPLE
  ?? new URL('../../build/bin/otel-export-sample', import.meta.url).pathname;

const receivers = {};
before(async () => {
  for (const protocol of ['http/protobuf', 'http/json']) receivers[protocol] = await startReceiver({ failFirst: 1 });
});
after(async () => { for (const rx of Object.values(receivers)) await rx.close(); });

// Runs the program to completion (bounded), returning its exit code and stdout.
function run(env, ms = 60000) {
  return new Promise((resolve, reject) => {
    const child = spawn(program, [], { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '', err = '';
    child.stdout.on('data', (c) => { out += c; });
    child.stderr.on('data', (c) => { err += c; });
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`timed out; stderr: ${err}`)); }, ms);
    child.on('error', (e) => { clearTimeout(timer); reject(e); });
    child.on('close', (code) => { clearTimeout(timer); resolve({ code, out, err }); });
  });
}

const rawAttr = (span, key) => span.attributes.find((a) => a.key === key)?.value;

for (const [protocol, contentType] of [['http/protobuf', 'application/x-protobuf'], ['http/json', 'application/json']])
test(`every span the library exports over ${protocol} is strictly valid OTLP and arrives intact`, async () => {
  const rx = receivers[protocol];
  const { code, out, err } = await run({
    OTEL_EXPORTER_OTLP_ENDPOINT: rx.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
    OTEL_EXPORTER_OTLP_HEADERS: 'x-test-token=abc%20def,x-tenant=t1',
    OTEL_SERVICE_NAME: 'sample-svc',
    OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=ci,service.name=overridden',
    OTEL_BSP_SCHEDULE_DELAY: '60000', // only the program's force_flush exports
    OTEL_TRACES_SAMPLER: 'always_on',
  });
  assert.equal(code, 0, `exit ${code}; stdout ${out}; stderr ${err}`);
  const sent = JSON.parse(out);
  assert.equal(sent.flushed, true);

  const state = await rx.waitFor((st) => st.spans.length >= sent.exported);
  assert.deepEqual(state.failures, [], 'the receiver accepted every request');
  assert.equal(state.rejected503, 1, 'the first request met a 503');
  assert.equal(state.spans.length, 8);
  assert.equal(sent.exported, 8);
  for (const h of state.headers) {
    assert.equal(h['x-test-token'], 'abc def');
    assert.equal(h['x-tenant'], 't1');
    assert.equal(h['content-type'], contentType);
  }

  const spans = state.spans;
  const byName = (name) => spans.filter((s) => s.name === name);
  assert.equal(spans[0].resource['service.name'], 'sample-svc');
  assert.equal(spans[0].resource['deployment.environment'], 'ci');

  const [root] = byName('GET /inventory');
  assert.equal(root.traceId, sent.trace);
  assert.equal(root.spanId, sent.root);
  assert.equal(root.parentSpanId, undefined);
  assert.equal(root.kind, 2);
  assert.deepEqual(root.status, { code: 1 });
  assert.deepEqual(root.scope, { name: 'otel-export-sample', version: '0.1.0' });
  assert.deepEqual(rawAttr(root, 'big'), { intValue: '9007199254740993' }); // no precision lost
  assert.deepEqual(rawAttr(root, 'retries'), { intValue: '-3' });
  assert.deepEqual(rawAttr(root, 'ratio'), { doubleValue: 0.25 });
  assert.deepEqual(rawAttr(root, 'cached'), { boolValue: false });
  assert.deepEqual(rawAttr(root, 'nan'), { doubleValue: 'NaN' });
  assert.deepEqual(rawAttr(root, 'inf'), { doubleValue: 'Infinity' });
  assert.equal(root.events.length, 1);
  assert.equal(root.events[0].name, 'cache miss');
  assert.match(root.events[0].timeUnixNano, /^\d{19}$/);
  assert.ok(BigInt(root.startTimeUnixNano) <= BigInt(root.events[0].timeUnixNano));
  assert.ok(BigInt(root.events[0].timeUnixNano) <= BigInt(root.endTimeUnixNano));
  assert.equal(root.links.length, 1);
  assert.equal(root.links[0].traceState, 'link=1');
  assert.equal(root.links[0].flags, 0x301);

  const [child] = byName('SELECT inventory');
  assert.equal(child.parentSpanId, sent.root);
  assert.equal(child.traceId, sent.trace);
  assert.equal(child.kind, 3);
  assert.deepEqual(child.status, { code: 2, message: 'constraint failed' });

  const [enqueue] = byName('enqueue');
  const [dequeue] = byName('dequeue');
  assert.equal(enqueue.kind, 4);
  assert.equal(dequeue.kind, 5);
  assert.deepEqual(enqueue.scope, { name: 'second-scope' });

  const [remoteChild] = byName('tools/call get-weather');
  assert.equal(remoteChild.traceId, '4bf92f3577b34da6a3ce929d0e0e4736');
  assert.equal(remoteChild.parentSpanId, '00f067aa0ba902b7');
  assert.equal(remoteChild.traceState, 'rojo=00f067aa0ba902b7,congo=t61rcWkgMzE');
  assert.equal(remoteChild.flags, 0x301, 'sampled, with a remote parent');

  const sends = byName('send notifications/message');
  assert.equal(sends.length, 3);
  assert.deepEqual(sends.map((s) => s.attrs['mcp.session.id']).sort(), ['session-0', 'session-1', 'session-2']);
  for (const s of sends) {
    assert.equal(s.parentSpanId, sent.remoteChild);
    assert.equal(s.kind, 3);
  }
  assert.equal(new Set(spans.map((s) => s.spanId)).size, 8, 'span ids are unique');
});

test('the same receiver refuses a request our encoder would never produce', async () => {
  const rx = receivers['http/json'];
  const body = JSON.parse(rx.state.bodies[0]);
  const post = (b) => fetch(`${rx.url}/v1/traces`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(b) });
  assert.equal((await post(body)).status, 200, 'a captured request is accepted as is');
  for (const mutate of [
    (s) => { s.traceId = s.traceId.toUpperCase(); },
    (s) => { s.kind = 'SPAN_KIND_SERVER'; },
    (s) => { s.startTimeUnixNano = 1.5; },
    (s) => { s.status = { code: 'STATUS_CODE_OK' }; },
    (s) => { s.trace_id = s.traceId; },
  ]) {
    const copy = structuredClone(body);
    mutate(copy.resourceSpans[0].scopeSpans[0].spans[0]);
    assert.equal((await post(copy)).status, 400, mutate.toString());
  }
});

test('the receiver refuses protobuf it cannot decode exactly', async () => {
  const rx = receivers['http/protobuf'];
  const body = rx.state.bodies[0];
  const post = (b) => fetch(`${rx.url}/v1/traces`, { method: 'POST', headers: { 'Content-Type': 'application/x-protobuf' }, body: b });
  assert.equal((await post(body)).status, 200, 'a captured request is accepted as is');
  assert.equal((await post(body.subarray(0, body.length - 3))).status, 400, 'cut short');
  assert.equal((await post(Buffer.concat([body, Buffer.from([0xf8, 0x07, 0x01])]))).status, 400, 'an unknown field 127');
});
