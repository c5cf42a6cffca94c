// Micro-benchmarks of the three hottest primitives, each run in this one process after a
// warm-up pass: the event queue, KV allocate/release with prefix hits, and a weighted routing
// decision with every scorer. Prints one JSON line: [{ name, ops, nsPerOp }].
import { performance } from 'node:perf_hooks';
import { EventQueue } from '../../packages/engine/dist/internal.js';
import { KVCache, chainHash, hashString } from '../../packages/kvcache/dist/index.js';
import { defaultPolicyRegistry, policyContext } from '../../packages/policies/dist/index.js';

const quick = process.argv.includes('--quick');
const scale = quick ? 0.1 : 1;

function measure(name, ops, fn) {
  fn(Math.max(1, Math.floor(ops / 10))); // warm-up: let the JIT settle
  const t0 = performance.now();
  const checksum = fn(ops);
  const ms = performance.now() - t0;
  return { name, ops, nsPerOp: (ms * 1e6) / ops, checksum };
}

// A deterministic LCG so every run pushes the same times.
function lcg(seed) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s;
  };
}

function eventQueue(ops) {
  // Steady state of a simulation: a bounded heap with interleaved push/pop at increasing times.
  const q = new EventQueue(1024);
  const next = lcg(7);
  let now = 0;
  let sum = 0;
  for (let i = 0; i < 512; i++) q.push(next() % 100_000, 64 + (i & 7), 1, i);
  for (let i = 0; i < ops; i++) {
    q.pop();
    now = q.poppedTime;
    sum += q.poppedArg;
    q.push(now + (next() % 100_000), 64 + (i & 7), 1, i);
  }
  return sum;
}

function kvPrefixHits(ops) {
  // 64 requests of 1,024 prompt tokens (64 blocks) over 8 shared 512-token system prompts:
  // each allocation hits 32 cached blocks and fills 32 fresh ones.
  const cache = new KVCache({ totalBlocks: 8192, blockSizeTokens: 16 });
  const hashes = [];
  for (let r = 0; r < 64; r++) {
    const group = hashString(`group-${r % 8}`);
    const own = hashString(`request-${r}`);
    const h = new Float64Array(64);
    let prev = 0x1505;
    for (let b = 0; b < 64; b++) {
      prev = chainHash(prev, b < 32 ? chainHash(group, b) : chainHash(own, b));
      h[b] = prev;
    }
    hashes.push(h);
  }
  let hits = 0;
  for (let i = 0; i < ops; i++) {
    const owner = i & 63;
    if (cache.holds(owner)) cache.release(owner);
    const h = hashes[owner];
    const cached = cache.cachedPrefixBlocks(h);
    hits += cached;
    cache.allocate(owner, 1024 - cached * 16, h, cached, true);
  }
  return hits;
}

function routingDecision(ops) {
  const instances = 16;
  const registry = defaultPolicyRegistry;
  const scorers = ['prefix-affinity', 'precise-prefix-cache', 'no-hit-lru', 'queue-depth', 'kv-utilization', 'load-balance', 'active-requests', 'running-requests', 'load-aware'].map((name) => ({ name, weight: 1 }));
  const policy = registry.createRoutingPolicy('weighted', policyContext({ numInstances: instances, params: { scorers } }));
  const kv = { totalBlocks: 8192, usedBlocks: 4096, freeBlocks: 4096, blockSizeTokens: 16, cachedPrefixBlocks: (h) => Math.min(h.length, 4) };
  const snapshots = Array.from({ length: instances }, (_, i) => ({
    index: i, id: `instance_${i}`, queueDepth: i % 5, batchSize: 100 + i, kvUtilization: (i % 10) / 10,
    freeKVBlocks: 4096, totalKVBlocks: 8192, cacheHitRate: 0.3, inFlightRequests: i, snapshotTimeUs: 0, kv,
  }));
  const tenant = { tenantId: 't', requests: 0, inFlight: 0, recentRate: 0 };
  const state = { nowUs: 0, instances: snapshots, globalInFlight: 100, recentRate: 10, tenant: () => tenant, saturation: 0.5 };
  const blockHashes = new Float64Array(64);
  for (let b = 0; b < 64; b++) blockHashes[b] = chainHash(b === 0 ? 0x1505 : blockHashes[b - 1], b % 40);
  const request = { index: 0, id: '0', arrivalUs: 0, inputTokens: 1024, clientId: 'c', tenantId: 't', sloClass: '', sessionId: '', roundIndex: 0, prefixGroup: '', streaming: false, blockHashes, priority: 0, sloTargetUs: 0 };
  let sum = 0;
  for (let i = 0; i < ops; i++) {
    request.index = i;
    sum += policy.route(request, state).instance;
  }
  return sum;
}

const results = [
  measure('event-queue pop+push (512 pending)', Math.round(2_000_000 * scale), eventQueue),
  measure('kv allocate 64 blocks (32 prefix hits) + release', Math.round(200_000 * scale), kvPrefixHits),
  measure('weighted routing, 9 scorers, 16 instances', Math.round(200_000 * scale), routingDecision),
];
process.stdout.write(`${JSON.stringify(results)}\n`);
