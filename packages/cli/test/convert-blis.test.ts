import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, blis } from './blis-process.js';

// BLIS's converters (`blis convert preset|servegen|inference-perf`) against what BLIS HEAD
// (f90a1e3a) prints for the same command lines: fixtures/blis-convert/README.md says how each
// file was made. Our output must equal BLIS's byte for byte.

const FIXTURES = join(ROOT, 'packages', 'cli', 'test', 'fixtures');
const DIR = join(FIXTURES, 'blis-convert');

interface Case {
  out: string;
  args: string[];
}
const cases = JSON.parse(readFileSync(join(DIR, 'cases.json'), 'utf8')) as Case[];

/** `@/x`: a file of the fixture folder; `@servegen/x`: the ServeGen sample; `@x`: a repository path. */
function resolve(a: string): string {
  if (a.startsWith('@/')) return join(DIR, a.slice(2));
  if (a.startsWith('@servegen/')) return join(FIXTURES, 'servegen', a.slice('@servegen/'.length));
  return a.startsWith('@') ? join(ROOT, a.slice(1)) : a;
}

describe.concurrent("blis convert preset|servegen|inference-perf print BLIS HEAD's spec", () => {
  it.for(cases)('blis $args', async (c, { expect }) => {
    const r = await blis(c.args.map(resolve));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(readFileSync(join(DIR, c.out), 'utf8'));
  });
});

describe('blis convert keeps its TraceV2 form beside the subcommands', () => {
  it('convert --workload chatbot --output writes a pair; its --rate is not the preset subcommand`s', async () => {
    const out = join(ROOT, 'node_modules', '.tmp-convert-blis');
    const r = await blis(['convert', '--workload', 'chatbot', '--rate', '5', '--num-requests', '3', '--output', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ requests: 3 });
    const rows = readFileSync(`${out}.csv`, 'utf8').trim().split('\n');
    expect(rows).toHaveLength(4);
    // BLIS's constant arrivals at 5 req/s: gaps of 1/5 s in µs, truncated (0.2 * 1e6 falls short of 200000).
    expect(rows.slice(1).map((l) => l.split(',')[19])).toEqual(['199999', '399998', '599997']);
  });

  it('a converted preset spec runs in `blis run` as BLIS`s preset flags do', async () => {
    const spec = join(DIR, 'preset-chatbot.yaml');
    const viaSpec = await blis(['run', '--model', 'qwen/qwen3-14b', '--workload-spec', spec, '--seed', '42', '--quiet']);
    const viaFlags = await blis(['run', '--model', 'qwen/qwen3-14b', '--workload', 'chatbot', '--rate', '10', '--num-requests', '100', '--quiet']);
    expect(viaSpec.code, viaSpec.stderr).toBe(0);
    expect(viaFlags.code, viaFlags.stderr).toBe(0);
    const pick = (s: string) => {
      const j = JSON.parse(s);
      return [j.injected_requests, j.total_input_tokens, j.total_output_tokens];
    };
    expect(pick(viaSpec.stdout)).toEqual(pick(viaFlags.stdout));
  });
});
