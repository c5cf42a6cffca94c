import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type InputIssue, WorkloadSpecError, loadWorkloadSpec, parseWorkloadSpec, parseWorkloadSpecText, specFromFlags } from '@blis/workload';
import { describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'blis-spec-'));

// Line numbers below are counted by hand in this text.
const BASE = `version: "2"
seed: 7
aggregate_rate: 10
num_requests: 100
clients:
  - id: a
    rate_fraction: 1
    arrival:
      process: poisson
    input_distribution:
      type: gaussian
      params: {mean: 100, std_dev: 10, min: 10, max: 200}
    output_distribution:
      type: constant
      params:
        value: 20
`;

function write(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** Loads a spec expected to be rejected, returning its issues (failing if it loads). */
function issuesOf(path: string): InputIssue[] {
  try {
    loadWorkloadSpec(path);
  } catch (e) {
    expect(e).toBeInstanceOf(WorkloadSpecError);
    return (e as WorkloadSpecError).issues;
  }
  throw new Error(`${path} loaded, but should have been rejected`);
}

describe('loadWorkloadSpec', () => {
  it('loads a valid spec with defaults filled in and the spec directory as baseDir', () => {
    const spec = loadWorkloadSpec(write('ok.yaml', BASE));
    expect(spec.clients[0]).toMatchObject({ id: 'a', tenant_id: '', streaming: false });
    // Unset, as in BLIS: a group's prefix is then 50 tokens, and a closed-loop session's
    // later rounds without accumulated context repeat none of it.
    expect(spec.clients[0].prefix_length).toBeUndefined();
    // Left unset: the request source gives the class (standard when simulating).
    expect(spec.clients[0].slo_class).toBeUndefined();
    // No timeout unless set: the request source applies BLIS's rule (300 s for session rounds only).
    expect(spec.clients[0].timeout).toBeUndefined();
    expect(spec.baseDir).toBe(dir);
    expect(spec.seed).toBe(7);
  });

  it('accepts an unquoted `version: 2` as Go BLIS does', () => {
    expect(loadWorkloadSpec(write('v2.yaml', BASE.replace('version: "2"', 'version: 2'))).version).toBe('2');
  });

  it('malformed YAML: names the file and the line of the syntax error', () => {
    const path = write('malformed.yaml', 'version: "2"\nclients: [a, b\n  seed: 3\n');
    const [i] = issuesOf(path);
    // One issue, at the bracket left open, in our words (the parser's own ran to three lines).
    expect(issuesOf(path)).toEqual([{ file: path, line: 2, expected: 'valid YAML (a ] closing the [ at column 10)', found: '"clients: [a, b", never closed' }]);
    expect(i.found).not.toMatch(/flow sequence/i);
  });

  it('unknown field: names its line and the field path', () => {
    const path = write('unknown.yaml', BASE.replace('    rate_fraction: 1\n', '    rate_fraction: 1\n    colour: blue\n'));
    expect(issuesOf(path)).toEqual([{ file: path, line: 8, field: 'clients[0].colour', expected: 'a known field', found: 'unknown field "colour"' }]);
  });

  it('unknown field nested in a distribution: its own line', () => {
    const path = write('unknown2.yaml', BASE.replace('        value: 20\n', '        value: 20\n        skew: 3\n'));
    expect(issuesOf(path)).toEqual([{ file: path, line: 17, field: 'clients[0].output_distribution.params.skew', expected: 'a known field', found: 'unknown field "skew"' }]);
  });

  it('wrong type', () => {
    const path = write('type.yaml', BASE.replace('aggregate_rate: 10', 'aggregate_rate: fast'));
    expect(issuesOf(path)).toEqual([{ file: path, line: 3, field: 'aggregate_rate', expected: 'a number', found: '"fast"' }]);
  });

  it('negative rate', () => {
    const path = write('neg.yaml', BASE.replace('aggregate_rate: 10', 'aggregate_rate: -3'));
    expect(issuesOf(path)).toEqual([{ file: path, line: 3, field: 'aggregate_rate', expected: 'a number >= 0', found: '-3' }]);
  });

  it('negative rate_fraction', () => {
    const path = write('negfrac.yaml', BASE.replace('rate_fraction: 1', 'rate_fraction: -0.5'));
    expect(issuesOf(path)).toEqual([{ file: path, line: 7, field: 'clients[0].rate_fraction', expected: 'a number >= 0', found: '-0.5' }]);
  });

  it('all rate_fractions zero', () => {
    const path = write('zero.yaml', BASE.replace('rate_fraction: 1', 'rate_fraction: 0'));
    expect(issuesOf(path)).toEqual([{ file: path, line: 6, field: 'clients', expected: 'at least one client with rate_fraction > 0', found: 'every rate_fraction is 0' }]);
  });

  it('min > max', () => {
    const path = write('minmax.yaml', BASE.replace('min: 10, max: 200', 'min: 300, max: 200'));
    expect(issuesOf(path)).toEqual([{ file: path, line: 12, field: 'clients[0].input_distribution.params.min', expected: 'min <= max (200)', found: '300' }]);
  });

  it('unknown arrival process lists the known ones', () => {
    const path = write('proc.yaml', BASE.replace('process: poisson', 'process: gama'));
    expect(issuesOf(path)).toEqual([
      { file: path, line: 9, field: 'clients[0].arrival.process', expected: 'one of "poisson", "gamma", "weibull", "constant", "bursty", "periodic"', found: '"gama"' },
    ]);
  });

  it('missing required field', () => {
    const path = write('missing-field.yaml', BASE.replace(/ {4}output_distribution:\n(.*\n){3}/, ''));
    expect(issuesOf(path)).toEqual([{ file: path, line: 6, field: 'clients[0].output_distribution', expected: 'a mapping', found: 'nothing (the field is missing)' }]);
  });

  it('an unbounded spec (no num_requests, no horizon, a client without windows)', () => {
    const path = write('unbounded.yaml', BASE.replace('num_requests: 100\n', ''));
    expect(issuesOf(path)).toEqual([
      {
        file: path,
        line: 1,
        field: 'num_requests',
        expected: 'num_requests or horizon, a run --num-requests or --horizon, or lifecycle windows on every sending client (an unbounded workload never ends)',
        found: 'none; client "a" sends without windows',
      },
    ]);
  });

  it('a spec whose every sending client has lifecycle windows ends by itself: no num_requests or horizon needed', () => {
    const windows = '    lifecycle:\n      windows:\n        - {start_us: 0, end_us: 1000000, trace_rate: 5}\n        - {start_us: 2000000, end_us: 3000000, trace_rate: 2}\n';
    const spec = loadWorkloadSpec(write('windows-only.yaml', BASE.replace('num_requests: 100\n', '').replace('aggregate_rate: 10', 'aggregate_rate: 0') + windows));
    expect(spec.num_requests).toBeUndefined();
    expect(spec.horizon).toBeUndefined();
    // A second client without windows and rate_fraction 0 sends nothing, so it does not unbound the spec.
    const idle = '  - id: idle\n    rate_fraction: 0\n    arrival: {process: poisson}\n    input_distribution: {type: constant, params: {value: 5}}\n    output_distribution: {type: constant, params: {value: 5}}\n';
    const withWindows = BASE.replace('num_requests: 100\n', '') + windows.replace(/trace_rate: \d/g, 'trace_rate: 1');
    expect(() => loadWorkloadSpec(write('windows-idle.yaml', withWindows + idle))).not.toThrow();
  });

  it('a spec bounded by its windows alone plans at most 10^8 requests', () => {
    // 1000 req/s over a window open 10^6 s: 10^9 requests, refused at the window's end.
    const windows = '    lifecycle:\n      windows:\n        - {start_us: 0, end_us: 1000000000000}\n';
    const path = write('open-long.yaml', BASE.replace('num_requests: 100\n', '').replace('aggregate_rate: 10', 'aggregate_rate: 1000') + windows);
    expect(issuesOf(path)).toEqual([
      {
        file: path,
        line: 18,
        field: 'clients[0].lifecycle.windows[0].end_us',
        expected: 'lifecycle windows of at most 100000000 requests in all when nothing else bounds the workload (rate × open time; or give num_requests or horizon)',
        found: '1.00e+9 requests up to this window',
      },
    ]);
    // The same window at 10 req/s (10^7 requests) is accepted; so is the long one with num_requests.
    expect(() => loadWorkloadSpec(write('open-ok.yaml', BASE.replace('num_requests: 100\n', '') + windows))).not.toThrow();
    expect(() => loadWorkloadSpec(write('open-capped.yaml', BASE.replace('aggregate_rate: 10', 'aggregate_rate: 1000') + windows))).not.toThrow();
  });

  it("a run's horizon bounds a spec with neither num_requests nor horizon", () => {
    const path = write('run-horizon.yaml', BASE.replace('num_requests: 100\n', ''));
    expect(loadWorkloadSpec(path, { runHorizonUs: 5_000_000 }).num_requests).toBeUndefined();
    expect(() => parseWorkloadSpec({ version: 2, aggregate_rate: 1, clients: [{ id: 'a', rate_fraction: 1, arrival: { process: 'poisson' }, input_distribution: { type: 'constant', params: { value: 5 } }, output_distribution: { type: 'constant', params: { value: 5 } } }] }, 'inline', { runHorizonUs: 1e6 })).not.toThrow();
  });

  it('duplicate client ids', () => {
    const second = BASE.slice(BASE.indexOf('  - id: a'));
    const path = write('dup.yaml', BASE + second);
    expect(issuesOf(path)).toEqual([{ file: path, line: 17, field: 'clients[1].id', expected: 'a unique client id', found: '"a" twice' }]);
  });

  it('several problems are reported together', () => {
    const path = write('many.yaml', BASE.replace('aggregate_rate: 10', 'aggregate_rate: -1').replace('process: poisson', 'process: poisson\n      cv: 2'));
    const fields = issuesOf(path).map((i) => i.field);
    expect(fields).toEqual(expect.arrayContaining(['aggregate_rate', 'clients[0].arrival.cv']));
  });

  it('an unreadable file', () => {
    const path = join(dir, 'does-not-exist.yaml');
    expect(issuesOf(path)).toEqual([{ file: path, expected: 'a readable workload spec', found: 'ENOENT' }]);
  });

  it('the error message carries file:line field: expected ..., found ...', () => {
    const path = write('msg.yaml', BASE.replace('aggregate_rate: 10', 'aggregate_rate: -3'));
    expect(() => loadWorkloadSpec(path)).toThrow(`${path}:3 aggregate_rate: expected a number >= 0, found -3`);
  });

  it('parseWorkloadSpec validates objects the same way (no lines to name)', () => {
    expect(() => parseWorkloadSpec({ version: '2', aggregate_rate: 1, num_requests: 1, clients: [] }, 'inline')).toThrow(/inline clients: expected a list with >= 1 item/);
  });
});

describe('parseWorkloadSpecText', () => {
  const textIssues = (text: string): InputIssue[] => {
    try {
      parseWorkloadSpecText(text, 'upload.yaml');
    } catch (e) {
      if (e instanceof WorkloadSpecError) return e.issues;
      throw e;
    }
    throw new Error('expected a WorkloadSpecError');
  };

  it('gives the spec loadWorkloadSpec gives, without a baseDir', () => {
    const { baseDir, ...fromFile } = loadWorkloadSpec(write('text.yaml', BASE));
    expect(baseDir).toBeDefined();
    expect(parseWorkloadSpecText(BASE, 'upload.yaml')).toEqual(fromFile);
  });

  it('names the given file name and the line, for YAML and schema errors alike', () => {
    expect(textIssues('version: "2"\nclients: [a, b\n  seed: 3\n')[0]).toMatchObject({ file: 'upload.yaml', line: 2, expected: expect.stringMatching(/^valid YAML/) });
    expect(textIssues(BASE.replace('rate_fraction: 1', 'rate_fraction: -0.5'))).toEqual([
      { file: 'upload.yaml', line: 7, field: 'clients[0].rate_fraction', expected: 'a number >= 0', found: '-0.5' },
    ]);
  });
});

describe('specFromFlags', () => {
  it('is BLIS`s synthesized spec: one constant-arrival client `distribution`, gaussian lengths with BLIS defaults', () => {
    const s = specFromFlags({});
    expect(s).toMatchObject({ version: '2', seed: 42, category: 'language', aggregate_rate: 1, num_requests: 100 });
    expect(s.clients).toHaveLength(1);
    expect(s.clients[0]).toMatchObject({ id: 'distribution', rate_fraction: 1, arrival: { process: 'constant' } });
    expect(specFromFlags({ arrivalProcess: 'poisson' }).clients[0].arrival).toEqual({ process: 'poisson' });
    expect(s.clients[0].input_distribution).toEqual({ type: 'gaussian', params: { mean: 512, std_dev: 256, min: 2, max: 7000 } });
    expect(s.clients[0].prefix_group).toBeUndefined();
  });

  it('presets supply length defaults; explicit flags override them', () => {
    const chat = specFromFlags({ preset: 'chatbot' });
    const plain = specFromFlags({});
    // BLIS's SynthesizeFromPreset: the preset's lengths in the same one-client spec.
    expect(chat.category).toBe('language');
    expect(chat.clients[0].input_distribution).not.toEqual(plain.clients[0].input_distribution);
    const overridden = specFromFlags({ preset: 'chatbot', promptTokens: 33 });
    expect((overridden.clients[0].input_distribution.params as { mean: number }).mean).toBe(33);
  });

  it('--prefix-tokens becomes a prefix group of that length (BLIS names it `shared`)', () => {
    expect(specFromFlags({ prefixTokens: 64 }).clients[0]).toMatchObject({ prefix_group: 'shared', prefix_length: 64 });
  });
});
