// A strict OTLP/HTTP receiver for tests, JSON and binary protobuf. Every
// JSON body is checked field by field against the official OTLP .proto
// definitions (shipped in @elastic/mockotlpserver; we use only its .proto
// files), with OTLP's JSON rules on top (hex ids, integer enums, 64-bit
// integers as strings), and then round-tripped through binary protobuf. A
// protobuf body is decoded by protobufjs with the same definitions, must
// re-encode to exactly as many bytes (no unknown or malformed fields), and
// then passes the same checks in its JSON form. Anything else is a 400 and
// a recorded failure.
import http from 'node:http';
import path from 'node:path';
import { createRequire } from 'node:module';
import protobuf from 'protobufjs';

const require = createRequire(import.meta.url);
const protoRoot = path.dirname(require.resolve('@elastic/mockotlpserver/package.json'));

async function loadRequestTypes() {
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => path.join(protoRoot, target);
  await root.load(['opentelemetry/proto/collector/trace/v1/trace_service.proto',
    'opentelemetry/proto/collector/metrics/v1/metrics_service.proto']);
  root.resolveAll();
  return {
    '/v1/traces': root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest'),
    '/v1/metrics': root.lookupType('opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest'),
  };
}

const HEX_IDS = { traceId: 32, spanId: 16, parentSpanId: 16 };
const INT64 = new Set(['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64']);
const INT32 = new Set(['int32', 'uint32', 'sint32', 'fixed32', 'sfixed32']);

// Returns a protobufjs-ready copy of `value`, throwing on the first violation.
function check(type, value, where) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error(`${where}: expected an object`);
  const out = {};
  for (const [key, v] of Object.entries(value)) {
    const field = type.fields[key];
    if (!field) throw new Error(`${where}.${key}: unknown field of ${type.name}`);
    if (field.repeated) {
      if (!Array.isArray(v)) throw new Error(`${where}.${key}: expected an array`);
      out[key] = v.map((item, i) => checkField(field, item, `${where}.${key}[${i}]`));
    } else {
      out[key] = checkField(field, v, `${where}.${key}`);
    }
  }
  for (const oneof of type.oneofsArray) {
    const set = oneof.fieldsArray.filter((f) => f.name in value);
    if (set.length > 1) throw new Error(`${where}: more than one of ${oneof.name}`);
  }
  return out;
}

function checkField(field, v, where) {
  const t = field.resolvedType;
  if (t instanceof protobuf.Type) return check(t, v, where);
  if (t instanceof protobuf.Enum) {
    if (!Number.isInteger(v) || !Object.values(t.values).includes(v)) throw new Error(`${where}: enum ${t.name} must be one of its integers, got ${JSON.stringify(v)}`);
    return v;
  }
  const name = field.name;
  if (field.type === 'bytes' && HEX_IDS[name]) {
    if (typeof v !== 'string' || !new RegExp(`^[0-9a-f]{${HEX_IDS[name]}}$`).test(v) || /^0+$/.test(v)) throw new Error(`${where}: ${name} must be ${HEX_IDS[name]} lowercase hex digits, not all zero`);
    return Buffer.from(v, 'hex');
  }
  if (field.type === 'bytes') {
    if (typeof v !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(v)) throw new Error(`${where}: bytes must be base64`);
    return v;
  }
  if (INT64.has(field.type)) {
    if (!(typeof v === 'string' && /^-?\d+$/.test(v)) && !Number.isInteger(v)) throw new Error(`${where}: 64-bit integer expected (decimal string), got ${JSON.stringify(v)}`);
    return String(v);
  }
  if (INT32.has(field.type)) {
    if (!Number.isInteger(v)) throw new Error(`${where}: integer expected, got ${JSON.stringify(v)}`);
    return v;
  }
  if (field.type === 'double' || field.type === 'float') {
    // Proto3's JSON mapping spells the non-finite values as strings.
    if (typeof v === 'string' && ['NaN', 'Infinity', '-Infinity'].includes(v)) return Number(v);
    if (typeof v !== 'number') throw new Error(`${where}: number expected`);
    return v;
  }
  if (field.type === 'bool') {
    if (typeof v !== 'boolean') throw new Error(`${where}: boolean expected`);
    return v;
  }
  if (field.type === 'string') {
    if (typeof v !== 'string') throw new Error(`${where}: string expected`);
    return v;
  }
  throw new Error(`${where}: unsupported field type ${field.type}`);
}

// protobufjs's plain object of a decoded request, in OTLP/JSON's spelling.
function toJsonForm(Request, message) {
  const obj = Request.toObject(message, { longs: String, enums: Number, bytes: String, defaults: false, arrays: false });
  const hexIds = (v) => {
    if (Array.isArray(v)) return v.forEach(hexIds);
    if (v === null || typeof v !== 'object') return;
    for (const [k, x] of Object.entries(v)) {
      if (HEX_IDS[k] && typeof x === 'string') v[k] = Buffer.from(x, 'base64').toString('hex');
      else if (k === 'doubleValue' && !Number.isFinite(x)) v[k] = String(x); // 'NaN', 'Infinity', '-Infinity'
      else hexIds(x);
    }
  };
  hexIds(obj);
  return obj;
}

