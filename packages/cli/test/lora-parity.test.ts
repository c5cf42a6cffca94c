import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { blis } from './blis-process.js';
import { HEAD_FIXTURE_DIR } from './parity-compare.js';

// LoRA serving, request for request, against BLIS HEAD (f90a1e3a, unpatched): the same command
// line, BLIS's --metrics-path file against ours (fixtures/blis-head-parity/lora/README.md).

const DIR = join(HEAD_FIXTURE_DIR, 'lora');
const COMMON = ['--model', 'meta-llama/llama-3.1-8b-instruct', '--hardware', 'H100', '--tp', '1', '--workload-spec', join(DIR, 'lora-spec.yaml'), '--lora-config', join(DIR, 'lora.yaml')];

const REPLAY = ['replay', '--model', 'meta-llama/llama-3.1-8b-instruct', '--hardware', 'H100', '--tp', '1', '--trace-header', join(DIR, 'lora800.yaml'), '--trace-data', join(DIR, 'lora800.csv'), '--lora-config', join(DIR, 'lora.yaml')];

const RUNS = [
  // 2 slots for 5 hot adapters: loads and evictions dominate; round-robin.
  { name: 'cap2-rr', command: undefined, args: ['--lora-adapter-capacity', '2', '--num-instances', '2', '--total-kv-blocks', '7463'] },
  // 8 slots (all fit), weighted with lora-affinity, KV derived from memory less the 8 slots' HBM.
  { name: 'cap8-w', command: undefined, args: ['--lora-adapter-capacity', '8', '--num-instances', '4', '--routing-policy', 'weighted', '--lora-scorer-weight', '1'] },
  // 1 slot per instance, 3 instances, weighted with lora-affinity.
  { name: 'cap1-w', command: undefined, args: ['--lora-adapter-capacity', '1', '--num-instances', '3', '--routing-policy', 'weighted', '--lora-scorer-weight', '1', '--total-kv-blocks', '7463'] },
  // BLIS's own export of cap2-rr's workload (--trace-output, its trailing adapter column) replayed.
  { name: 'cap2-rr', command: REPLAY, args: ['--lora-adapter-capacity', '2', '--num-instances', '2', '--total-kv-blocks', '7463'] },
] as const;

const tmp = mkdtempSync(join(tmpdir(), 'blis-lora-parity-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

type Json = Record<string, unknown>;

describe.each(RUNS)('LoRA parity with BLIS HEAD: $name', ({ name, command, args }) => {
  it(`${command === undefined ? 'run' : 'replay of BLIS\'s trace'}: matches every per-request field, the adapters block and the aggregate`, async () => {
    const out = join(tmp, `${name}-${command === undefined ? 'run' : 'replay'}.json`);
    const r = await blis([...(command ?? ['run', ...COMMON]), ...args, '--metrics-path', out, '--quiet']);
    expect(r.code, r.stderr).toBe(0);
    const ours = JSON.parse(readFileSync(out, 'utf8')) as Json & { requests: Json[] };
    const ref = JSON.parse(readFileSync(join(DIR, `${name}.json`), 'utf8')) as Json & { requests: Json[] };
    expect(ours.requests).toHaveLength(ref.requests.length);
    const byId = new Map(ours.requests.map((q) => [q.requestID, q]));
    let mismatches = 0;
    for (const q of ref.requests) {
      const o = byId.get(q.requestID);
      // Every field BLIS writes, to the last digit; ours adds only the default SLO class BLIS leaves out.
      const diff = o === undefined ? ['missing'] : Object.keys(q).filter((k) => o[k] !== q[k]);
      if (diff.length > 0 && mismatches++ < 5) expect.soft(diff, `${String(q.requestID)}: ${JSON.stringify(o)} vs ${JSON.stringify(q)}`).toEqual([]);
      if (o !== undefined) expect(Object.keys(o).filter((k) => !(k in q) && k !== 'slo_class')).toEqual([]);
    }
    expect(mismatches).toBe(0);
    expect(ours.adapters).toEqual(ref.adapters);
    for (const k of Object.keys(ref)) if (k !== 'requests') expect(ours[k], k).toEqual(ref[k]);
  });
});
