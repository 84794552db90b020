// Soak (issue 23 item 3): a real everything-server over HTTP, healthy
// sessions that must hear every change once and in order, and around them
// sessions that come and go badly: closed cleanly, abandoned without
// DELETE, reset mid-request, or holding a GET stream they never read; slow
// handlers and failing calls; a storm of mutations. The server's RSS and
// open descriptors are sampled from /proc; after a warm-up (30 s), the
// second half of the run must not grow them by more than 5%.
//
//   node bench/soak/soak.mjs --minutes 10        # by hand, any length
//   ctest -L soak                                # a one-minute smoke
//
//   node bench/soak/soak.mjs --chaos             # with EVERYTHING_SERVER=cafmcp-chaos-server
//
// --chaos: the server actor or the change notifier crashes now and then
// (chaos_server.cpp) and the supervisor restarts it. A call may then fail
// (the server actor died with it: "retry"); the mutator repeats it, and
// counts only what succeeded. A notifier's mailbox dies with it, so its
// successor resyncs (a plain list_changed and resources/updated to every
// client): each healthy session must hear every change once, in order,
// except changes followed by such a resync, and no change twice. At the
// end the faults stop (SIGUSR1) and one last change must reach everyone.
//
// Exit status 0 when every check held; the summary is one JSON line.
import fs from 'node:fs';
import net from 'node:net';
import { parseArgs } from 'node:util';
import { startHttpServer, connectHttp } from '../../test/interop/lib/harness.mjs';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '1' },
    healthy: { type: 'string', default: '20' }, // sessions that must hear everything
    churners: { type: 'string', default: '8' }, // concurrent loops of sessions that vanish
    growth: { type: 'string', default: '0.05' }, // allowed growth over the second half
    warmup: { type: 'string', default: '30' }, // seconds of the run not judged (allocator high-water marks)
    chaos: { type: 'boolean', default: false }, // the server is cafmcp-chaos-server
  },
});
const chaos = values.chaos;
const runMs = Number(values.minutes) * 60_000;
const healthyCount = Number(values.healthy);
const churnerCount = Number(values.churners);
const allowedGrowth = Number(values.growth);
const warmupMs = Math.min(Number(values.warmup) * 1000, runMs / 2);
const SHARED = 'test://soak/shared';

// Sessions abandoned without DELETE end after 2 s of silence, so that the
// run reaches a steady state instead of holding every abandoned session
// for the default 10 minutes.
const server = startHttpServer(['--change-metadata', 'both', '--session-idle-timeout-ms', '2000']);
const url = new URL(await server.url);
const pid = server.child.pid;
let serverExited = null;
server.child.on('exit', (code, signal) => { serverExited = { code, signal }; });
// The chaos server's stderr: its faults, and when they stopped.
const faults = { count: 0, stopped: null };
const faultsStopped = new Promise((resolve) => {
  server.child.stderr.on('data', (d) => {
    for (const line of String(d).split('\n')) {
      if (line.startsWith('chaos: fault ')) ++faults.count;
      const m = /^chaos: stopped after (\d+) faults/.exec(line);
      if (m) { faults.stopped = Number(m[1]); resolve(); }
    }
  });
});

const failures = [];
const fail = (why) => { if (failures.length < 20) failures.push(why); };

// -- samples --------------------------------------------------------------
const samples = [];
function sample() {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)[1]);
    const fds = fs.readdirSync(`/proc/${pid}/fd`).length;
    samples.push({ at: Date.now(), rssKb, fds });
  } catch (e) {
    fail(`cannot sample the server: ${e.message}`);
  }
}

