// Starts build/bin/everything-server under the official TypeScript SDK
// client and records every message the client transport receives, before
// the SDK's per-method schemas strip what they do not know.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

export const serverPath = process.env.EVERYTHING_SERVER ?? new URL('../../../build/bin/everything-server', import.meta.url).pathname;

export class Recorder {
  constructor() { this.messages = []; this.waiters = []; }
  push(msg) {
    this.messages.push(msg);
    for (const w of [...this.waiters]) w.check();
  }
  // Resolves with the first recorded message (from `from` on) that matches;
  // rejects after `ms` - a bounded wait, never a sleep.
  waitFor(pred, { ms = 5000, from = 0 } = {}) {
    return new Promise((resolve, reject) => {
      const w = {
        check: () => {
          const i = this.messages.findIndex((m, idx) => idx >= from && pred(m));
          if (i < 0) return false;
          clearTimeout(w.timer);
          this.waiters.splice(this.waiters.indexOf(w), 1);
          resolve(this.messages[i]);
          return true;
        },
      };
      w.timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        reject(new Error(`no matching message within ${ms} ms; saw ${JSON.stringify(this.messages.slice(from)).slice(0, 2000)}`));
      }, ms);
      this.waiters.push(w);
      w.check();
    });
  }
  count(pred, from = 0) { return this.messages.slice(from).filter(pred).length; }
  get mark() { return this.messages.length; }
}

export const isMethod = (method) => (m) => m.method === method;

// Taps the transport before connecting: the SDK's Protocol.connect chains
// an onmessage it finds, so the recorder sees every message as it arrived,
// the initialize response included.
export async function connectWith(transport, { name = 'cafmcp-interop', capabilities = {} } = {}) {
  const client = new Client({ name, version: '1.0.0' }, { capabilities });
  const recorder = new Recorder();
  transport.onmessage = (msg) => recorder.push(msg);
  await client.connect(transport);
  return { client, transport, recorder, close: () => client.close() };
}

export async function connect({ args = [], capabilities = {} } = {}) {
  const transport = new StdioClientTransport({ command: serverPath, args: ['--stdio', ...args], stderr: 'pipe' });
  return connectWith(transport, { capabilities });
}

export const textOf = (result) => result.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');

import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

// Starts everything-server over HTTP on a free port (unless `args` name
// one); resolves with its URL once it prints that it listens.
export function startHttpServer(args = [], env = {}) {
  const port = args.includes('--port') ? [] : ['--port', '0'];
  const child = spawn(serverPath, ['--http', ...port, ...args],
    { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } });
  const url = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('everything-server did not start')), 10000);
    createInterface({ input: child.stderr }).on('line', (line) => {
      const m = line.match(/(https?:\/\/\S+)/);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
    child.on('exit', (code) => reject(new Error(`everything-server exited with ${code}`)));
  });
  // A child that already exited (a failed start) is stopped already.
  const stop = () => new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.on('exit', resolve);
    child.kill('SIGTERM');
  });
  return { child, url, stop };
}

export async function connectHttp(url, { capabilities = {} } = {}) {
  return connectWith(new StreamableHTTPClientTransport(new URL(url)), { name: 'cafmcp-interop-http', capabilities });
}
