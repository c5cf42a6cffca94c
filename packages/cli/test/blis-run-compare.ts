import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { blis } from './blis-process.js';

// A `blis run` compared with a BLIS HEAD run cut as the fixtures under fixtures/blis-head-*
// are: the TraceV2 rows BLIS's --trace-output wrote (its generated stream, follow-up rounds
// included, in arrival order), each with its --metrics-path record, and the aggregate.

export type Row = Record<string, string>;

export function csvRows(text: string): Row[] {
  const [head, ...lines] = text.trim().split('\n');
  const cols = head.split(',');
  return lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [cols[i], v])));
}

interface BlisRequest {
  arrived_at: number;
  session_id?: string;
  round_index: number;
  num_prefill_tokens: number;
  num_decode_tokens: number;
  handled_by: string;
  ttft_ms: number;
  itl_ms: number;
  e2e_ms: number;
  scheduling_delay_ms: number;
}

/** Our run cut as the fixture is: trace rows in order, each with its metrics record. */
export function cut(traceCsv: string, metrics: { requests: BlisRequest[] }): Row[] {
  const byKey = new Map<string, BlisRequest[]>();
  const key = (...k: (string | number)[]) => k.join('|');
  for (const q of metrics.requests) {
    const k = key(Math.round(q.arrived_at * 1e6), q.session_id ?? '', q.round_index, q.num_prefill_tokens, q.num_decode_tokens);
    byKey.set(k, [...(byKey.get(k) ?? []), q]);
  }
  return csvRows(traceCsv).map((x) => {
    const prompt = Number(x.input_tokens) + Number(x.prefix_length);
    const q = byKey.get(key(x.arrival_time_us, x.session_id, x.round_index, prompt, x.output_tokens))?.shift();
    expect(q, `metrics record of ${x.request_id}`).toBeDefined();
    return {
      arrival_time_us: x.arrival_time_us,
      client_id: x.client_id,
      session_id: x.session_id,
      round_index: x.round_index,
      prompt_tokens: String(prompt),
      output_tokens: x.output_tokens,
      first_chunk_time_us: x.first_chunk_time_us,
      last_chunk_time_us: x.last_chunk_time_us,
      deadline_us: x.deadline_us,
      handled_by: q!.handled_by,
      ttft_ms: String(q!.ttft_ms),
      itl_ms: String(q!.itl_ms),
      e2e_ms: String(q!.e2e_ms),
      scheduling_delay_ms: String(q!.scheduling_delay_ms),
    };
  });
}

/**
 * Runs `blis run` on `spec` with `flags` (and BLIS's 15,909 KV blocks for qwen3-14b on an H100),
 * and expects every row and aggregate field of the fixture `<dir>/<name>.{csv,json}`.
 */
export async function expectBlisRun(spec: string, flags: readonly string[], dir: string, name: string, out: string): Promise<void> {
  await expectBlisRunOf(['--workload-spec', spec, ...flags], dir, name, out);
}

/** {@link expectBlisRun} of a `blis run` with the workload flags `args` (a spec, or a flag-driven workload). */
export async function expectBlisRunOf(args: readonly string[], dir: string, name: string, out: string): Promise<void> {
  const r = await blis(['run', '--model', 'qwen/qwen3-14b', ...args, '--total-kv-blocks', '15909', '--quiet', '--trace-output', out, '--metrics-path', `${out}-m.json`]);
  expect(r.code, r.stderr).toBe(0);
  const metrics = JSON.parse(readFileSync(`${out}-m.json`, 'utf8'));
  const ours = cut(readFileSync(`${out}.csv`, 'utf8'), metrics);
  const reference = csvRows(readFileSync(join(dir, `${name}.csv`), 'utf8'));
  expect(ours).toHaveLength(reference.length);
  // Field by field, so that a difference names its request and column.
  for (let i = 0; i < reference.length; i++) {
    for (const [k, v] of Object.entries(reference[i])) {
      const mine = ours[i][k];
      if (/_ms$/.test(k)) expect(Number(mine), `row ${i} ${k}`).toBe(Number(v));
      else expect(mine, `row ${i} ${k}`).toBe(v);
    }
  }
  const aggregate = JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8'));
  for (const [k, v] of Object.entries(aggregate)) expect(metrics[k], k).toBe(v);
}