// -- healthy sessions -----------------------------------------------------
const call = (client, name, args = {}) => client.callTool({ name, arguments: args });
// Under chaos a call fails when a crash takes it (isError, or a JSON-RPC
// error to retry): repeated until it succeeds, a bounded number of times.
let retried = 0;
async function surely(client, name, args) {
  for (let attempt = 1; ; ++attempt) {
    const r = await call(client, name, args).catch((e) => ({ isError: true, error: e }));
    if (!r.isError) return r;
    if (!chaos || attempt >= 50) throw new Error(`${name} failed: ${JSON.stringify(r).slice(0, 300)}`);
    ++retried;
  }
}
// Under chaos, any step may meet a crash: repeated, a bounded number of times.
async function retrying(what, step) {
  for (let attempt = 1; ; ++attempt) {
    try {
      return await step();
    } catch (e) {
      if (!chaos || attempt >= 50) throw new Error(`${what}: ${e.message}`);
      ++retried;
    }
  }
}
let admin = await retrying('admin session', () => connectHttp(url.href));
await surely(admin.client, 'add_resource', { uri: SHARED, name: 'shared', text: 'v0' });
const healthy = [];
for (let i = 0; i < healthyCount; ++i) {
  const s = await retrying('healthy session', () => connectHttp(url.href));
  await retrying('subscribe', () => s.client.subscribeResource({ uri: SHARED }));
  healthy.push(s);
}
// Each has its GET stream once a probe update reaches it; counting starts
// after the probe.
const isUpdate = (m) => m.method === 'notifications/resources/updated' && m.params?.uri === SHARED;
await surely(admin.client, 'update_resource', { uri: SHARED, text: 'probe' });
for (const s of healthy) {
  await s.recorder.waitFor(isUpdate, { ms: 10000 });
  s.from = s.recorder.mark;
}

// The mutator: add_tool then remove_tool of soak-1, soak-2, ... one after
// the other (the registry stays the same size), and an update of the shared
// resource after each pair. Every healthy session must see exactly this
// sequence of list_changed, and one resources/updated per update.
const expected = [];
let updates = 0;

let running = true;
async function mutate() {
  for (let k = 1; running; ++k) {
    // A fresh admin session now and then: the SDK's client adds an abort
    // listener per request that it never removes (node warns past 1,500).
    if (k % 200 === 0) {
      const next = await retrying('admin session', () => connectHttp(url.href));
      await admin.transport.terminateSession();
      await admin.client.close();
      admin = next;
    }
    const name = `soak-${k}`;
    await surely(admin.client, 'add_tool', { name });
    expected.push(`added ${name}`);
    await surely(admin.client, 'remove_tool', { name });
    expected.push(`removed ${name}`);
    await surely(admin.client, 'update_resource', { uri: SHARED, text: `v${k}` });
    ++updates;
  }
}

// -- sessions that vanish -------------------------------------------------
const ways = { clean: 0, abandoned: 0, reset: 0, unread: 0, errors: 0 };

