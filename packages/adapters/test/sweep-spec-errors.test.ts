import { mkdtempSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JournalWriter, SWEEP_JOURNAL_MAX_BYTES, readJournal } from '../src/sweep/sweep-journal.js';
import { SweepSpecError } from '../src/sweep/sweep-spec-error.js';
import { loadSweepSpec } from '../src/sweep/sweep-spec-load.js';
import { planSweep } from '../src/sweep/sweep-plan.js';

const tmp = mkdtempSync(join(tmpdir(), 'blis-sweep-errors-'));
let n = 0;

/** The issues a sweep file raises, as `where: expected ..., found ...` lines. */
function problems(text: string): string[] {
  const file = join(tmp, `s${n++}.yaml`);
  writeFileSync(file, text);
  try {
    planSweep(loadSweepSpec(file));
  } catch (e) {
    if (!(e instanceof SweepSpecError)) throw e;
    return e.message.split('\n').map((l) => l.replace(file, 'FILE'));
  }
  throw new Error('the spec was accepted');
}

const BASE = 'base:\n  latencyModel: blackbox\n  workload: {kind: synthetic, numRequests: 20}\n';

describe('bad sweep specs', () => {
  it('names the line of a YAML syntax error', () => {
    const [p] = problems(`${BASE}parameters:\n  numInstances: [1, 2\n`);
    expect(p).toMatch(/^FILE:\d+: expected valid YAML/);
  });

  it('names an unknown top-level field with its line', () => {
    expect(problems(`${BASE}parameters:\n  numInstances: [1]\nmetric: [ttft_p99_ms]\n`)).toEqual([expect.stringMatching(/^FILE:6 metric: expected a known field .*found unknown field "metric"/)]);
  });

  it('names an unknown parameter path with its line and the candidate', () => {
    const p = problems(`${BASE}parameters:\n  numInstance: [1, 2]\n`);
    expect(p[0]).toMatch(/^FILE:5 parameters\.numInstance, candidate 0 \(numInstance=1\): expected a known field of the config .*found unknown field "numInstance"/);
  });

  it('names a bad value with the parameter and the candidate', () => {
    const p = problems(`${BASE}parameters:\n  numInstances: [2, -1]\n`);
    expect(p).toEqual([expect.stringMatching(/^FILE:5 parameters\.numInstances, candidate 1 \(numInstances=-1\): expected .*found -1/)]);
  });

  it('refuses what only the simulator checks (a zero scorer weight) before anything runs', () => {
    const p = problems(`base:\n  latencyModel: blackbox\n  routing: {policy: weighted}\n  workload: {kind: synthetic, numRequests: 20}\nparameters:\n  routing.scorers.queue-depth: [1, 0]\n`);
    expect(p).toEqual([expect.stringMatching(/^candidate 1 \(routing\.scorers\.queue-depth=0\): expected a config the simulator accepts, found .*weight/)]);
  });

  it('refuses scorer weights when the policy is not weighted', () => {
    const p = problems(`${BASE}parameters:\n  routing.scorers.queue-depth: [1]\n`);
    expect(p[0]).toMatch(/candidate 0 .*expected routing\.policy weighted/);
  });

  it('names an unknown metric with its line', () => {
    const p = problems(`${BASE}parameters:\n  numInstances: [1]\nmetrics: [ttft_p99_ms, ttft_p99]\n`);
    expect(p).toEqual(['FILE:6 metrics[1]: expected one of ttft_p99_ms, per_slo_class.<class>.ttft_p99_ms, per_tenant.<tenant>.ttft_p99_ms, found "ttft_p99"']);
  });

  it('names a bad base field with its line', () => {
    expect(problems(`base:\n  numInstances: 0\nparameters:\n  seed: [1]\n`)[0]).toMatch(/^FILE:2 base\.numInstances: expected/);
  });

  it('refuses a seed parameter, a range without step in a grid, and repeated seeds', () => {
    expect(problems(`${BASE}parameters:\n  seed: [1, 2]\n`)[0]).toMatch(/seeds:/);
    expect(problems(`${BASE}parameters:\n  numInstances: {min: 1, max: 4}\n`)[0]).toMatch(/^FILE:5 parameters\.numInstances: expected .*step/);
    expect(problems(`${BASE}seeds: [1, 1]\nparameters:\n  numInstances: [1]\n`)[0]).toMatch(/^FILE:4 seeds: expected distinct seeds/);
  });

  it('refuses workload.rate on a spec workload (aggregate_rate is its field)', () => {
    writeFileSync(join(tmp, 'w.yaml'), 'version: "2"\naggregate_rate: 10\nnum_requests: 5\nclients:\n  - id: a\n    rate_fraction: 1\n    input_distribution: {type: constant, params: {value: 8}}\n    output_distribution: {type: constant, params: {value: 8}}\n');
    expect(problems(`base:\n  workload: {kind: spec, path: w.yaml}\nparameters:\n  workload.rate: [1]\n`)[0]).toMatch(/expected workload\.aggregate_rate/);
  });
});

describe('results journal', () => {
  it('refuses the journal of another spec, reads its own, skips a cut last line', () => {
    const path = join(tmp, 'r.csv.partial');
    const w = new JournalWriter(path, 'aaa', []);
    w.append({ candidate: 0, seed: 1, metrics: { x: 1 } });
    w.close(false);
    writeFileSync(path, `${readFileSync(path, 'utf8')}{"candidate":1,"se`);
    expect([...readJournal(path, 'aaa', false).keys()]).toEqual(['0/1']);
    expect(() => readJournal(path, 'bbb', false)).toThrow(/--restart/);
    expect(readJournal(path, 'bbb', true).size).toBe(0);
  });

  it('resumes past NUL bytes a crash left after the last line', () => {
    const path = join(tmp, 'nul.csv.partial');
    const w = new JournalWriter(path, 'aaa', []);
    w.append({ candidate: 0, seed: 1, metrics: { x: 1 } });
    w.close(false);
    writeFileSync(path, `${readFileSync(path, 'utf8')}{"candidate":1${'\0'.repeat(5000)}`);
    expect([...readJournal(path, 'aaa', false).keys()]).toEqual(['0/1']);
  });

  it('refuses binary data and an oversized journal, naming the file, before parsing it', () => {
    const bin = join(tmp, 'bin.csv.partial');
    writeFileSync(bin, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13, 0x49, 0x48]));
    expect(() => readJournal(bin, 'aaa', false)).toThrow(`${bin}: expected a blis-sweep-journal/1 journal (text); rerun with --restart to replace it, found binary data`);
    const big = join(tmp, 'big.csv.partial');
    writeFileSync(big, '');
    truncateSync(big, SWEEP_JOURNAL_MAX_BYTES + 1);
    expect(() => readJournal(big, 'aaa', false)).toThrow(`${big}: expected a blis-sweep-journal/1 journal of at most 64 MiB; rerun with --restart to replace it, found 64 MiB (67108865 bytes)`);
    expect(readJournal(big, 'aaa', true).size).toBe(0);
  });
});
