import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { type IncomingHttpHeaders, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SimServer, startSimServer } from '@blis/observe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, SOURCE, blis, rejects } from './blis-process.js';

const tmp = mkdtempSync(join(tmpdir(), 'blis-observe-cli-'));
let server: Server;
let url = '';
let hold = false;
/** Workload requests the server is holding unanswered. */
let held = 0;
/** Headers and body of every POST, in arrival order. */
const seen: { headers: IncomingHttpHeaders; body: Record<string, unknown> }[] = [];

// One token per word; streams max_tokens chunks then a usage chunk. `hold` makes it never answer.
beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => {
      raw += c;
    });
    req.on('end', () => {
      if (req.method === 'GET') return void res.writeHead(404).end();
      const b = JSON.parse(raw) as { max_tokens: number; prompt: string; stream: boolean };
      seen.push({ headers: req.headers, body: b });
      if (hold && b.max_tokens !== 1) {
        held++;
        return;
      }
      const usage = { prompt_tokens: b.prompt.trim().split(/\s+/).length, completion_tokens: b.max_tokens };
      if (!b.stream) return void res.end(JSON.stringify({ choices: [{ text: 'x', finish_reason: 'length' }], usage }));
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (let i = 0; i < b.max_tokens; i++) res.write(`data: {"choices":[{"text":"w","finish_reason":${i === b.max_tokens - 1 ? '"length"' : 'null'}}]}\n\n`);
      res.end(`data: ${JSON.stringify({ choices: [], usage })}\n\ndata: [DONE]\n\n`);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((r) => server.close(() => r()));
});

const lengths = ['--prompt-tokens', '20', '--prompt-tokens-stdev', '0', '--output-tokens', '3', '--output-tokens-stdev', '0'];