function rawRequest(method, body, headers = {}) {
  const text = `${method} ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\n`
    + 'Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n'
    + Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')
    + `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  return text;
}

// A socket that sends `text` and resolves with what came back once `done`
// says it has enough (bounded: 5 s).
function exchange(text, done) {
  return new Promise((resolve, reject) => {
    const sock = net.connect(Number(url.port), url.hostname);
    let got = '';
    const timer = setTimeout(() => { sock.destroy(); reject(new Error('no answer within 5 s')); }, 5000);
    sock.on('data', (d) => {
      got += d;
      if (done(got)) { clearTimeout(timer); resolve({ sock, got }); }
    });
    sock.on('error', (e) => { clearTimeout(timer); reject(e); });
    sock.write(text);
  });
}

const initBody = JSON.stringify({
  jsonrpc: '2.0', id: 1, method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'soak-raw', version: '1' } },
});

async function churnOnce(i) {
  const way = ['clean', 'abandoned', 'reset', 'unread'][i % 4];
  if (way === 'clean' || way === 'abandoned') {
    const s = await connectHttp(url.href);
    try {
      await s.client.subscribeResource({ uri: SHARED });
      // A slow handler (progress over ~150 ms) and a call that fails.
      await call(s.client, 'test_tool_with_progress');
      const failed = await call(s.client, 'test_error_handling');
      if (!failed.isError) fail('test_error_handling did not fail');
      await s.client.callTool({ name: 'no_such_tool', arguments: {} }).then(
        (r) => { if (!r.isError) fail('an unknown tool was served'); },
        () => {});
      if (way === 'clean') await s.transport.terminateSession();
    } finally {
      // Abandoned: no DELETE, the idle timeout ends it. A step that failed
      // (a crash under chaos) abandons it too, but its GET stream must not
      // stay open in this process for the rest of the run.
      await s.client.close();
    }
  } else if (way === 'reset') {
    // A session, then half a request on it and a reset: the server must
    // just drop the connection (the session ends by its idle timeout).
    const { sock: first, got } = await exchange(rawRequest('POST', initBody), (g) => g.includes('\r\n\r\n') && g.includes('}'));
    first.destroy();
    const id = /mcp-session-id: (\S+)/i.exec(got)?.[1];
    const sock = net.connect(Number(url.port), url.hostname);
    await new Promise((resolve, reject) => { sock.on('connect', resolve); sock.on('error', reject); });
    sock.write(rawRequest('POST', '{"jsonrpc":"2.0","id":2,"method":"ping"}', { 'Mcp-Session-Id': id }).slice(0, 90));
    sock.resetAndDestroy();
  } else {
    // A session whose GET stream is never read, while the storm goes on;
    // the socket goes after a few seconds.
    const { sock, got } = await exchange(rawRequest('POST', initBody), (g) => g.includes('\r\n\r\n') && g.includes('}'));
    sock.destroy();
    const id = /mcp-session-id: (\S+)/i.exec(got)?.[1];
    if (!id) throw new Error(`no session id in ${got.slice(0, 200)}`);
    const initialized = rawRequest('POST', '{"jsonrpc":"2.0","method":"notifications/initialized"}', { 'Mcp-Session-Id': id });
    (await exchange(initialized, (g) => g.includes('\r\n\r\n'))).sock.destroy();
    const get = `GET ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nAccept: text/event-stream\r\nMcp-Session-Id: ${id}\r\n\r\n`;
    const stream = net.connect(Number(url.port), url.hostname);
    stream.write(get);
    stream.pause(); // never read
    await new Promise((resolve) => setTimeout(resolve, 3000)); // how long it holds the stream (load, not sync)
    stream.destroy();
  }
  ++ways[way];
}

async function churn(worker) {
  for (let i = worker; running; i += churnerCount) {
    try {
      await churnOnce(i);
    } catch (e) {
      ++ways.errors; // a vanishing client may fail; the server must not
      if (ways.errors <= 3) console.error(`churn: ${e.message}`);
    }
  }
}

// -- the run --------------------------------------------------------------
const started = Date.now();
const sampler = setInterval(sample, 1000);
sample();
const work = [mutate().catch((e) => fail(`mutator: ${e.message}`))];
for (let w = 0; w < churnerCount; ++w) work.push(churn(w));
await new Promise((resolve) => setTimeout(resolve, runMs)); // the run's length (load, not sync)
running = false;
await Promise.all(work);
clearInterval(sampler);
sample();
if (chaos) {
  // The faults end; then one more change, which every healthy session
  // must hear (a bounded wait for the server's word that they ended).
  server.child.kill('SIGUSR1');
  await Promise.race([faultsStopped,
    new Promise((resolve) => setTimeout(resolve, 10000))]); // bound, not sync: checked next
  if (faults.stopped === null) fail('the chaos server did not say that its faults stopped');
  if (faults.count === 0) fail('no fault was injected');
  await surely(admin.client, 'add_tool', { name: 'soak-final' });
  expected.push('added soak-final');
}

// Every healthy session heard every change once, in order (bounded wait
// for the last one to arrive). Under chaos, a change may be missing when a
// resync (a tools/list_changed without operation metadata: a restarted
// notifier's) came after the change before it: the client re-read then.
const isResync = (m) => m.method === 'notifications/tools/list_changed' && !m.params?.operation
  && !m.params?._meta;
const soakChange = (m) => m.method === 'notifications/tools/list_changed' && m.params?.name?.startsWith('soak-');
let resyncsHeard = 0, coveredByResync = 0;
function judge(messages) {
  let j = 0, resyncSince = false;
  for (const m of messages) {
    if (isResync(m)) { resyncSince = true; ++resyncsHeard; continue; }
    if (!soakChange(m)) continue;
    const op = `${m.params.operation} ${m.params.name}`;
    const at = expected.indexOf(op, j);
    if (at < 0) return `heard "${op}" twice, out of order, or never made (after ${j} of ${expected.length})`;
    if (at > j) {
      if (!resyncSince) return `missed "${expected[j]}" (${at - j} change(s)) with no resync after it`;
      coveredByResync += at - j;
    }
    j = at + 1;
    resyncSince = false;
  }
  if (j < expected.length) return `heard ${j} of ${expected.length} changes`;
  return null;
}
const last = expected[expected.length - 1];
for (const [i, s] of healthy.entries()) {
  const updatesSeen = () => s.recorder.count(isUpdate, s.from);
  try {
    await s.recorder.waitFor((m) => soakChange(m) && `${m.params.operation} ${m.params.name}` === last, { ms: 10000, from: s.from });
    await s.recorder.waitFor(() => updatesSeen() >= updates, { ms: 10000, from: s.from });
  } catch (e) {
    fail(`healthy session ${i}: ${e.message.slice(0, 200)}`);
    continue;
  }
  const messages = s.recorder.messages.slice(s.from);
  if (chaos) {
    const wrong = judge(messages);
    if (wrong) fail(`healthy session ${i}: ${wrong}`);
  } else {
    const got = messages.filter(soakChange).map((m) => `${m.params.operation} ${m.params.name}`);
    if (JSON.stringify(got) !== JSON.stringify(expected))
      fail(`healthy session ${i}: ${got.length} changes, expected ${expected.length}; first difference at ${got.findIndex((g, j) => g !== expected[j])}`);
  }
  // A resync tells every subscriber of the shared resource again: at least
  // once under chaos, exactly once without.
  const upd = updatesSeen();
  if (chaos ? upd < updates : upd !== updates) fail(`healthy session ${i}: ${upd} updates of ${SHARED}, expected ${updates}`);
}

// Flat after warm-up: of the time after the warm-up, the median of its
// last tenth against the highest sample of its first half. A leak grows
// past any earlier value; connections in flight at a sample (a few
// descriptors of ~50) only move it about.
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const judged = runMs - warmupMs;
const window = (from, to) => samples.filter((x) => x.at >= started + warmupMs + from * judged
  && x.at <= started + warmupMs + to * judged);
const firstHalf = window(0, 0.5), end = window(0.9, 1.01);
const growth = {};
for (const key of ['rssKb', 'fds']) {
  if (!firstHalf.length || !end.length) { fail('too few samples'); break; }
  const a = Math.max(...firstHalf.map((x) => x[key])), b = median(end.map((x) => x[key]));
  growth[key] = { firstHalfPeak: a, end: b, growth: Number(((b - a) / a).toFixed(4)) };
  if (b > a * (1 + allowedGrowth)) fail(`${key} grew from ${a} to ${b} over the second half`);
}

if (serverExited) fail(`the server exited: ${JSON.stringify(serverExited)}`);
for (const s of healthy) await s.client.close().catch(() => {});
await admin.client.close().catch(() => {});
await server.stop();

console.log(JSON.stringify({
  minutes: Number(values.minutes), changes: expected.length, updates, healthy: healthyCount,
  vanished: ways, growth, samples: samples.length,
  ...(chaos ? { faults: faults.count, retried, resyncsHeard, coveredByResync } : {}), failures,
}));
process.exit(failures.length ? 1 : 0);
