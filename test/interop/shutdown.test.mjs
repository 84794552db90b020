// SIGTERM to a real everything-server over Streamable HTTP while an official
// TypeScript SDK client's tools/call is in flight (its handler logged, so
// the answer is an SSE stream): within the grace the client gets the tool's
// real result, the process exits 0 and its span reaches the trace file
// (batched for a minute: only the flush at exit writes it); past the grace
// the client gets a JSON-RPC error, never a bare close.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectHttp, isMethod, startHttpServer, textOf } from './lib/harness.mjs';

const exited = (child) => new Promise((resolve) => {
  if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, signal: child.signalCode });
  else child.on('exit', (code, signal) => resolve({ code, signal }));
});

// Every span name the trace file holds (OTLP/JSON, one export per line).
function spanNames(path) {
  const names = [];
  for (const line of readFileSync(path, 'utf8').split('\n').filter(Boolean))
    for (const rs of JSON.parse(line).resourceSpans ?? [])
      for (const ss of rs.scopeSpans ?? [])
        for (const s of ss.spans ?? []) names.push(s.name);
  return names;
}

// Starts the call, waits for its log notification (the handler runs, and
// the answer is an SSE stream), then sends SIGTERM.
async function terminateDuringCall(server, s, ms) {
  const mark = s.recorder.mark;
  const call = s.client.callTool({ name: 'slow_call', arguments: { ms } }, undefined, { timeout: 60000 });
  call.catch(() => {}); // awaited below; no unhandled rejection meanwhile
  const log = await s.recorder.waitFor(isMethod('notifications/message'), { from: mark, ms: 10000 });
  assert.equal(log.params.data, 'slow_call started');
  server.child.kill('SIGTERM');
  return call;
}

test('SIGTERM: a call in flight gets its real result, the span is flushed, exit 0', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cafmcp-shutdown-'));
  const traces = join(dir, 'spans.jsonl');
  try {
    const server = startHttpServer(['--trace-file', traces, '--shutdown-grace-ms', '60000'],
      { OTEL_BSP_SCHEDULE_DELAY: '60000', OTEL_TRACES_SAMPLER: 'always_on' });
    const s = await connectHttp(await server.url);
    const result = await terminateDuringCall(server, s, 1000);
    assert.equal(textOf(result), 'slow_call finished after 1000 ms');
    assert.deepEqual(await exited(server.child), { code: 0, signal: null });
    assert.ok(spanNames(traces).includes('tools/call slow_call'), 'the call\'s span was flushed at exit');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('SIGTERM: past the grace a call in flight gets a JSON-RPC error, exit 0', async () => {
  const server = startHttpServer(['--shutdown-grace-ms', '0']);
  const s = await connectHttp(await server.url);
  const call = terminateDuringCall(server, s, 600000);
  await assert.rejects(call, (e) => {
    assert.equal(e.code, -32000);
    assert.match(e.message, /shutting down/);
    return true;
  });
  assert.deepEqual(await exited(server.child), { code: 0, signal: null });
});

test('a second signal during the grace ends the process at once, saying so', async () => {
  const server = startHttpServer(['--shutdown-grace-ms', '600000']);
  const s = await connectHttp(await server.url);
  const stderr = [];
  server.child.stderr.on('data', (d) => stderr.push(String(d)));
  const mark = s.recorder.mark;
  const call = s.client.callTool({ name: 'slow_call', arguments: { ms: 600000 } }, undefined, { timeout: 60000 });
  call.catch(() => {});
  await s.recorder.waitFor(isMethod('notifications/message'), { from: mark, ms: 10000 }); // its handler runs
  server.child.kill('SIGTERM'); // the grace begins
  // A second signal: whichever of the two the process takes first starts
  // the grace (pending signals may be delivered lowest number first), the
  // other ends it: exit status 128 + that signal.
  server.child.kill('SIGINT');
  const { code, signal } = await exited(server.child);
  assert.equal(signal, null);
  assert.ok(code === 128 + 2 || code === 128 + 15, `exit status ${code}`);
  assert.match(stderr.join(''), /second signal during shutdown/);
});