describe('blis observe', () => {
  it('records a flag-driven run: summary on stdout, the pair and the ITL file written', async () => {
    const h = join(tmp, 'run.yaml');
    const d = join(tmp, 'run.csv');
    const r = await blis(['observe', '--server-url', url, '--model', 'm', '--rate', '500', '--num-requests', '5', ...lengths, '--record-itl', '--warmup-requests', '1', '--rtt-ms', '1.5', '--slo-e2e', 'standard=2s', '--trace-header', h, '--trace-data', d]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      requests_sent: 5,
      requests_recorded: 4,
      ok: 4,
      error: 0,
      timeout: 0,
      tokens_per_word: 1,
      interrupted: false,
      files: { trace_header: h, trace_data: d, itl: join(tmp, 'run.itl.csv') },
    });
    const header = readFileSync(h, 'utf8');
    expect(header).toContain('mode: real');
    expect(header).toContain('warm_up_requests: 1');
    expect(header).toContain('measured_rtt_ms: 1.5');
    expect(header).toContain('e2e_ms: 2000');
    const rows = readFileSync(d, 'utf8').trim().split('\n');
    expect(rows.map((l) => l.split(',')[0])).toEqual(['request_id', '1', '2', '3', '4']);
    // Streamed (--record-itl): 3 token chunks per request; the usage chunk counts in num_chunks only.
    expect(readFileSync(join(tmp, 'run.itl.csv'), 'utf8').trim().split('\n')).toHaveLength(1 + 4 * 3);
    const numChunks = rows[0].split(',').indexOf('num_chunks');
    expect(rows.slice(1).map((l) => l.split(',')[numChunks])).toEqual(['4', '4', '4', '4']);
  });

  it('a spec client without slo_class is sent without an objective header or priority, as BLIS sends it', async () => {
    const spec = join(tmp, 'classes.yaml');
    const client = (id: string, extra: string) =>
      `  - id: ${id}\n    rate_fraction: 1\n    streaming: true${extra}\n    input_distribution: {type: constant, params: {value: 12}}\n    output_distribution: {type: constant, params: {value: 2}}\n`;
    writeFileSync(spec, `version: "2"\nseed: 3\naggregate_rate: 200\nnum_requests: 8\nclients:\n${client('plain', '')}${client('urgent', '\n    slo_class: critical')}`);
    const from = seen.length;
    const d = join(tmp, 'classes.csv');
    const r = await blis(['observe', '--server-url', url, '--model', 'm', '--workload-spec', spec, '--trace-header', join(tmp, 'classes.yaml.out'), '--trace-data', d]);
    expect(r.code, r.stderr).toBe(0);
    // The calibration request first, then the 8 workload requests.
    const sent = seen.slice(from + 1);
    expect(sent).toHaveLength(8);
    const [head, ...rows] = readFileSync(d, 'utf8').trim().split('\n').map((l) => l.split(','));
    const byId = new Map(rows.map((c) => [c[head.indexOf('x_request_id')], c]));
    const classes = new Set<string>();
    for (const q of sent) {
      const row = byId.get(q.headers['x-request-id'] as string)!;
      const cls = row[head.indexOf('slo_class')];
      classes.add(`${row[head.indexOf('client_id')]}:${cls}`);
      if (cls === '') {
        expect(q.headers).not.toHaveProperty('x-gateway-inference-objective');
        expect(q.body).not.toHaveProperty('priority');
      } else {
        expect(q.headers['x-gateway-inference-objective']).toBe('critical');
        expect(q.body.priority).toBe(0);
      }
    }
    expect([...classes].sort()).toEqual(['plain:', 'urgent:critical']);
  });

  it('closed loop with --think-time-dist: each user pauses the drawn time between an answer and its next request', async () => {
    const h = join(tmp, 'think.yaml');
    const d = join(tmp, 'think.csv');
    const r = await blis(['observe', '--server-url', url, '--model', 'm', '--concurrency', '1', '--num-requests', '3', ...lengths, '--think-time-dist', 'constant:value=150ms', '--trace-header', h, '--trace-data', d]);
    expect(r.code, r.stderr).toBe(0);
    const [head, ...rows] = readFileSync(d, 'utf8').trim().split('\n').map((l) => l.split(','));
    const send = head.indexOf('send_time_us');
    const last = head.indexOf('last_chunk_time_us');
    expect(rows).toHaveLength(3);
    for (let i = 1; i < 3; i++) expect(Number(rows[i][send]) - Number(rows[i - 1][last])).toBeGreaterThanOrEqual(150_000);
  });

  it("--concurrency: BLIS's concurrency client, the same users and lengths as `blis run --concurrency`, each next request an answer plus the think time later", async () => {
    const h = join(tmp, 'users.yaml');
    const d = join(tmp, 'users.csv');
    const loop = ['--concurrency', '3', '--think-time-ms', '20', '--num-requests', '9', '--prompt-tokens', '30', '--prompt-tokens-stdev', '10', '--output-tokens', '4', '--output-tokens-stdev', '2', '--seed', '7'];
    const r = await blis(['observe', '--server-url', url, '--model', 'm', ...loop, '--trace-header', h, '--trace-data', d]);
    expect(r.code, r.stderr).toBe(0);
    const rows = (text: string) => {
      const [head, ...lines] = text.trim().split('\n').map((l) => l.split(','));
      return lines.map((l) => Object.fromEntries(head.map((k, i) => [k, l[i]])));
    };
    const observed = rows(readFileSync(d, 'utf8'));
    const run = await blis(['run', ...loop, '--quiet', '--trace-output', join(tmp, 'users-run')]);
    expect(run.code, run.stderr).toBe(0);
    const simulated = rows(readFileSync(join(tmp, 'users-run.csv'), 'utf8'));
    const key = (x: Record<string, string>) => `${x.session_id}/${x.round_index}`;
    const lengthsOf = (xs: Record<string, string>[]) => xs.map((x) => [key(x), x.input_tokens, x.output_tokens]).sort();
    expect(observed).toHaveLength(9);
    expect(lengthsOf(observed)).toEqual(lengthsOf(simulated));
    const users = new Map<string, Record<string, string>[]>();
    for (const x of observed) users.set(x.session_id, [...(users.get(x.session_id) ?? []), x]);
    expect([...users.keys()].sort()).toEqual(['concurrency_distribution_user_0', 'concurrency_distribution_user_1', 'concurrency_distribution_user_2']);
    for (const xs of users.values()) {
      xs.sort((a, b) => Number(a.round_index) - Number(b.round_index));
      for (let i = 1; i < xs.length; i++) expect(Number(xs[i].send_time_us) - Number(xs[i - 1].last_chunk_time_us)).toBeGreaterThanOrEqual(20_000);
    }
  });

  it('exits 2 with nothing on stdout when the server is unreachable', async () => {
    await rejects(expect, ['observe', '--server-url', 'http://127.0.0.1:1', '--model', 'm', '--rate', '1', '--num-requests', '1', '--trace-header', join(tmp, 'x.yaml'), '--trace-data', join(tmp, 'x.csv')], /^blis: --server-url: expected a server that answers HTTP, found http:\/\/127\.0\.0\.1:1 unreachable \(.*ECONNREFUSED/);
  });

  it('exits 2 on bad flags, before sending anything', async () => {
    await rejects(expect, ['observe', '--model', 'm', '--rate', '1', '--num-requests', '1', '--trace-data', 'x.csv'], '--server-url: expected a value (`blis observe` requires it), found nothing', '--trace-header: expected a value (`blis observe` requires it), found nothing');
    const out = ['--server-url', url, '--model', 'm', '--trace-header', join(tmp, 'y.yaml'), '--trace-data', join(tmp, 'y.csv')];
    await rejects(expect, ['observe', ...out, '--rate', '1', '--num-requests', '1', '--record-itl', '--no-streaming'], '--record-itl: expected streaming (ITL needs chunks), so not --no-streaming, found --no-streaming');
    await rejects(expect, ['observe', ...out, '--rate', '1', '--num-requests', '1', '--slo-ttft', 'critical=fast'], /^blis: --slo-ttft: expected class=duration pairs/);
    await rejects(expect, ['observe', ...out, '--concurrency', '2', '--rate', '1', '--num-requests', '1'], '--concurrency: expected a closed loop without an arrival rate or preset, found --rate');
    await rejects(expect, ['observe', ...out, '--rate', '1', '--num-requests', '1', '--think-time-dist', 'constant:value=1s'], '--think-time-dist: expected --concurrency beside it (think time belongs to the closed loop), found no --concurrency');
    await rejects(expect, ['observe', ...out, '--concurrency', '1', '--num-requests', '1', '--think-time-ms', '5', '--think-time-dist', 'constant:value=1s'], '--think-time-dist: expected one of --think-time-ms and --think-time-dist, found both');
    await rejects(expect, ['observe', ...out, '--concurrency', '1', '--num-requests', '1', '--think-time-dist', 'lognormal:mu=2'], '--think-time-dist sigma: expected a value ("sigma=..."), found nothing (the parameter is missing)');
    await rejects(expect, ['observe', ...out, '--concurrency', '1', '--num-requests', '1', '--think-time-dist', 'gamma:k=2'], '--think-time-dist type: expected one of "constant", "lognormal", found "gamma"');
    await rejects(expect, ['observe', ...out, '--rate', '1'], '--num-requests: expected a bound on the requests: --num-requests or --horizon, found neither');
    await rejects(expect, ['observe', ...out, '--num-requests', '1'], 'workload: expected one of --workload-spec, --rate (with --workload or the length flags) or --concurrency, found no --rate');
    await rejects(expect, ['observe', ...out, '--rate', '1', '--num-requests', '1', '--api-format', 'grpc'], '--api-format: expected one of completions, chat, found "grpc"');
  });

  it('on SIGINT writes the partial trace, prints the summary and exits 130', async () => {
    hold = true;
    const h = join(tmp, 'int.yaml');
    const d = join(tmp, 'int.csv');
    const child = spawn(process.execPath, ['--conditions=@blis/source', '--import', 'tsx', SOURCE, 'observe', '--server-url', url, '--model', 'm', '--rate', '1000', '--num-requests', '3', ...lengths, '--trace-header', h, '--trace-data', d], { cwd: ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => {
      stdout += c;
    });
    child.stderr.on('data', (c) => {
      stderr += c;
    });
    // Wait until the server holds the three requests, then interrupt.
    await new Promise<void>((resolve) => {
      const tick = setInterval(() => {
        if (held < 3) return;
        clearInterval(tick);
        resolve();
      }, 20);
    });
    child.kill('SIGINT');
    const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
    hold = false;
    expect(code, stderr).toBe(130);
    expect(JSON.parse(stdout)).toMatchObject({ requests_sent: 3, requests_recorded: 3, error: 3, interrupted: true });
    expect(readFileSync(d, 'utf8')).toContain(',error,aborted,');
  });
});

// The reference server with a known timeline: 20 ms of queueing plus one 10 ms step to the first
// token, 10 ms per token after it, so a 12-token answer's body ends 140 ms after its arrival.
// Arrivals 200 ms apart never overlap, so every first token is due 30 ms after its arrival.
describe('blis observe streaming', () => {
  const MODEL = 'meta-llama/llama-3.1-8b-instruct';
  const FIRST_TOKEN_US = 30_000;
  const BODY_END_US = 140_000;
  let sim: SimServer;
  beforeAll(async () => {
    sim = await startSimServer({ config: { model: MODEL, latencyModel: 'blackbox', alphaCoeffs: [20_000, 0, 0], betaCoeffs: [10_000, 0, 0] } });
  });
  afterAll(() => sim.close());

  const flagWorkload = ['--rate', '5', '--arrival-process', 'constant', '--num-requests', '4', '--prompt-tokens', '40', '--prompt-tokens-stdev', '0', '--output-tokens', '12', '--output-tokens-stdev', '0'];

  /** Observes the reference server; per recorded request its `streaming` column and first chunk after the send, µs. */
  async function record(name: string, workload: readonly string[]): Promise<{ streaming: string[]; firstChunkUs: number[]; numChunks: number[] }> {
    const d = join(tmp, `${name}.csv`);
    const r = await blis(['observe', '--server-url', sim.url, '--model', MODEL, ...workload, '--trace-header', join(tmp, `${name}.yaml`), '--trace-data', d, '--quiet']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ requests_recorded: 4, ok: 4 });
    const [head, ...rows] = readFileSync(d, 'utf8').trim().split('\n').map((l) => l.split(','));
    const col = (n: string) => rows.map((c) => c[head.indexOf(n)]);
    const send = col('send_time_us').map(Number);
    return { streaming: col('streaming'), firstChunkUs: col('first_chunk_time_us').map((t, i) => Number(t) - send[i]), numChunks: col('num_chunks').map(Number) };
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

  it('streams a flag-driven workload by default, so the first chunk is the first token, not the end of the body (BLIS does not stream it)', async () => {
    const r = await record('stream-default', flagWorkload);
    expect(r.streaming).toEqual(['true', 'true', 'true', 'true']);
    // 12 token chunks and the usage chunk.
    expect(r.numChunks).toEqual([13, 13, 13, 13]);
    for (const t of r.firstChunkUs) expect(t).toBeGreaterThanOrEqual(FIRST_TOKEN_US);
    // Well short of the body's end (on a loaded machine the client reads some ms late).
    expect(median(r.firstChunkUs)).toBeLessThan(FIRST_TOKEN_US + 60_000);
  }, 60_000);

  it('--no-streaming still sends a flag-driven workload without streaming', async () => {
    const r = await record('stream-off', [...flagWorkload, '--no-streaming']);
    expect(r.streaming).toEqual(['false', 'false', 'false', 'false']);
    expect(r.numChunks).toEqual([1, 1, 1, 1]);
    for (const t of r.firstChunkUs) expect(t).toBeGreaterThanOrEqual(BODY_END_US);
  }, 60_000);

  it('a spec client with streaming: false is still not streamed', async () => {
    const spec = join(tmp, 'no-stream-spec.yaml');
    writeFileSync(spec, 'version: "2"\nseed: 5\naggregate_rate: 5\nnum_requests: 4\nclients:\n  - id: c\n    rate_fraction: 1\n    streaming: false\n    arrival: {process: constant}\n    input_distribution: {type: constant, params: {value: 40}}\n    output_distribution: {type: constant, params: {value: 12}}\n');
    const r = await record('stream-spec-off', ['--workload-spec', spec]);
    expect(r.streaming).toEqual(['false', 'false', 'false', 'false']);
    expect(r.numChunks).toEqual([1, 1, 1, 1]);
    for (const t of r.firstChunkUs) expect(t).toBeGreaterThanOrEqual(BODY_END_US);
  }, 60_000);
});
