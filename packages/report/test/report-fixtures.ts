import { type SimulationConfigInput, type SimulationResult, simulate } from '@blis/cluster';
import type { ReportData } from '../src/index.js';

/** A small synthetic run with per-request records (what `--results-path` writes). */
export function run(extra: Partial<SimulationConfigInput> = {}, numRequests = 300): SimulationResult {
  return simulate({ seed: 11, numInstances: 4, includeRequests: true, workload: { kind: 'synthetic', rate: 20, numRequests }, ...extra });
}

/**
 * The fields issue 20's first slice adds to results (`timeseries`, and `slo_class` / `tenant`
 * on each request), hand-made over a real result until the simulator writes them.
 */
export function withIssue20Fields(result: SimulationResult): SimulationResult {
  const requests = (result.requests ?? []).map((r, i) => ({ ...r, slo_class: ['critical', 'batch', ''][i % 3], tenant: i % 2 === 0 ? 'alpha' : 'beta' }));
  const ids = result.instances.map((b) => b.instance_id);
  const timeseries = {
    interval_ms: 1000,
    t_ms: [0, 1000, 2000, 3000],
    instances: ids.map((id, k) => ({
      instance_id: id,
      queue_depth: [k === 3 ? null : 0, 3, 1, 0],
      running: [k === 3 ? null : 0, 8, 8, 2],
      kv_utilization: [0, 0.4, 0.5, 0.1],
      cache_hit_rate: [null, 0.3, 0.25, null],
      completed: [0, 12, 15, 3],
    })),
    cluster: { queue_depth: [0, 9, 3, 0], running: [0, 24, 24, 6], completed: [0, 36, 45, 9], replicas: [3, 4, 4, 2], routable: [3, 3, 4, 2], cost_usd: [0, 0.01, 0.02, 0.025] },
  };
  return { ...result, requests, timeseries };
}

/** The parts of a report HTML file a test looks at. */
export interface ParsedReport {
  sections: { id: string; body: string }[];
  data: ReportData;
  urls: string[];
}

export function parseReport(html: string): ParsedReport {
  const sections = [...html.matchAll(/<section id="([^"]+)">([\s\S]*?)<\/section>/g)].map((m) => ({ id: m[1], body: m[2] }));
  const json = /<script type="application\/json" id="blis-report-data">([\s\S]*?)<\/script>/.exec(html);
  if (!json) throw new Error('no blis-report-data script');
  const urls = [...html.matchAll(/\s(?:src|href|xlink:href)\s*=\s*"([^"]*)"/g)].map((m) => m[1]).filter((u) => /^(https?:)?\/\//i.test(u));
  return { sections, data: JSON.parse(json[1]) as ReportData, urls };
}
