import type { AutoScaleContext, InstanceSnapshot, ReplicaMetrics, RequestView, RouterState } from '@blis/policies';

// Hand-built views for decision-tree tests: defaults are zeros and empty strings.

export function request(init: Partial<RequestView> = {}): RequestView {
  return {
    index: 0,
    id: '0',
    arrivalUs: 0,
    inputTokens: 100,
    clientId: 'c',
    tenantId: 't',
    sloClass: '',
    sessionId: '',
    roundIndex: 0,
    prefixGroup: '',
    streaming: false,
    blockHashes: [],
    priority: 0,
    sloTargetUs: 0,
    ...init,
  };
}

/** An instance whose cache holds exactly the `cached` block hashes. */
export function instance(position: number, init: Partial<Omit<InstanceSnapshot, 'kv'>> & { cached?: readonly number[] } = {}): InstanceSnapshot {
  const cached = new Set(init.cached ?? []);
  return {
    index: position,
    id: `instance_${position}`,
    queueDepth: 0,
    batchSize: 0,
    kvUtilization: 0,
    freeKVBlocks: 1000,
    totalKVBlocks: 1000,
    cacheHitRate: 0,
    inFlightRequests: 0,
    snapshotTimeUs: 0,
    ...init,
    kv: {
      totalBlocks: 1000,
      usedBlocks: cached.size,
      freeBlocks: 1000 - cached.size,
      blockSizeTokens: 16,
      cachedPrefixBlocks(hashes) {
        let n = 0;
        while (n < hashes.length && cached.has(hashes[n])) n++;
        return n;
      },
    },
  };
}

export function state(instances: readonly InstanceSnapshot[], init: Partial<Omit<RouterState, 'instances' | 'tenant'>> & { tenantInFlight?: number } = {}): RouterState {
  return {
    nowUs: 0,
    globalInFlight: 0,
    recentRate: 0,
    saturation: 0,
    ...init,
    instances,
    tenant: (tenantId) => ({ tenantId, requests: 0, inFlight: init.tenantInFlight ?? 0, recentRate: 0 }),
  };
}

export function replica(position: number, init: Partial<ReplicaMetrics> = {}): ReplicaMetrics {
  return {
    index: position,
    id: `instance_${position}`,
    state: 'active',
    gpuType: '',
    tp: 1,
    costPerHour: 0,
    queueDepth: 0,
    batchSize: 0,
    inFlightRequests: 0,
    kvUtilization: 0,
    totalKvCapacityTokens: 16000,
    kvTokensInUse: 0,
    startUs: 0,
    ...init,
  };
}

export function scaleContext(init: Partial<AutoScaleContext> = {}): AutoScaleContext {
  const replicas = init.replicas ?? [replica(0)];
  return {
    nowUs: 0,
    pool: 'monolithic',
    pendingReplicas: 0,
    pendingKvCapacityTokens: 0,
    drainingReplicas: 0,
    currentReplicas: replicas.length,
    minReplicas: 1,
    maxReplicas: Number.POSITIVE_INFINITY,
    avgQueueDepth: 0,
    avgKvUtilization: 0,
    waitingRequests: 0,
    requestRate: 0,
    sloAttainment: null,
    timeSinceLastScaleUs: Number.POSITIVE_INFINITY,
    history: [],
    ...init,
    replicas,
  };
}
