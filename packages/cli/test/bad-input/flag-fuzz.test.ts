import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runInProcess } from './run-in-process.js';

// Flag fuzzing: valid `blis run` command lines with one flag's value mutated into something
// near-valid or hostile. Whatever the value, the answer is a run (exit 0) or the bad-input
// contract: exit 2, nothing on stdout, no stack, a short stderr naming the flag.

const MODEL = ['--model', 'meta-llama/llama-3.1-8b-instruct', '--num-requests', '2'];

/** Valid command lines, as flag/value pairs (after `run` and MODEL); each ran with exit 0 when written. */
const BASES: readonly (readonly [string, string])[][] = [
  [['--rate', '5'], ['--num-instances', '2'], ['--max-num-seqs', '8'], ['--seed', '7'], ['--prompt-tokens', '64'], ['--output-tokens', '16'], ['--gpu-memory-utilization', '0.9'], ['--tp', '1']],
  [['--routing-policy', 'weighted'], ['--routing-scorers', 'queue-depth:1,kv-utilization:2'], ['--fitness-weights', 'p99_ttft:1,throughput:0.5'], ['--admission-policy', 'token-bucket'], ['--token-bucket-capacity', '100000'], ['--token-bucket-refill-rate', '10000'], ['--prompt-tokens-stdev', '10']],
  [['--latency-model', 'blackbox'], ['--alpha-coeffs', '1000,1,1'], ['--beta-coeffs', '1000,10,1'], ['--total-kv-blocks', '2000'], ['--block-size-in-tokens', '16'], ['--kv-cpu-blocks', '100'], ['--kv-transfer-bandwidth', '25'], ['--kv-offload-threshold', '0.9']],
  [['--detectors', 'composite,threshold'], ['--saturation-final-window', '10s'], ['--rate', '5'], ['--seed', '3']],
  [['--autoscaler-enabled', ''], ['--autoscaler-max', '2'], ['--autoscaler-cooldown', '30s'], ['--scale-up-window', '10s'], ['--timeseries-interval', '500ms'], ['--hardware', 'H100'], ['--vllm-version', '0.11.0'], ['--latency-model', 'blackbox']],
];

/**
 * Flags whose huge values are resource limits (instances, KV blocks, tokens per request, batch
 * sizes, replicas): docs/limits.md's fixed limits refuse them before anything is allocated. The
 * fuzz draws huge values for them like any other flag; the test below holds each to a refusal.
 */
const RESOURCE_FLAGS = ['--num-instances', '--max-num-seqs', '--prompt-tokens', '--output-tokens', '--total-kv-blocks', '--block-size-in-tokens', '--kv-cpu-blocks', '--autoscaler-max'];

const HUGE = ['1e15', '99999999999999999999', '1e308', '9007199254740993'];

/** How a value is mutated: each gives the new text from the valid one. */
const mutation: fc.Arbitrary<{ kind: string; apply: (valid: string) => string }> = fc.oneof(
  fc.constantFrom('0x10', '0b1', '0o7', 'NaN', 'Infinity', '-Infinity', '.nan', '.inf', '', ' ', '-1', '-0.5', '0', '1e-400', '30', '1,2,3').map((v) => ({ kind: `constant ${JSON.stringify(v)}`, apply: () => v })),
  fc.constantFrom(...HUGE).map((v) => ({ kind: `huge ${v}`, apply: () => v })),
  fc.constant({ kind: 'padded with spaces', apply: (v: string) => ` ${v} ` }),
  fc.constant({ kind: 'first list entry repeated', apply: (v: string) => `${v},${v.split(',')[0]}` }),
  fc.constant({ kind: 'empty list entry', apply: (v: string) => `${v},,${v}` }),
  fc.constant({ kind: 'suffixed', apply: (v: string) => `${v}x` }),
  fc.constant({ kind: 'long', apply: (v: string) => v.repeat(Math.ceil(10_240 / Math.max(1, v.length))) }),
  fc.string({ maxLength: 20 }).map((s) => ({ kind: `random ${JSON.stringify(s)}`, apply: () => s })),
);

const STACK_FRAME = /^\s+at .+:\d+:\d+\)?$/m;

describe('flag fuzzing', () => {
  it('the base command lines run', async () => {
    for (const base of BASES) {
      const args = ['run', ...MODEL, ...base.flatMap(([f, v]) => (v === '' ? [f] : [`${f}=${v}`]))];
      const r = await runInProcess(args);
      expect(r.code, `blis ${args.join(' ')}\n${r.stderr}`).toBe(0);
    }
  });

  it('a huge value of a resource flag is refused at once, naming the flag, whatever else the line holds', async () => {
    for (const flag of RESOURCE_FLAGS) {
      const b = BASES.findIndex((base) => base.some(([f]) => f === flag));
      for (const huge of HUGE) {
        const args = ['run', ...MODEL, ...BASES[b].flatMap(([f, v]) => (v === '' ? [f] : [`${f}=${f === flag ? huge : v}`]))];
        const started = performance.now();
        const r = await runInProcess(args);
        const ms = performance.now() - started;
        const shown = `blis ${args.join(' ')}\n--- exit ${r.code}, stderr ---\n${r.stderr.slice(0, 1500)}`;
        expect(r.code, shown).toBe(2);
        expect(r.stdout, shown).toBe('');
        expect(r.stderr, shown).toMatch(new RegExp(`^blis: ${flag}: expected `, 'm'));
        // Refused before allocating: milliseconds, where running it would take minutes or crash.
        expect(ms, shown).toBeLessThan(2000);
      }
    }
  }, 120_000);

  it('a mutated flag value runs or is refused with a short message naming the flag', async () => {
    const cases = fc
      .tuple(fc.nat({ max: BASES.length - 1 }), fc.nat(), mutation)
      .map(([b, i, m]) => {
        const base = BASES[b].filter(([, v]) => v !== '');
        const [flag, valid] = base[i % base.length];
        return { b, flag, valid, m };
      });
    await fc.assert(
      fc.asyncProperty(cases, async ({ b, flag, valid, m }) => {
        const value = m.apply(valid);
        const args = ['run', ...MODEL, ...BASES[b].flatMap(([f, v]) => (v === '' ? [f] : [`${f}=${f === flag ? value : v}`]))];
        const r = await runInProcess(args);
        const shown = `${flag} ${m.kind}: blis ${args.join(' ').slice(0, 400)}\n--- exit ${r.code}, stderr ---\n${r.stderr.slice(0, 1500)}`;
        expect(r.stderr, shown).not.toMatch(/internal error/);
        expect(r.stderr, shown).not.toMatch(STACK_FRAME);
        if (r.code === 0) return;
        expect(r.code, shown).toBe(2);
        expect(r.stdout, shown).toBe('');
        expect(Buffer.byteLength(r.stderr), shown).toBeLessThanOrEqual(2048);
        expect(r.stderr, shown).toContain(flag);
      }),
      { numRuns: Number(process.env.BLIS_FLAG_FUZZ_RUNS ?? 1000) },
    );
  }, 300_000);
});
