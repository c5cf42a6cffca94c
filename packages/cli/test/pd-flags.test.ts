import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SimulationConfigInput } from '@blis/cluster';
import { describe, expect, it } from 'vitest';
import type { core } from 'zod';
import { buildConfig } from '../src/config/build-config.js';
import { customRuntime, preparePolicies } from '../src/policy-modules/index.js';
import { parseFlags } from '../src/flags/flags.js';
import { buildProgram } from '../src/main.js';
import { pdUsageIssues } from '../src/config/pd-flags.js';
import { SIMULATION_FLAGS } from '../src/flags/run-flags.js';
import { blis, rejects } from './blis-process.js';

// The prefill/decode (P/D) flags of `blis run` / `blis replay` (BLIS's names, units and
// defaults, and the plan's aliases) as the config's `pd` block, and their rejections: exit 2,
// nothing on stdout, one line naming the flag. No case here runs a P/D simulation.

const tmp = mkdtempSync(join(tmpdir(), 'blis-pd-flags-'));
const RUN = ['run', '--num-requests', '5', '--quiet'];
const TRACE = join(import.meta.dirname, 'fixtures', 'blis-parity', 'azurecode2k.yaml');
const PD_2_2 = ['--prefill-instances', '2', '--decode-instances', '2', '--num-instances', '4'];
const NEED_INSTANCES = 'expected P/D instances (--prefill-instances and --decode-instances, or --prefill-decode-instances), found none';

/** The config `blis run <args>` would simulate, built in-process through the real argument parser. */
async function configOf(args: readonly string[]): Promise<SimulationConfigInput> {
  const program = buildProgram();
  const run = program.commands.find((c) => c.name() === 'run');
  if (run === undefined) throw new Error('no run command');
  let cfg: SimulationConfigInput | undefined;
  run.action(async (opts: Record<string, unknown>) => {
    const flags = parseFlags(SIMULATION_FLAGS, opts);
    cfg = buildConfig(flags, undefined, await preparePolicies(flags));
  });
  await program.parseAsync(['run', '--quiet', ...args], { from: 'user' });
  if (cfg === undefined) throw new Error('run action not called');
  return cfg;
}

