import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RequestSpec } from '@blis/engine';
import { type TraceReadError, createRequestSource, openTraceV2, parseWorkloadSpec, writeTraceV2 } from '@blis/workload';
import { TRACEV2_COLUMNS } from '@blis/workload/internal';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { drain, specArb } from '../src/testing/index.js';
import { propertyRuns } from '../../../tools/test-support/property-runs.js';

// TraceV2 prefix groups as BLIS reads and writes them (sim/workload/replay.go, tracev2.go):
// `input_tokens` is the request's own tokens, and a grouped row is preceded by its group's
// shared prefix, one token sequence per group sized by the group's first positive
// `prefix_length`. Block size 16 throughout.

const dir = mkdtempSync(join(tmpdir(), 'blis-tracev2-prefix-'));

/** A row in BLIS's exporter layout: the 27 standard columns, generated-mode values. */
function row(r: { id: number; group?: string; prefixLength?: number; input: number; output?: number; arrival?: number; deadline?: number; session?: string; round?: number; serverInput?: number }): string {
  const arrival = r.arrival ?? r.id * 1000;
  return [
    r.id, 'c', '', 'standard', r.session ?? '', r.round ?? 0, r.group ?? '', r.prefixLength ?? 0, 'false', r.input, r.output ?? 4,
    0, 0, 0, 0, 0, '', r.deadline ?? 0, r.serverInput ?? 0, arrival, arrival, 0, 0, 0, 'ok', '', '',
  ].join(',');
}

function trace(name: string, rows: string[], header = 'trace_version: 3\ntime_unit: microseconds\nmode: generated\nwarm_up_requests: 0\nworkload_seed: 42\n', columns: readonly string[] = TRACEV2_COLUMNS): RequestSpec[] {
  const stem = join(dir, name);
  writeFileSync(`${stem}.yaml`, header);
  writeFileSync(`${stem}.csv`, `${columns.join(',')}\n${rows.join('\n')}\n`);
  return drain(openTraceV2(`${stem}.csv`));
}

/** How many leading block hashes two prompts share. */
function sharedBlocks(a: RequestSpec, b: RequestSpec): number {
  let i = 0;
  while (i < a.blockHashes.length && i < b.blockHashes.length && a.blockHashes[i] === b.blockHashes[i]) i++;
  return i;
}

describe('TraceV2 prefix groups, read as BLIS reads them', () => {
  it('a BLIS-written trace: the prompt is the group prefix plus input_tokens', () => {
    const [a, b, c, d, e] = trace('blis-written', [
      // 40 shared tokens: 2 whole blocks (32 tokens); the third block mixes prefix and own tokens.
      row({ id: 0, group: 'sys', prefixLength: 40, input: 10 }),
      row({ id: 1, group: 'sys', prefixLength: 40, input: 30 }),
      // A group member that states no length still gets the group's prefix (BLIS prepends it).
      row({ id: 2, group: 'sys', prefixLength: 0, input: 5 }),
      // A prefix length without a group is not a prefix at all.
      row({ id: 3, prefixLength: 20, input: 64 }),
      row({ id: 4, group: 'other', prefixLength: 16, input: 16 }),
    ]);
    expect([a, b, c, d, e].map((r) => r.inputTokens)).toEqual([50, 70, 45, 64, 32]);
    expect([a, b, c, d, e].map((r) => r.prefixLength)).toEqual([40, 40, 40, 0, 16]);
    // floor(50/16) = 3 blocks, floor(70/16) = 4, floor(45/16) = 2, 4, 2.
    expect([a, b, c, d, e].map((r) => r.blockHashes.length)).toEqual([3, 4, 2, 4, 2]);
    expect(sharedBlocks(a, b)).toBe(2);
    expect(sharedBlocks(a, c)).toBe(2);
    expect(sharedBlocks(a, d)).toBe(0);
    expect(sharedBlocks(a, e)).toBe(0);
  });

  it("a group's prefix is sized by its first positive prefix_length, for rows before it too", () => {
    const [a, b, c] = trace('late-length', [
      row({ id: 0, group: 'g', prefixLength: 0, input: 10 }),
      row({ id: 1, group: 'g', prefixLength: 32, input: 10 }),
      // A different later length does not resize the group (BLIS generates the prefix once).
      row({ id: 2, group: 'g', prefixLength: 64, input: 10 }),
    ]);
    expect([a, b, c].map((r) => r.inputTokens)).toEqual([42, 42, 42]);
    expect(sharedBlocks(a, b)).toBe(2);
    expect(sharedBlocks(b, c)).toBe(2);
  });

  it('a group that never states a length has no prefix', () => {
    const [a, b] = trace('no-length', [row({ id: 0, group: 'g', input: 40 }), row({ id: 1, group: 'g', input: 40 })]);
    expect([a.inputTokens, b.inputTokens]).toEqual([40, 40]);
    expect(sharedBlocks(a, b)).toBe(0);
  });

  it('server_input_tokens replaces input_tokens outside a group, never inside one', () => {
    const [a, b] = trace('server-count', [row({ id: 0, input: 100, serverInput: 112 }), row({ id: 1, group: 'g', prefixLength: 20, input: 100, serverInput: 130 })]);
    expect(a.inputTokens).toBe(112);
    expect(b.inputTokens).toBe(120);
  });

  it('deadline_us is an absolute time; optional BLIS columns are found by name', () => {
    const columns: string[] = [...TRACEV2_COLUMNS];
    columns.splice(columns.indexOf('deadline_us') + 1, 0, 'slo_target_us');
    const withSlo = (r: string, slo: number) => {
      const c = r.split(',');
      c.splice(TRACEV2_COLUMNS.indexOf('deadline_us') + 1, 0, String(slo));
      return c.join(',');
    };
    const [a] = trace('slo-column', [withSlo(row({ id: 0, group: 'g', prefixLength: 16, input: 8, arrival: 5000, deadline: 9000 }), 250_000)], undefined, columns);
    expect(a).toMatchObject({ arrivalUs: 5000, deadlineUs: 9000, sloTargetUs: 250_000, inputTokens: 24 });
  });
});