const attrValue = (v) => v.stringValue ?? v.boolValue ?? (v.intValue !== undefined ? Number(v.intValue) : v.doubleValue);
const attrMap = (list = []) => Object.fromEntries(list.map((a) => [a.key, attrValue(a.value)]));

// Every data point of an ExportMetricsServiceRequest, flattened: the
// metric's name, unit and kind (sum, gauge, histogram) with the point.
function metricPoints(parsed) {
  const out = [];
  for (const rm of parsed.resourceMetrics ?? []) {
    const resource = attrMap(rm.resource?.attributes);
    for (const sm of rm.scopeMetrics ?? [])
      for (const m of sm.metrics ?? [])
        for (const kind of ['sum', 'gauge', 'histogram'])
          for (const p of m[kind]?.dataPoints ?? [])
            out.push({ name: m.name, unit: m.unit, kind, monotonic: m[kind].isMonotonic ?? false, temporality: m[kind].aggregationTemporality, point: p, attrs: attrMap(p.attributes), resource, scope: sm.scope });
  }
  return out;
}

export async function startReceiver({ failFirst = 0 } = {}) {
  const Requests = await loadRequestTypes();
  // metricExports: one array of flattened points per accepted metrics request.
  const state = { spans: [], metricExports: [], requests: 0, rejected503: 0, failures: [], headers: [], bodies: [], waiters: [] };
  const notify = () => state.waiters.splice(0).forEach((w) => w());
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => { chunks.push(c); });
    req.on('end', () => {
      state.requests++;
      const raw = Buffer.concat(chunks);
      const type = req.headers['content-type'] || '';
      const binary = type.startsWith('application/x-protobuf');
      const Request = Requests[req.url];
      if (req.method !== 'POST' || !Request || !(binary || type.startsWith('application/json'))) {
        state.failures.push(`bad request line or content type: ${req.method} ${req.url} ${type}`);
        res.writeHead(400).end();
        return notify();
      }
      const answer = binary ? 'application/x-protobuf' : 'application/json';
      if (state.rejected503 < failFirst) {
        state.rejected503++;
        res.writeHead(503, { 'Retry-After': '0', 'Content-Type': answer }).end(binary ? '' : '{"code":14,"message":"try again"}');
        return notify();
      }
      try {
        let parsed;
        if (binary) {
          const message = Request.decode(raw);
          const again = Request.encode(message).finish().length;
          if (again !== raw.length) throw new Error(`protobuf body of ${raw.length} bytes re-encodes to ${again}: unknown or malformed fields`);
          parsed = toJsonForm(Request, message);
        } else {
          parsed = JSON.parse(raw.toString('utf8'));
        }
        const proto = check(Request, parsed, 'request');
        const err = Request.verify(Request.toObject(Request.fromObject(proto)));
        if (err) throw new Error(err);
        const decoded = Request.decode(Request.encode(Request.fromObject(proto)).finish());
        if (req.url === '/v1/metrics') {
          const points = metricPoints(parsed);
          const back = metricPoints(Request.toObject(decoded, { longs: String, enums: Number, defaults: false })).length;
          if (points.length !== back) throw new Error(`binary round trip lost data points: ${points.length} -> ${back}`);
          state.metricExports.push(points);
          state.headers.push(req.headers);
          state.bodies.push(binary ? raw : raw.toString('utf8'));
          res.writeHead(200, { 'Content-Type': answer }).end(binary ? '' : '{}');
          return notify();
        }
        const count = parsed.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)).length;
        const back = decoded.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)).length;
        if (count !== back) throw new Error(`binary round trip lost spans: ${count} -> ${back}`);
        for (const rs of parsed.resourceSpans) {
          const resource = attrMap(rs.resource?.attributes);
          for (const ss of rs.scopeSpans)
            for (const s of ss.spans) state.spans.push({ ...s, attrs: attrMap(s.attributes), resource, scope: ss.scope });
        }
        state.headers.push(req.headers);
        state.bodies.push(binary ? raw : raw.toString('utf8'));
        res.writeHead(200, { 'Content-Type': answer }).end(binary ? '' : '{}');
      } catch (e) {
        state.failures.push(e.message);
        res.writeHead(400, { 'Content-Type': 'application/json' }).end(JSON.stringify({ code: 3, message: e.message }));
      }
      notify();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    state,
    // Resolves once pred(state) holds; rejects after `ms`.
    waitFor(pred, ms = 10000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`receiver: condition not met in ${ms} ms; have ${state.spans.length} spans, failures ${JSON.stringify(state.failures)}`)), ms);
        const check = () => { if (pred(state)) { clearTimeout(timer); resolve(state); } else state.waiters.push(check); };
        check();
      });
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
