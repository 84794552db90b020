// A cluster on loopback for tests: a real redis-server, everything-server
// nodes sharing its change log, and haproxy in front (round-robin, no
// session affinity, health checks on /healthz). Each part is started on a
// free port, waited for by what it says or by a bounded probe, and stopped
// by the test.
import { spawn } from 'node:child_process';
import { createServer, connect } from 'node:net';
import { mkdtempSync, writeFileSync, rmSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { startHttpServer } from './harness.mjs';

export const CLUSTER_SECRET = 'cafmcp cluster test secret';

export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

function stopper(child) {
  return () => new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.on('exit', () => resolve());
    child.kill('SIGCONT');
    child.kill('SIGKILL');
  });
}

// Resolves once `child` writes a line matching `re` on `stream` (bounded).
function waitForLine(child, stream, re, what, ms = 10000) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not start`)), ms);
    createInterface({ input: stream }).on('line', (line) => {
      if (re.test(line)) { clearTimeout(timer); resolve(line); }
    });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`${what} exited with ${code}`)); });
  });
}

// SIGSTOP, then waits (bounded) until every thread of the process is
// stopped: kill() returns once the signal is sent, and a process that still
// runs a moment longer (seen on a loaded machine: one change read and
// written 3 ms after the signal) is not yet the paused process a test means.
export async function pauseProcess(child, ms = 5000) {
  child.kill('SIGSTOP');
  const deadline = Date.now() + ms;
  const state = (task) => {
    try {
      const stat = readFileSync(`/proc/${child.pid}/task/${task}/stat`, 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    } catch { return 'T'; } // the thread ended: it runs no more either
  };
  for (;;) {
    const tasks = readdirSync(`/proc/${child.pid}/task`);
    if (tasks.every((t) => state(t) === 'T' || state(t) === 't')) return;
    if (Date.now() > deadline) throw new Error(`process ${child.pid} did not stop within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 1));
  }
}

export async function startRedis() {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '',
    '--appendonly', 'no', '--daemonize', 'no'], { stdio: ['ignore', 'pipe', 'inherit'] });
  await waitForLine(child, child.stdout, /Ready to accept connections/, 'redis-server');
  child.stdout.resume(); // keep draining its log
  return {
    child, port, url: `redis://127.0.0.1:${port}`,
    pause: () => pauseProcess(child),
    resume: () => child.kill('SIGCONT'),
    stop: stopper(child),
  };
}

// One everything-server node of the cluster over HTTP on a free port.
export async function startNode(redisUrl, nodeId, args = []) {
  const server = startHttpServer(['--cluster', redisUrl, '--node-id', nodeId, '--cluster-secret', CLUSTER_SECRET,
    '--change-metadata', 'both', ...args]);
  const url = await server.url;
  const port = Number(new URL(url).port);
  return { ...server, url, port, nodeId, kill: stopper(server.child) };
}

// Connects until something accepts on `port` (a bounded probe: haproxy
// writes nothing when it is ready). Fails at once if `child` exits: then
// what accepts there is not it (the port, free when picked, was taken
// meanwhile).
async function accepting(port, child, ms = 10000) {
  const deadline = Date.now() + ms;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`haproxy exited with ${child.exitCode} (port ${port} taken?)`);
    const ok = await new Promise((resolve) => {
      const s = connect(port, '127.0.0.1', () => { s.destroy(); resolve(true); });
      s.on('error', () => resolve(false));
    });
    if (ok && child.exitCode === null) return;
    if (Date.now() > deadline) throw new Error(`nothing accepts on ${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

// haproxy on `port` in front of `nodes`: round-robin, /healthz checks, a
// request a dead node refused retried on another, each answer naming its
// node (X-Cafmcp-Node); no affinity, or with `affinity` each 2025-11-25 session pinned to the node
// that created it (a stick table learns Mcp-Session-Id from responses).
export async function startHaproxy(nodes, port, { affinity = false } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'cafmcp-haproxy-'));
  const servers = nodes.map((n) => `  server ${n.nodeId} 127.0.0.1:${n.port} check inter 500ms fall 2 rise 1`).join('\n');
  const cfg = `global
  maxconn 4096
defaults
  mode http
  timeout connect 2s
  # Without it a health check must finish within "inter" (500ms): a node
  # slow to answer /healthz twice on a loaded machine would leave the
  # round-robin, which the tests count on.
  timeout check 2s
  timeout client 60s
  timeout server 60s
  option http-server-close
  retries 3
  option redispatch
frontend mcp
  bind 127.0.0.1:${port}
  default_backend nodes
backend nodes
  balance roundrobin
${affinity ? `  stick-table type string len 64 size 100k
  stick store-response res.hdr(mcp-session-id)
  stick match req.hdr(mcp-session-id)
` : ''}  http-response set-header X-Cafmcp-Node %s
  option httpchk
  http-check send meth GET uri /healthz
  http-check expect status 200
${servers}
`;
  const file = join(dir, 'haproxy.cfg');
  writeFileSync(file, cfg);
  const child = spawn('haproxy', ['-f', file, '-db'], { stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr.resume();
  await accepting(port, child);
  const stop = stopper(child);
  return {
    child, port, url: `http://127.0.0.1:${port}/mcp`,
    stop: async () => { await stop(); rmSync(dir, { recursive: true, force: true }); },
  };
}

// Redis, `count` nodes (each accepting the proxy's Host) and haproxy.
export async function startCluster(count = 3, nodeArgs = () => [], { affinity = false } = {}) {
  const redis = await startRedis();
  const proxyPort = await freePort();
  const nodes = [];
  for (let i = 1; i <= count; i++)
    nodes.push(await startNode(redis.url, `n${i}`, ['--allowed-host', `127.0.0.1:${proxyPort}`, ...nodeArgs(i)]));
  const proxy = await startHaproxy(nodes, proxyPort, { affinity });
  return {
    redis, nodes, proxy,
    stop: async () => {
      await proxy.stop();
      await Promise.all(nodes.map((n) => n.kill()));
      await redis.stop();
    },
  };
}
