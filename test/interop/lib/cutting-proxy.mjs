// A loopback TCP proxy that can cut the connections carrying GET requests,
// as a flaky network would, so a client's resumption can be tested.
import net from 'node:net';

export async function startCuttingProxy() {
  const conns = new Set();
  let target = 0;
  const getOpened = [];
  const getHeads = []; // the head of every GET request, as sent
  const server = net.createServer((client) => {
    const upstream = net.connect(target, '127.0.0.1');
    const c = { client, upstream, method: '' };
    conns.add(c);
    client.on('data', (d) => {
      const head = d.toString('latin1', 0, 8);
      if (head.startsWith('GET ') || head.startsWith('POST ') || head.startsWith('DELETE ')) {
        c.method = head.split(' ')[0];
        if (c.method === 'GET') {
          getHeads.push(d.toString('latin1').split('\r\n\r\n')[0]);
          getOpened.splice(0).forEach((w) => w());
        }
      }
      upstream.write(d);
    });
    upstream.on('data', (d) => client.write(d));
    const drop = () => { conns.delete(c); client.destroy(); upstream.destroy(); };
    client.on('close', drop);
    upstream.on('close', drop);
    client.on('error', () => {});
    upstream.on('error', () => {});
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    setTarget: (port) => { target = port; },
    /// Resolves at the next GET request passing through (bounded by `ms`).
    nextGet: (ms = 10000) => new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no GET request came through')), ms);
      getOpened.push(() => { clearTimeout(timer); resolve(); });
    }),
    getHeads,
    hasGet: () => [...conns].some((c) => c.method === 'GET'),
    cutGets: () => { for (const c of [...conns]) if (c.method === 'GET') { c.client.destroy(); c.upstream.destroy(); } },
    close: () => { for (const c of conns) { c.client.destroy(); c.upstream.destroy(); } return new Promise((r) => server.close(r)); },
  };
}
