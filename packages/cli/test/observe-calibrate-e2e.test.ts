import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, SOURCE, blis, rejects } from './blis-process.js';

// The whole loop on one machine, every step through the CLI: a simulated server, a recording of
// it, the replay of the recording, and the grade. What it asserts is structural (every request
// recorded, paired, with the token counts the server reported); how close the latencies come
// depends on the machine's load, so no number is held against a threshold here.
const tmp = mkdtempSync(join(tmpdir(), 'blis-e2e-'));
const MODEL = ['--model', 'meta-llama/llama-3.1-8b-instruct'];
let server: ChildProcess;
let url = '';

beforeAll(async () => {
  server = spawn(process.execPath, ['--conditions=@blis/source', '--import', 'tsx', SOURCE, 'serve-sim', ...MODEL, '--port', '0', '--quiet'], { cwd: ROOT });
  url = await new Promise<string>((resolve, reject) => {
    let out = '';
    server.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('\n')) resolve((JSON.parse(out.split('\n')[0]) as { url: string }).url);
    });
    server.on('exit', (code) => reject(new Error(`serve-sim exited with ${code}`)));
  });
}, 60_000);

afterAll(() => {
  server?.kill('SIGTERM');
});

describe('serve-sim -> observe -> replay -> calibrate', () => {
  it('records every request, replays it, and pairs every one in the report', async () => {
    const h = join(tmp, 'obs.yaml');
    const d = join(tmp, 'obs.csv');
    const obs = await blis(['observe', '--server-url', url, ...MODEL, '--rate', '20', '--num-requests', '12', '--prompt-tokens', '120', '--output-tokens', '8', '--record-itl', '--scrape-kv-metrics', '--trace-header', h, '--trace-data', d, '--quiet']);
    expect(obs.code, obs.stderr).toBe(0);
    expect(JSON.parse(obs.stdout)).toMatchObject({ requests_recorded: 12, ok: 12, error: 0, timeout: 0 });
    const sim = join(tmp, 'sim.json');
    const rep = await blis(['replay', '--trace-header', h, '--trace-data', d, ...MODEL, '--results-path', sim, '--quiet']);
    expect(rep.code, rep.stderr).toBe(0);
    expect(JSON.parse(rep.stdout)).toMatchObject({ completed_requests: 12 });
    const report = join(tmp, 'cal.json');
    const cal = await blis(['calibrate', '--trace-header', h, '--trace-data', d, '--sim-results', sim, '--report', report, '--itl-data', join(tmp, 'obs.itl.csv'), '--sim-metrics', sim]);
    expect(cal.code, cal.stderr).toBe(0);
    expect(cal.stdout).toMatch(/^E2E\s+12\s/m);
    const r = JSON.parse(readFileSync(report, 'utf8')) as {
      trace_info: { matched_pairs: number; token_mismatches: number };
      metrics: Record<string, { count: number; request_level: { quality: string } }>;
      hit_rate?: { real_hit_rate: number; sim_hit_rate: number };
    };
    // The server counts tokens as the replay does (server_input_tokens), so nothing mismatches.
    expect(r.trace_info).toMatchObject({ matched_pairs: 12, token_mismatches: 0 });
    expect(Object.keys(r.metrics).sort()).toEqual(['e2e', 'itl', 'ttft']);
    expect(r.metrics.e2e.count).toBe(12);
    expect(['excellent', 'good', 'fair', 'poor']).toContain(r.metrics.e2e.request_level.quality);
    expect(r.hit_rate?.real_hit_rate).toBeGreaterThanOrEqual(0);
  }, 180_000);

  it('serve-sim refuses a port it cannot listen on: exit 2, nothing on stdout', async () => {
    const port = new URL(url).port;
    await rejects(expect, ['serve-sim', ...MODEL, '--port', port], /^blis: --port: expected an address and port this process can listen on, found EADDRINUSE/);
  }, 60_000);
});
