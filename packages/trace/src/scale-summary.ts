import { type Issue, mean } from './summary-format.js';
import type { TraceAnalyzer } from './trace-analyzer.js';

/** Autoscaling happens over seconds: its times are quoted in seconds. */
const sec = (us: number) => (us / 1e6).toFixed(1);

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Outcomes in the order an evaluation passes its gates, then any other name alphabetically. */
const OUTCOME_ORDER = ['scheduled', 'stabilizing', 'cooldown', 'hold'];
/** Lifecycle states in the order a replica goes through them. */
const STATE_ORDER = ['scheduling', 'loading', 'warming-up', 'active', 'draining', 'terminated'];

/** `name n` for each non-zero entry, the known names in `order` first, then the rest sorted. */
function counts(m: ReadonlyMap<string, number>, order: readonly string[]): string {
  const rank = (k: string) => {
    const i = order.indexOf(k);
    return i < 0 ? order.length : i;
  };
  return [...m.entries()]
    .filter(([, n]) => n > 0)
    .sort((x, y) => rank(x[0]) - rank(y[0]) || (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0))
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
}

const sortedKeys = <V>(m: ReadonlyMap<string, V>) => [...m.keys()].sort();

/** `mean X s, max Y s over N` of reaction or cold-start times. */
function times(us: readonly number[]): string {
  let sum = 0;
  let max = 0;
  for (const x of us) {
    sum += x;
    if (x > max) max = x;
  }
  return `mean ${sec(mean(sum, us.length))} s, max ${sec(max)} s`;
}

/**
 * The summary's autoscaling paragraph (empty for a trace without `scale` or `scale_action`
 * records): evaluations and their outcomes, applied actions and oscillations, how long a scaling
 * signal took to become an action, the replica count the records state, and the lifecycle.
 */
export function scaleLines(a: TraceAnalyzer): string[] {
  const s = a.scale;
  if (!s.active) return [];
  const lines = ['', '## Autoscaling'];
  const policies = sortedKeys(s.policies).join(', ');
  const pools = s.evaluationsByPool.size > 1 ? ` (${sortedKeys(s.evaluationsByPool).map((p) => `${p} ${s.evaluationsByPool.get(p)}`).join(', ')})` : '';
  lines.push(`- Evaluations: ${s.evaluations}${policies === '' ? '' : ` by ${policies}`}${pools}; ${counts(s.outcomes, OUTCOME_ORDER)}.`);
  const byPool =
    s.actionsByPool.size > 1
      ? ` (${sortedKeys(s.actionsByPool)
          .map((p) => {
            const [up, down] = s.actionsByPool.get(p)!;
            return `${p} ${up} up ${down} down`;
          })
          .join(', ')})`
      : '';
  const osc = a.anomalies.get('scale_oscillation')!.count;
  const unplaced = s.unplaced > 0 ? `; ${plural(s.unplaced, 'scale-up replica')} unplaced` : '';
  lines.push(
    `- Actions applied: ${s.up} up adding ${plural(s.replicasAdded, 'replica')}, ${s.down} down draining ${s.replicasDrained}${byPool}${unplaced}; ${plural(osc, 'oscillation')} (reversal of the group's previous action within the window).`,
  );
  const reaction: string[] = [];
  if (s.upReactionUs.length > 0)
    reaction.push(`scale-up first ${sec(s.upReactionUs[0])} s, ${times(s.upReactionUs)} over ${plural(s.upReactionUs.length, 'action')}`);
  if (s.downReactionUs.length > 0) reaction.push(`scale-down ${times(s.downReactionUs)} over ${plural(s.downReactionUs.length, 'action')}`);
  if (reaction.length > 0) lines.push(`- Signal to action (first evaluation asking for the direction to the applied action): ${reaction.join('; ')}.`);
  lines.push(`- Replicas (routable plus pending, as the scale records state them): ${s.initialReplicas} at first, peak ${s.peakReplicas} at t=${sec(s.peakUs)} s, ${s.replicas} at the end.`);
  if (s.states.size > 0) {
    const cold = s.coldStartUs.length > 0 ? `; scheduling to active ${times(s.coldStartUs)} over ${plural(s.coldStartUs.length, 'replica')}` : '';
    lines.push(`- Replica lifecycle transitions: ${counts(s.states, STATE_ORDER)}${cold}.`);
  }
  return lines;
}

/** Key issues: scale oscillations, and scale-up replicas that found no node. */
export function scaleIssues(a: TraceAnalyzer): Issue[] {
  const out: Issue[] = [];
  const s = a.scale;
  const osc = a.anomalies.get('scale_oscillation')!;
  if (osc.count > 0) {
    const e = osc.examples[0];
    out.push({
      head: `AUTOSCALING (oscillation): ${plural(osc.count, 'applied scale action')} reversed the group's previous action within the window (of ${s.up + s.down} actions).`,
      details: [`e.g. the ${e.pool ?? 'unnamed'} group at t=${sec(e.ts)} s.`],
    });
  }
  if (s.unplaced > 0) out.push({ head: `AUTOSCALING (capacity): ${plural(s.unplaced, 'scale-up replica')} found no node and no node pool that could grow.`, details: [] });
  return out;
}

export function scaleFocusLines(a: TraceAnalyzer): string[] {
  const out: string[] = [];
  const osc = a.anomalies.get('scale_oscillation')!.count;
  if (osc > 0) out.push(`- Damp the autoscaler (${plural(osc, 'oscillation')}): lengthen the scale-down stabilization window or the cooldown.`);
  if (a.scale.unplaced > 0) out.push(`- Give scale-ups room (${plural(a.scale.unplaced, 'replica')} unplaced): raise the node pools' maxNodes, or lower maxReplicas to what they can hold.`);
  return out;
}