describe('P/D flags build config.pd', () => {
  it('maps every flag to its field, in BLIS units', async () => {
    const cfg = await configOf([
      ...['--num-instances', '8', '--prefill-instances', '2', '--decode-instances', '3', '--prefill-decode-instances', '1'],
      ...['--pd-decider', 'prefix-threshold', '--pd-prefix-threshold', '32'],
      ...['--pd-transfer-bandwidth', '50', '--pd-transfer-base-latency', '0.1', '--pd-transfer-contention'],
      ...['--prefill-routing-scorers', 'queue-depth:1', '--decode-routing-scorers', 'precise-prefix-cache:2,kv-utilization:1'],
      ...['--prefill-tp', '2', '--decode-tp', '1', '--prefill-hardware', 'H100', '--decode-hardware', 'A100-80'],
      ...['--prefill-latency-model', 'roofline', '--decode-latency-model', 'blackbox', '--prefill-max-model-len', '8192', '--decode-max-model-len', '16384'],
    ]);
    expect(cfg.numInstances).toBe(8);
    expect(cfg.pd).toEqual({
      prefillInstances: 2,
      decodeInstances: 3,
      prefillDecodeInstances: 1,
      decider: 'prefix-threshold',
      prefixThreshold: 32,
      transferBandwidthGBps: 50,
      transferBaseLatencyMs: 0.1,
      transferContention: true,
      prefillRoutingScorers: [{ name: 'queue-depth', weight: 1 }],
      decodeRoutingScorers: [
        { name: 'precise-prefix-cache', weight: 2 },
        { name: 'kv-utilization', weight: 1 },
      ],
      prefill: { tp: 2, hardware: 'H100', latencyModel: 'roofline', maxModelLen: 8192 },
      decode: { tp: 1, hardware: 'A100-80', latencyModel: 'blackbox', maxModelLen: 16384 },
    });
  });

  it('sets only what was given; BLIS\'s 0 for a pool\'s TP or context window means unset', async () => {
    const cfg = await configOf([...PD_2_2, '--prefill-tp', '0', '--decode-max-model-len', '0']);
    expect(cfg.pd).toEqual({ prefillInstances: 2, decodeInstances: 2 });
  });

  it('the E/P/D flags: --encode-instances and --encode-decider', async () => {
    const cfg = await configOf([...PD_2_2, '--num-instances', '5', '--encode-instances', '1', '--encode-decider', 'multimodal']);
    expect(cfg.pd).toEqual({ prefillInstances: 2, decodeInstances: 2, encodeInstances: 1, encodeDecider: 'multimodal' });
  });

  it('encode instances with the never decider: BLIS\'s warning on stderr (not with --quiet), and the run goes on', async () => {
    const args = ['run', '--latency-model', 'blackbox', '--num-requests', '5', '--num-instances', '3', '--prefill-instances', '1', '--decode-instances', '1', '--encode-instances', '1'];
    const loud = await blis(args);
    expect(loud.code, loud.stderr).toBe(0);
    expect(loud.stderr).toContain('blis: warning: --encode-instances 1 has no effect with --encode-decider never; set --encode-decider multimodal or always to use the encode pool\n');
    const quiet = await blis([...args, '--quiet']);
    expect(quiet.stderr).not.toContain('warning');
    expect(JSON.parse(quiet.stdout).pd.encode).toEqual({ decider: 'never', encoded_requests: 0, encode_routing_rejections: 0, encode_distribution: { instance_2: 0 } });
  });

  it('no P/D flag: no pd block', async () => {
    expect((await configOf([])).pd).toBeUndefined();
    expect((await configOf(['--architecture', 'monolithic'])).pd).toBeUndefined();
  });

  it('the plan\'s spelling (--architecture pd, replicas, 1ms, 10GB/s) is BLIS\'s', async () => {
    const plan = await configOf(['--architecture', 'pd', '--prefill-replicas', '2', '--decode-replicas', '2', '--pd-transfer-latency', '1ms', '--pd-transfer-bandwidth', '10GB/s']);
    const blisFlags = await configOf([...PD_2_2, '--pd-transfer-base-latency', '1', '--pd-transfer-bandwidth', '10']);
    expect(plan.pd).toEqual({ prefillInstances: 2, decodeInstances: 2, transferBaseLatencyMs: 1, transferBandwidthGBps: 10 });
    expect(plan.pd).toEqual(blisFlags.pd);
    // --architecture pd sizes the cluster when --num-instances is not given.
    expect(plan.numInstances).toBe(4);
  });

  it('--architecture pd counts shared instances and keeps an explicit --num-instances', async () => {
    expect((await configOf(['--architecture', 'pd', '--prefill-decode-instances', '3'])).numInstances).toBe(3);
    expect((await configOf(['--architecture', 'pd', '--prefill-replicas', '1', '--decode-replicas', '1', '--prefill-decode-instances', '1', '--num-instances', '6'])).numInstances).toBe(6);
  });

  it.each([
    ['500us', 0.5],
    ['2s', 2000],
    ['0.05', 0.05],
    ['0', 0],
    ['1.5 ms', 1.5],
  ])('--pd-transfer-latency %s is %f ms', async (text, ms) => {
    expect((await configOf([...PD_2_2, '--pd-transfer-latency', text])).pd?.transferBaseLatencyMs).toBe(ms);
  });

  it('a custom decider module goes to runtime.decider, not to config.pd.decider', async () => {
    const path = join(tmp, 'decider.mjs');
    writeFileSync(path, "export default () => ({ name: 'every-other', decide: () => ({ disaggregate: false }) });\n");
    const cfg = await configOf([...PD_2_2, '--pd-decider', path]);
    expect(cfg.pd).toEqual({ prefillInstances: 2, decodeInstances: 2 });
    const runtime = customRuntime(await preparePolicies({ pdDecider: path }), { seed: 42, numInstances: 4, blockSizeTokens: 16 });
    expect(runtime.decider?.name).toBe('every-other');
  });

  it('a config issue that reaches the error reporter still names the flag', () => {
    const issue = (i: object) => i as core.$ZodIssue;
    expect(pdUsageIssues([issue({ code: 'custom', path: ['pd', 'transferContention'], message: 'P/D instances (prefillInstances and decodeInstances, or prefillDecodeInstances) for transferContention, found none' })])).toEqual([
      { where: '--pd-transfer-contention', expected: 'P/D instances (--prefill-instances and --decode-instances, or --prefill-decode-instances)', found: 'none' },
    ]);
    // zod's own wording never reaches the user: the translator says what was expected.
    const tooSmall = { code: 'too_small', origin: 'number', minimum: 0, inclusive: false, message: 'Too small: expected number to be >0' };
    expect(pdUsageIssues([issue({ ...tooSmall, path: ['pd', 'decode', 'tp'] })], { decode: { tp: 0 } })).toEqual([{ where: '--decode-tp', expected: 'a number > 0', found: '0' }]);
    expect(pdUsageIssues([issue({ ...tooSmall, path: ['pd', 'decode', 'weights', 1] })], { decode: { weights: [1, 0] } } as never)).toEqual([
      { where: 'config pd.decode.weights[1]', expected: 'a number > 0', found: '0' },
    ]);
    expect(pdUsageIssues([issue({ code: 'custom', path: ['routing'], message: 'x' })])).toEqual([]);
  });
});

