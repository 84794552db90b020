// A 2025-11-25 session spoken over plain fetch, and one GET stream read
// event by event: for tests that must see event ids, pick the node each
// request goes to, and hold a stream across a node's death.
const PROTOCOL = '2025-11-25';

export async function rawSession(url, capabilities = {}) {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream',
    'mcp-protocol-version': PROTOCOL };
  let next = 1;
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: next++,
    method: 'initialize', params: { protocolVersion: PROTOCOL, capabilities, clientInfo: { name: 'raw', version: '1' } } }) });
  if (res.status !== 200) throw new Error(`initialize: ${res.status}`);
  await res.json();
  const id = res.headers.get('mcp-session-id');
  const session = {
    id,
    headers: { ...headers, 'mcp-session-id': id },
    // One request to `to` (any node's URL); resolves with its JSON answer.
    async request(method, params = {}, to = url) {
      const r = await fetch(to, { method: 'POST', headers: session.headers,
        body: JSON.stringify({ jsonrpc: '2.0', id: next++, method, params }) });
      if (r.status !== 200) throw new Error(`${method}: ${r.status} ${await r.text()}`);
      return r.json();
    },
    // resources/subscribe, once the node knows `uri` (throws on any other
    // refusal): a resource another node added reaches this one through the
    // log a moment after the node that added it answered (bounded: 100
    // tries, 20 ms apart).
    async subscribe(uri, to = url) {
      for (let tries = 1; ; tries++) {
        const answer = await session.request('resources/subscribe', { uri }, to);
        if (answer.result) return answer;
        if (answer.error?.code !== -32002 || tries === 100)
          throw new Error(`resources/subscribe ${uri}: ${JSON.stringify(answer)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    // The status of a request to `to`, without throwing.
    async status(method, params = {}, to = url) {
      const r = await fetch(to, { method: 'POST', headers: session.headers,
        body: JSON.stringify({ jsonrpc: '2.0', id: next++, method, params }) });
      await r.text();
      return r.status;
    },
    async end(to = url) { // DELETE
      const r = await fetch(to, { method: 'DELETE', headers: session.headers });
      return r.status;
    },
    // One request whose answer may come as an SSE stream: its raw text.
    async post(method, params = {}, to = url) {
      const r = await fetch(to, { method: 'POST', headers: session.headers,
        body: JSON.stringify({ jsonrpc: '2.0', id: next++, method, params }) });
      return r.text();
    },
    async notify(method, to = url) {
      const r = await fetch(to, { method: 'POST', headers: session.headers, body: JSON.stringify({ jsonrpc: '2.0', method }) });
      if (r.status !== 202) throw new Error(`${method}: ${r.status}`);
    },
  };
  await session.notify('notifications/initialized');
  return session;
}

// The session's GET stream on `url` (from `lastEventId` when given). Its
// events collect in `events` ({id, data}); `until` waits (bounded) for one.
export async function openStream(url, session, lastEventId) {
  const controller = new AbortController();
  const headers = { accept: 'text/event-stream', 'mcp-session-id': session.id, 'mcp-protocol-version': PROTOCOL };
  if (lastEventId) headers['last-event-id'] = lastEventId;
  const res = await fetch(url, { headers, signal: controller.signal });
  const stream = { status: res.status, events: [], ended: false, controller };
  if (res.status !== 200) { stream.body = await res.text(); return stream; }
  const waiters = new Set();
  const wake = () => { for (const w of waiters) w(); };
  (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body) {
        buffer += decoder.decode(chunk, { stream: true });
        let cut;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          let id, data = '';
          for (const line of block.split('\n')) {
            if (line.startsWith('id: ')) id = line.slice(4);
            else if (line.startsWith('data: ')) data += line.slice(6);
          }
          stream.events.push({ id, data: data ? JSON.parse(data) : undefined });
        }
        wake();
      }
    } catch { /* aborted, or the node died */ }
    stream.ended = true;
    wake();
  })();
  // Resolves with the first event from `from` on that satisfies `pred`.
  stream.until = (pred, { from = 0, ms = 20000 } = {}) => new Promise((resolve, reject) => {
    const check = () => {
      const i = stream.events.findIndex((e, k) => k >= from && pred(e));
      if (i >= 0) { done(); resolve(stream.events[i]); return; }
      if (stream.ended) { done(); reject(new Error(`stream ended; events: ${JSON.stringify(stream.events)}`)); }
    };
    const timer = setTimeout(() => { done(); reject(new Error(`no such event in ${ms} ms: ${JSON.stringify(stream.events)}`)); }, ms);
    const done = () => { clearTimeout(timer); waiters.delete(check); };
    waiters.add(check);
    check();
  });
  // Resolves once the server ends the stream (bounded).
  stream.end = (ms = 20000) => new Promise((resolve, reject) => {
    const check = () => { if (stream.ended) { done(); resolve(); } };
    const timer = setTimeout(() => { done(); reject(new Error(`the stream did not end in ${ms} ms`)); }, ms);
    const done = () => { clearTimeout(timer); waiters.delete(check); };
    waiters.add(check);
    check();
  });
  stream.close = () => controller.abort();
  return stream;
}

// The notifications among a stream's events (the priming event has none).
export const notificationsOf = (events) => events.filter((e) => e.data).map((e) => e.data);
