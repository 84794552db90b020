// A client that subscribes and then waits to be killed (the test SIGKILLs
// it to show a vanished client leaves nothing behind).
import { connectHttp } from './harness.mjs';

const [url, uri] = process.argv.slice(2);
const s = await connectHttp(url);
await s.client.subscribeResource({ uri });
process.stdout.write('ready\n');
setInterval(() => {}, 1 << 30);
