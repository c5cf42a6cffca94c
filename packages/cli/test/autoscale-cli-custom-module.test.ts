
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_AUTOSCALER_INTERVAL_US } from '../src/config/autoscale-flags.js';
import { customAutoscalerName, customRuntime, preparePolicies } from '../src/policy-modules/index.js';
import { ROOT, blis } from './blis-process.js';
import { RUN, configOf, file } from './autoscale-cli-helpers.js';

// A custom autoscaler module on the command line (`--autoscaler-policy ./module.mjs`).

describe('a custom autoscaler module (--autoscaler-policy ./module.mjs)', () => {
  const good = file(
    'autoscaler.mjs',
    'let built = 0;\nexport default (ctx) => ({ name: "mine", id: ++built, n: ctx.numInstances, evaluate: () => ({ delta: 0, reason: "hold" }) });\n',
  );

  it('is not in the config: the config keeps the default policy and no params', async () => {
    const cfg = await configOf(['--autoscaler-enabled', '--autoscaler-policy', good, '--autoscaler-max', '3']);
    expect(cfg.autoscaling).toEqual({ intervalUs: DEFAULT_AUTOSCALER_INTERVAL_US, maxReplicas: 3 });
  });

  it('reaches the simulation as runtime.autoscaler: one policy per scaling group', async () => {
    const runtime = customRuntime(await preparePolicies({ autoscalerPolicy: good }), { seed: 42, numInstances: 3, blockSizeTokens: 16 });
    expect(runtime.autoscaler).toBeTypeOf('function');
    const prefill = runtime.autoscaler?.('prefill') as unknown as { name: string; id: number; n: number; evaluate: unknown };
    const decode = runtime.autoscaler?.('decode') as unknown as { id: number };
    expect(prefill.name).toBe('mine');
    expect(prefill.n).toBe(3);
    expect(prefill.evaluate).toBeTypeOf('function');
    expect(decode.id).not.toBe(prefill.id);
    expect(customAutoscalerName(runtime)).toBe('mine');
  });

  it('runs, on `blis run` and on `blis replay` (BLIS refuses autoscaling on replay)', async () => {
    const trace = join(ROOT, 'packages', 'cli', 'test', 'fixtures', 'blis-parity', 'azurecode2k.yaml');
    for (const args of [RUN, ['replay', '--quiet', '--trace', trace, '--max-requests', '5']]) {
      const r = await blis([...args, '--autoscaler-enabled', '--autoscaler-policy', good, '--autoscaler-max', '2']);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout).completed_requests).toBe(5);
    }
  });
});
