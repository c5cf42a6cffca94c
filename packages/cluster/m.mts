import { simulate } from '@blis/cluster';
const n = Number(process.env.N ?? 20000);
const t=Date.now();
const r = await simulate({ model: 'meta-llama/llama-3.1-8b-instruct', seed: 42, numInstances: 16, latencyModel: 'blackbox', snapshotRefreshIntervalUs: 0, cacheSignalDelayUs: 0, workload: { kind: 'synthetic', numRequests: n, rate: 160, timeoutUs: 0 }, routing: { policy: 'weighted', params: {}, scorers: [{name:'prefix-affinity',weight:3},{name:'queue-depth',weight:2},{name:'kv-utilization',weight:2}] } } as any);
const G=globalThis as any; console.log(G.__v,G.__sk,G.__w,G.__vt,G.__vf, Date.now()-t, 'ms', r.completed_requests, r.cache_hit_rate, r.ttft_ms?.mean ?? '');
