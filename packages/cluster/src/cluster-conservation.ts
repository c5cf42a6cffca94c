import { type InstanceSimulator, InvariantViolation } from '@blis/engine';
import type { ClusterCounters } from './cluster-setup.js';
import type { PdCoordinator } from './pd/pd-coordinator.js';

/**
 * Conservation (INV-1) over the whole cluster: every injected request is in exactly one outcome
 * bucket or still in the system (`live`: table slots plus P/D parents between their parts), and
 * no more requests wait in queues than are counted as queued (`stillQueued`). Throws
 * InvariantViolation when it fails.
 */
export function checkClusterConservation(c: ClusterCounters, live: number, stillQueued: number, instances: readonly InstanceSimulator[], pd: PdCoordinator | undefined): void {
  let inWaitQueues = 0;
  for (const i of instances) inWaitQueues += i.queueDepth;
  if (inWaitQueues > stillQueued) throw new InvariantViolation('INV-1', `${inWaitQueues} requests in wait queues but only ${stillQueued} live requests are queued`);
  const rhs = c.completed + c.dropped + c.rejected + c.timedOut + c.shed + c.expired + c.evicted + c.drainedDropped + c.encodeRejected + live;
  if (rhs !== c.injected)
    throw new InvariantViolation(
      'INV-1',
      `injected ${c.injected} != completed ${c.completed} + dropped ${c.dropped} + rejected ${c.rejected} + timed out ${c.timedOut} + shed ${c.shed} + expired ${c.expired} + evicted ${c.evicted} + drained ${c.drainedDropped} + encode-rejected ${c.encodeRejected} + still in the system ${live}`,
    );
  const enc = pd?.encode;
  if (enc !== undefined && enc.stats.rejections !== c.encodeRejected)
    throw new InvariantViolation('INV-1', `the encode stage rejected ${enc.stats.rejections} requests, the cluster counts ${c.encodeRejected}`);
  pd?.checkInvariants();
}
