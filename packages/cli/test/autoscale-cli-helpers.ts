import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SimulationConfigInput } from '@blis/cluster';
import { type AutoScaleFactory, listPolicies, registerAutoscaler } from '@blis/policies';
import { vi } from 'vitest';
import { buildConfig } from '../src/config/build-config.js';
import { preparePolicies } from '../src/policy-modules/index.js';
import { parseFlags } from '../src/flags/flags.js';
import { buildProgram } from '../src/main.js';
import { SIMULATION_FLAGS } from '../src/flags/run-flags.js';
import { ROOT } from './blis-process.js';

// What the autoscale-cli-*.test.ts files share: a temporary folder for their files, BLIS's
// phase2-autoscaler.yaml and the config it makes, the config a command line builds (in-process),
// and an autoscaler registered in-process for the cases that name one.

export const tmp = mkdtempSync(join(tmpdir(), 'blis-autoscale-'));
export const RUN = ['run', '--num-requests', '5', '--quiet'];
export const PHASE2 = join(ROOT, 'examples', 'workloads', 'phase2-autoscaler.yaml');
export const file = (name: string, text: string) => {
  const p = join(tmp, name);
  writeFileSync(p, text);
  return p;
};

// The autoscalers a `blis` process knows (before the in-process registration below).
export const BUILTIN_AUTOSCALERS = listPolicies().autoscaler;
// A registered autoscaler for the in-process cases that name one, independent of the built-in ones.
const hold: AutoScaleFactory = () => ({ name: 'test-hold', evaluate: () => ({ delta: 0, reason: 'hold' }) });
registerAutoscaler('test-hold', hold, { replace: true });

/** The config `blis <command> <args>` would simulate, built in-process through the real argument parser. */
export async function configOf(args: readonly string[], quiet = true): Promise<SimulationConfigInput> {
  const program = buildProgram();
  const run = program.commands.find((c) => c.name() === 'run');
  if (run === undefined) throw new Error('no run command');
  let cfg: SimulationConfigInput | undefined;
  run.action(async (opts: Record<string, unknown>) => {
    const flags = parseFlags(SIMULATION_FLAGS, opts);
    cfg = buildConfig(flags, undefined, await preparePolicies(flags));
  });
  await program.parseAsync(['run', ...(quiet ? ['--quiet'] : []), ...args], { from: 'user' });
  if (cfg === undefined) throw new Error('run action not called');
  return cfg;
}

/** stderr written while `f` runs. */
export async function stderrOf(f: () => Promise<unknown>): Promise<string> {
  let text = '';
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    text += String(chunk);
    return true;
  });
  try {
    await f();
  } finally {
    spy.mockRestore();
  }
  return text;
}

export const PHASE2_CONFIG = {
  autoscaling: {
    intervalUs: 30_000_000,
    policy: 'wva-saturation',
    params: { kv_cache_threshold: 0.8, scale_up_threshold: 0.8, scale_down_boundary: 0.4, avg_input_tokens: 512 },
    scaleUpStabilizationWindowUs: 240_000_000,
    scaleDownStabilizationWindowUs: 240_000_000,
    scrapeDelay: { meanUs: 0, stddevUs: 0 },
  },
  nodePools: [
    {
      name: 'h100-tp1',
      gpuType: 'H100',
      gpusPerNode: 1,
      gpuMemoryGib: 80,
      initialNodes: 5,
      minNodes: 0,
      maxNodes: 5,
      costPerHour: 0,
      provisioningDelay: { meanUs: 0, stddevUs: 0 },
    },
  ],
  lifecycle: { loadingDelay: { meanUs: 240_000_000, stddevUs: 30_000_000 }, warmStartInitialInstances: true },
};