describe('TraceV2 input errors', () => {
  it('a header row without a standard column, and a deadline before its arrival, are named', () => {
    const issue = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return (e as TraceReadError).issues[0];
      }
      throw new Error('no error');
    };
    const noGroup = TRACEV2_COLUMNS.filter((c) => c !== 'prefix_group');
    expect(issue(() => trace('no-group-column', [], undefined, noGroup))).toMatchObject({ line: 1, found: 'no prefix_group column' });
    expect(issue(() => trace('early-deadline', [row({ id: 0, input: 10, arrival: 5000, deadline: 4000 })]))).toMatchObject({
      line: 2,
      field: 'deadline_us',
      found: '4000',
    });
  });
});

describe('TraceV2 prefix groups, written as BLIS writes them', () => {
  it('input_tokens excludes the prefix and the deadline is absolute', () => {
    const spec = parseWorkloadSpec({
      version: '2',
      aggregate_rate: 10,
      num_requests: 3,
      clients: [
        {
          id: 'a',
          rate_fraction: 1,
          input_distribution: { type: 'constant', params: { value: 100 } },
          output_distribution: { type: 'constant', params: { value: 7 } },
          prefix_group: 'sys',
          prefix_length: 50,
          timeout: 2_000_000,
        },
      ],
    });
    const stem = join(dir, 'written');
    writeTraceV2(createRequestSource(spec), `${stem}.yaml`, `${stem}.csv`);
    const lines = readFileSync(`${stem}.csv`, 'utf8').trim().split('\n');
    const at = (name: string, line: string) => line.split(',')[TRACEV2_COLUMNS.indexOf(name as (typeof TRACEV2_COLUMNS)[number])];
    for (const line of lines.slice(1)) {
      expect(at('prefix_length', line)).toBe('50');
      expect(at('input_tokens', line)).toBe('100');
      expect(Number(at('deadline_us', line))).toBe(Number(at('arrival_time_us', line)) + 2_000_000);
    }
    // Direct generation has 150-token prompts; so does the replay.
    expect(drain(createRequestSource(spec)).map((r) => r.inputTokens)).toEqual([150, 150, 150]);
    expect(drain(openTraceV2(`${stem}.csv`)).map((r) => r.inputTokens)).toEqual([150, 150, 150]);
  });

  it('clients sharing a group share the first client\'s prefix length, as in BLIS', () => {
    const client = (id: string, prefix_length: number) => ({
      id,
      rate_fraction: 1,
      input_distribution: { type: 'constant' as const, params: { value: 10 } },
      output_distribution: { type: 'constant' as const, params: { value: 1 } },
      prefix_group: 'g',
      prefix_length,
    });
    // prefix_length 0 means BLIS's default of 50 for the group's first client.
    const reqs = drain(createRequestSource(parseWorkloadSpec({ version: '2', aggregate_rate: 10, num_requests: 20, clients: [client('a', 0), client('b', 200)] })));
    expect(new Set(reqs.map((r) => r.inputTokens))).toEqual(new Set([60]));
  });

  it('spec -> TraceV2 -> replay keeps every prompt length and its prefix sharing (fast-check)', () => {
    let n = 0;
    fc.assert(
      fc.property(specArb(), (raw) => {
        const spec = parseWorkloadSpec(raw);
        const stem = join(dir, `prop-${n++}`);
        writeTraceV2(createRequestSource(spec), `${stem}.yaml`, `${stem}.csv`);
        const direct = drain(createRequestSource(spec));
        const replayed = drain(openTraceV2(`${stem}.csv`));
        expect(replayed.map((r) => r.inputTokens)).toEqual(direct.map((r) => r.inputTokens));
        expect(replayed.map((r) => Array.from(r.blockHashes))).toEqual(direct.map((r) => Array.from(r.blockHashes)));
        // Rows carry BLIS's suffix-only count: input_tokens + the group prefix is the prompt.
        const csv = readFileSync(`${stem}.csv`, 'utf8').trim().split('\n').slice(1);
        const col = (name: (typeof TRACEV2_COLUMNS)[number]) => TRACEV2_COLUMNS.indexOf(name);
        csv.forEach((line, i) => {
          const f = line.match(/("([^"]|"")*"|[^,]*)(,|$)/g)!.map((s) => s.replace(/,$/, ''));
          expect(Number(f[col('input_tokens')]) + Number(f[col('prefix_length')])).toBe(direct[i].inputTokens);
        });
      }),
      { numRuns: propertyRuns(40), verbose: true },
    );
  });
});
