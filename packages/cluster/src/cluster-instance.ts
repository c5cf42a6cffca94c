import { type InstanceConfig, InstanceSimulator } from '@blis/engine';
import type { PoolType } from '@blis/policies';
import type { ClusterParts } from './cluster-hosts.js';
import { LiveSnapshot } from './instance-snapshot.js';

/**
 * Builds an instance of the cluster and what the router keeps for it (its live snapshot, its
 * routed count): its completions and drops go to the cluster's exits, its scheduling and KV
 * tier events to the observer, when there is one.
 */
export function addClusterInstance(parts: ClusterParts, cfg: InstanceConfig, pool: PoolType): void {
  const { sim, setup, table, exits } = parts;
  const obs = setup.observer;
  const i = cfg.index;
  const inst = new InstanceSimulator(cfg, parts.events, (slot: number) => table.find(slot), {
    onCompleted: (req, now) => exits.onCompleted(req, now),
    onDropped: (req, now) => exits.onLeft(req, now, 'dropped'),
    onTimedOut: (req, now) => exits.onLeft(req, now, 'timed_out'),
    onQueued: obs?.onQueued?.bind(obs),
    onScheduled: obs?.onScheduled?.bind(obs),
    onPreempted: obs?.onPreempted?.bind(obs),
    onStep: obs?.onStep?.bind(obs),
    quietBoundUs: () => parts.quietBoundUs(i),
  });
  const onKv = obs?.onKvTransfer;
  if (onKv !== undefined)
    inst.kvTiers?.watch({
      onReload: (hash, now) => onKv.call(obs, hash, 'reload', now, i),
      onCpuEvict: (hash, storedAt, now) => onKv.call(obs, hash, 'cpu_evict', now, i, storedAt),
      onPromotionRefused: (hash, now) => onKv.call(obs, hash, 'promotion_refused', now, i),
    });
  const delayed = (setup.cacheSignalDelayUs ?? 0) > 0;
  sim.instances.push(inst);
  sim.snapshots.push(new LiveSnapshot(inst, delayed ? inst.kv.openPrefixSignal() : undefined, pool));
  sim.routedTo.push(0);
}