describe.concurrent('bad P/D flags exit 2 naming the flag', () => {
  const badDecider = join(tmp, 'bad-decider.mjs');
  writeFileSync(badDecider, "export default () => ({ name: 'no-decide' });\n");

  it.for<[string, readonly string[], ...(string | RegExp)[]]>([
    [
      'prefill instances without decode instances or shared ones',
      ['--prefill-instances', '2', '--num-instances', '4'],
      '--decode-instances: expected both --prefill-instances > 0 and --decode-instances > 0 when --prefill-decode-instances is 0, found --prefill-instances 2 and --decode-instances 0',
    ],
    [
      'more P/D instances than instances',
      ['--prefill-instances', '2', '--decode-instances', '2', '--prefill-decode-instances', '1', '--num-instances', '4'],
      '--prefill-instances: expected --prefill-instances + --decode-instances + --prefill-decode-instances <= --num-instances (4), found 2 + 2 + 1 = 5',
    ],
    [
      '--architecture pd with a --num-instances too small',
      ['--architecture', 'pd', '--prefill-replicas', '2', '--decode-replicas', '2', '--num-instances', '3'],
      '--prefill-instances: expected --prefill-instances + --decode-instances + --prefill-decode-instances <= --num-instances (3), found 2 + 2 + 0 = 4',
    ],
    ['a negative count', ['--prefill-instances', '-1'], '--prefill-instances: expected a non-negative integer, found "-1"'],
    ['a zero bandwidth', [...PD_2_2, '--pd-transfer-bandwidth', '0'], '--pd-transfer-bandwidth: expected a positive number of GB/s (e.g. 25 or "10GB/s"), found "0"'],
    ['a negative bandwidth', [...PD_2_2, '--pd-transfer-bandwidth', '-5'], '--pd-transfer-bandwidth: expected a positive number of GB/s (e.g. 25 or "10GB/s"), found "-5"'],
    ['a bandwidth in another unit', [...PD_2_2, '--pd-transfer-bandwidth', '10Gb/s'], '--pd-transfer-bandwidth: expected a positive number of GB/s (e.g. 25 or "10GB/s"), found "10Gb/s"'],
    [
      'a negative base latency',
      [...PD_2_2, '--pd-transfer-base-latency', '-1'],
      '--pd-transfer-base-latency: expected a non-negative number of ms (e.g. 0.05), or a duration with its unit ("1ms", "500us", "2s"), found "-1"',
    ],
    [
      'a transfer latency in parsecs',
      [...PD_2_2, '--pd-transfer-latency', '5parsecs'],
      '--pd-transfer-base-latency: expected a non-negative number of ms (e.g. 0.05), or a duration with its unit ("1ms", "500us", "2s"), found "5parsecs"',
    ],
    ['both spellings of the base latency', [...PD_2_2, '--pd-transfer-latency', '1ms', '--pd-transfer-base-latency', '1'], '--pd-transfer-base-latency: expected one of --pd-transfer-base-latency or --pd-transfer-latency, found both'],
    ['an unknown decider', [...PD_2_2, '--pd-decider', 'bogus'], '--pd-decider: expected one of always, never, prefix-threshold, or an ES module path (./decider.mjs), found "bogus"'],
    ['--pd-transfer-contention without P/D instances', ['--pd-transfer-contention'], `--pd-transfer-contention: ${NEED_INSTANCES}`],
    ['--pd-decider always without P/D instances', ['--pd-decider', 'always'], `--pd-decider: ${NEED_INSTANCES}`],
    ['a pool override without P/D instances', ['--prefill-tp', '2', '--decode-hardware', 'H100'], `--prefill-tp: ${NEED_INSTANCES}`, `--decode-hardware: ${NEED_INSTANCES}`],
    ['a custom decider without P/D instances', ['--pd-decider', badDecider], `--pd-decider: ${NEED_INSTANCES}`],
    [
      '--architecture pd without replica flags',
      ['--architecture', 'pd'],
      '--architecture: expected P/D instances beside pd: --prefill-replicas and --decode-replicas (--prefill-instances, --decode-instances), or --prefill-decode-instances, found none',
    ],
    ['--architecture monolithic with replica flags', ['--architecture', 'monolithic', '--prefill-replicas', '2', '--decode-replicas', '2', '--num-instances', '4'], '--architecture: expected pd beside P/D instances (monolithic has none), found monolithic with --prefill-instances 2, --decode-instances 2'],
    ['an unknown architecture', ['--architecture', 'disaggregated'], '--architecture: expected one of monolithic, pd, found "disaggregated"'],
    ['an unknown pool scorer', [...PD_2_2, '--decode-routing-scorers', 'queue-depth:1,nope:2'], /^blis: --decode-routing-scorers: expected "name:weight,\.\.\." pairs over .*queue-depth.*, found unknown scorer "nope"$/],
    ['a pool TP that does not divide the heads', [...PD_2_2, '--prefill-tp', '3'], '--prefill-tp: expected a divisor of the 32 attention heads of meta-llama/llama-3.1-8b-instruct (1, 2, 4, 8, 16, 32), found 3'],
    ['an unknown pool GPU', [...PD_2_2, '--decode-hardware', 'Z80'], /^blis: --decode-hardware: expected one of .*H100.* \(or a GPU from --hardware-config\), found "Z80"$/],
    ['an unknown pool latency model', [...PD_2_2, '--prefill-latency-model', 'vibes'], '--prefill-latency-model: expected one of blackbox, roofline, trained-physics, found "vibes"'],
    ['a custom decider module that does not exist', [...PD_2_2, '--pd-decider', './no-such-decider.mjs'], '--pd-decider: expected a policy name or an existing ES module path, found "./no-such-decider.mjs"'],
    ['a custom decider without decide()', [...PD_2_2, '--pd-decider', badDecider], `--pd-decider ${badDecider}: expected a decider policy object with a string "name" and a decide() method, found ["name"]`],
  ])('%s', ([, flags, ...lines], { expect }) => rejects(expect, [...RUN, ...flags], ...lines));

  it('on `blis replay` too', ({ expect }) => rejects(expect, ['replay', '--trace', TRACE, '--quiet', '--pd-transfer-contention'], `--pd-transfer-contention: ${NEED_INSTANCES}`));
});
