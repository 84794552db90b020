// Run as a child of https.test.mjs (NODE_EXTRA_CA_CERTS is read only when
// node starts): the official SDK client against the https URL in argv[2].
// Prints what it saw as one JSON line; exits non-zero with the error text
// on stderr when the connection fails.
import { connectHttp, isMethod } from './harness.mjs';

const url = process.argv[2];
try {
  const { client, recorder, close } = await connectHttp(url);
  const server = client.getServerVersion();
  const added = await client.callTool({ name: 'add_tool', arguments: { name: 'added_over_https' } });
  // list_changed belongs to no request: it comes on the standalone GET stream.
  const changed = await recorder.waitFor((m) => m.method === 'notifications/tools/list_changed');
  const tools = await client.listTools();
  await close();
  console.log(JSON.stringify({
    serverName: server.name,
    addedIsError: added.isError ?? false,
    notified: isMethod('notifications/tools/list_changed')(changed),
    listed: tools.tools.some((t) => t.name === 'added_over_https'),
  }));
} catch (e) {
  console.error(`${e?.message ?? e} ${e?.cause?.code ?? ''} ${e?.cause?.message ?? ''}`);
  process.exit(1);
}
