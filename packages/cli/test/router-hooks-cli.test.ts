import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blis } from './blis-process.js';

// A custom router loaded by `blis run --routing-policy ./x.mjs` that rejects every 3rd request,
// hints priorities, listens to events and reports metrics: the result JSON counts the rejections
// and carries its metrics under `custom_metrics`, stderr has a line for them.

const tmp = mkdtempSync(join(tmpdir(), 'blis-router-hooks-'));
const ROUTER = join(tmp, 'every-third.mjs');
writeFileSync(
  ROUTER,
  `export default (ctx) => {
  let n = 0;
  const heard = { arrival: 0, routed: 0, completed: 0, dropped: 0 };
  return {
    name: 'every-third',
    route(req, state) {
      n++;
      if (n % 3 === 0) return { instance: 0, reason: 'third', reject: true };
      return { instance: n % state.instances.length, reason: 'rr', priority: n };
    },
    onEvent(e) { heard[e.kind]++; },
    metrics: () => ({ decisions: n, ...heard }),
  };
};
`,
);

describe('blis run with a router that uses the hooks', () => {
  it('rejections counted, custom_metrics in the JSON and a stderr line', async () => {
    const r = await blis(['run', '--num-requests', '9', '--num-instances', '2', '--routing-policy', ROUTER]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.injected_requests).toBe(9);
    expect(out.rejected_requests).toBe(3);
    expect(out.completed_requests).toBe(6);
    expect(out.custom_metrics).toEqual({ 'every-third': { decisions: 9, arrival: 9, routed: 6, completed: 6, dropped: 3 } });
    expect(r.stderr).toContain('blis: custom metrics: every-third: decisions 9, arrival 9, routed 6, completed 6, dropped 3\n');
  });

  it('a built-in run has no custom_metrics', async () => {
    const r = await blis(['run', '--num-requests', '3', '--quiet']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).not.toHaveProperty('custom_metrics');
  });
});
