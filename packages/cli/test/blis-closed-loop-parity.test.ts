import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TRACEV2_COLUMNS } from '@blis/workload/internal';
import { describe, expect, it } from 'vitest';
import { blis } from './blis-process.js';
import { csvRows, expectBlisRunOf } from './blis-run-compare.js';

// Issues 39 and 40: BLIS HEAD's closed loops from the command line. `blis replay --session-mode
// closed-loop` re-sends a TraceV2 trace's sessions round by round, each next round when the
// previous completes plus a think time (the trace's, a constant, or drawn on the session's own Go
// generator); `blis run --concurrency N --think-time-ms M` is a closed-loop client of N users.
// The references are BLIS f90a1e3a runs (fixtures/blis-head-closed-loop/README.md).

const FIXTURES = join(import.meta.dirname, 'fixtures', 'blis-head-closed-loop');
const tmp = mkdtempSync(join(tmpdir(), 'blis-closed-loop-'));

/** Replays the fixture trace (header `header`) with `flags` and expects every request and aggregate field of `<name>.{csv,json}`. */
async function expectReplay(header: string, flags: readonly string[], name: string): Promise<void> {
  const out = join(tmp, `${name}.json`);
  const r = await blis([
    'replay', '--model', 'qwen/qwen3-14b', '--trace-header', join(FIXTURES, header), '--trace-data', join(FIXTURES, 'sessions.csv'),
    '--total-kv-blocks', '15909', '--session-mode', 'closed-loop', '--horizon', '600000000', ...flags, '--quiet', '--metrics-path', out,
  ]);
  expect(r.code, r.stderr).toBe(0);
  const metrics = JSON.parse(readFileSync(out, 'utf8')) as { requests: Record<string, unknown>[] } & Record<string, unknown>;
  const ours = new Map(metrics.requests.map((q) => [q.requestID as string, q]));
  const reference = csvRows(readFileSync(join(FIXTURES, `${name}.csv`), 'utf8'));
  expect(ours.size).toBe(reference.length);
  for (const row of reference) {
    const q = ours.get(row.requestID);
    expect(q, row.requestID).toBeDefined();
    for (const [k, v] of Object.entries(row)) {
      if (k === 'requestID') continue;
      const mine = q![k];
      if (typeof mine === 'number') expect(mine, `${row.requestID} ${k}`).toBe(Number(v));
      else expect(mine ?? '', `${row.requestID} ${k}`).toBe(v);
    }
  }
  const aggregate = JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8')) as Record<string, unknown>;
  for (const [k, v] of Object.entries(aggregate)) expect(metrics[k], k).toBe(v);
}

describe('closed-loop session replay, against BLIS HEAD', () => {
  it('think times from the gaps between recorded arrivals: the same 313 requests, follow-ups named and timed as BLIS', async () => {
    await expectReplay('sessions.yaml', [], 'replay-gaps');
  });

  it('--think-time-dist lognormal: pauses drawn on each session\'s own generator, draw for draw', async () => {
    await expectReplay('sessions.yaml', ['--think-time-dist', 'lognormal:mu=-0.5,sigma=0.8,min=50ms,max=5s'], 'replay-lognormal');
  });

  it('session_context_growth: accumulate, --think-time-ms, 2 instances routed by prefix: prompts grow by each answer and hit its blocks', async () => {
    await expectReplay('sessions-accumulate.yaml', ['--think-time-ms', '300', '--num-instances', '2', '--routing-policy', 'weighted'], 'replay-accumulate-2w');
  });
});

describe('blis run --concurrency, against BLIS HEAD', () => {
  it('8 users, 500 ms think time, 300 requests: the same stream and results', async () => {
    await expectBlisRunOf(['--concurrency', '8', '--think-time-ms', '500', '--num-requests', '300'], FIXTURES, 'concurrency-8', join(tmp, 'concurrency-8'));
  });
});

describe('closed-loop session replay of a trace without sessions', () => {
  it('warns, and replays every row at its recorded time: the result of a fixed replay', async () => {
    const rows = [0, 1, 2, 3].map((i) => `${i},c,,,,0,,0,false,${200 + i},20,0,0,0,0,0,,0,0,${i * 40_000},${i * 40_000},0,0,0,ok,,`);
    writeFileSync(join(tmp, 'plain.csv'), `${TRACEV2_COLUMNS.join(',')}\n${rows.join('\n')}\n`);
    writeFileSync(join(tmp, 'plain.yaml'), 'trace_version: 3\ntime_unit: microseconds\n');
    const args = ['replay', '--model', 'qwen/qwen3-14b', '--trace-header', join(tmp, 'plain.yaml'), '--trace-data', join(tmp, 'plain.csv'), '--total-kv-blocks', '15909'];
    const closed = await blis([...args, '--session-mode', 'closed-loop', '--log', 'error']);
    expect(closed.code, closed.stderr).toBe(0);
    const warned = await blis([...args, '--session-mode', 'closed-loop']);
    expect(warned.stderr).toContain('blis: warning: --session-mode closed-loop: the trace has no session rows (session_id); every request is sent at its recorded time\n');
    const fixed = await blis([...args, '--log', 'error']);
    expect(closed.stdout).toBe(fixed.stdout);
  });
});
