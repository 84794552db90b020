// everything-server on plain pipes: tests write raw lines and read each
// stdout line, so they see exactly what the server sends.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { serverPath } from './harness.mjs';

// `t`: the node:test context; a test that fails midway still ends the child.
export function startRaw(t, args = []) {
  const child = spawn(serverPath, ['--stdio', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  t.after(() => { if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL'); });
  child.stderr.resume(); // its log must never block the server
  const all = [];   // every stdout line, for the end-of-test audit
  const queue = [];
  let wake = null;
  createInterface({ input: child.stdout }).on('line', (line) => {
    all.push(line);
    queue.push(line);
    wake?.();
  });
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));

  // The next line, parsed; rejects if none arrives within `ms`.
  const next = async (ms = 5000) => {
    const deadline = Date.now() + ms;
    while (!queue.length) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('no line from the server');
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, left);
        wake = () => { clearTimeout(timer); wake = null; resolve(); };
      });
    }
    return JSON.parse(queue.shift());
  };
  const send = (text) => child.stdin.write(text + '\n');
  const request = (id, method, params) => send(JSON.stringify({ jsonrpc: '2.0', id, method, ...(params && { params }) }));

  async function initialize() {
    request(0, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } });
    const reply = await next();
    send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    return reply;
  }

  // Closes stdin; resolves with the exit code.
  async function close() {
    child.stdin.end();
    return exited;
  }
  return { child, next, send, request, initialize, close, lines: all };
}
