import type { InstanceStateRecord, ScaleActionRecord, ScaleRecord } from './records.js';

/** Per scaling group: what the reaction times and the replica count need. */
interface GroupState {
  /** Replicas (routable plus pending) as the group's latest scale or scale_action record says. */
  replicas: number;
  /** Start of the current run of evaluations asking for each direction (index 0 down, 1 up). */
  readonly signalSince: [number | undefined, number | undefined];
  /** Scheduled evaluations awaiting their action, in order: direction and when its signal began. */
  readonly scheduled: { dir: number; since: number }[];
}

const dirIndex = (dir: number) => (dir > 0 ? 1 : 0);

/**
 * The autoscaling part of a trace: evaluations and their outcomes, applied actions, how long a
 * scaling signal took to become an action, the replica count the records state, and the replica
 * lifecycle. Like the rest of the analyzer it reads records only, so a trace file gives the same
 * figures as the live run. Memory: a few numbers per scaling group, one reaction time per
 * applied action, and the replicas still on their way to `active`.
 */
export class ScaleAnalysis {
  evaluations = 0;
  /** Evaluations per outcome (`hold`, `stabilizing`, `cooldown`, `scheduled`), per group and per policy. */
  readonly outcomes = new Map<string, number>();
  readonly evaluationsByPool = new Map<string, number>();
  readonly policies = new Map<string, number>();

  /** Applied actions by direction, the replicas they name, and scale-up replicas left unplaced. */
  up = 0;
  down = 0;
  replicasAdded = 0;
  replicasDrained = 0;
  unplaced = 0;
  /** Applied actions per group: `[up, down]`. */
  readonly actionsByPool = new Map<string, [number, number]>();
  /**
   * Per applied action whose scheduled evaluation is in the trace: µs from the first evaluation of
   * the unbroken run asking for its direction (delta after bounds of that sign) to the action.
   */
  readonly upReactionUs: number[] = [];
  readonly downReactionUs: number[] = [];

  /** Sum over groups of their latest replica count; its first value, peak and when it peaked. */
  replicas = 0;
  initialReplicas = 0;
  peakReplicas = 0;
  peakUs = 0;

  /** Lifecycle transitions per state, and µs from `scheduling` to `active` per replica. */
  readonly states = new Map<string, number>();
  readonly coldStartUs: number[] = [];
  /** Highest instance index an instance_state record names. */
  maxInstance = -1;

  private readonly groups = new Map<string, GroupState>();
  private readonly scheduling = new Map<string, number>();

  /** Whether the trace has any autoscaler record (evaluation or action). */
  get active(): boolean {
    return this.evaluations > 0 || this.up + this.down > 0;
  }

  /** Sets a group's replica count, keeping the total and its peak. */
  private count(pool: string, replicas: number, ts: number): GroupState {
    let g = this.groups.get(pool);
    if (g === undefined) {
      g = { replicas, signalSince: [undefined, undefined], scheduled: [] };
      this.groups.set(pool, g);
      this.initialReplicas += replicas;
      this.replicas += replicas;
    } else {
      this.replicas += replicas - g.replicas;
      g.replicas = replicas;
    }
    if (this.replicas > this.peakReplicas) {
      this.peakReplicas = this.replicas;
      this.peakUs = ts;
    }
    return g;
  }

  scale(r: ScaleRecord): void {
    this.evaluations++;
    this.outcomes.set(r.outcome, (this.outcomes.get(r.outcome) ?? 0) + 1);
    this.evaluationsByPool.set(r.pool, (this.evaluationsByPool.get(r.pool) ?? 0) + 1);
    this.policies.set(r.policy, (this.policies.get(r.policy) ?? 0) + 1);
    const g = this.count(r.pool, r.routable + r.pending, r.ts);
    const dir = Math.sign(r.delta ?? 0);
    // A run of evaluations asking for one direction ends with any evaluation that does not.
    if (dir <= 0) g.signalSince[1] = undefined;
    if (dir >= 0) g.signalSince[0] = undefined;
    if (dir === 0) return;
    const k = dirIndex(dir);
    const since = g.signalSince[k] ?? r.ts;
    g.signalSince[k] = since;
    if (r.outcome === 'scheduled') {
      g.scheduled.push({ dir, since });
      g.signalSince[k] = undefined;
    }
  }

  scaleAction(r: ScaleActionRecord): void {
    const dir = Math.sign(r.after - r.before);
    const g = this.count(r.pool, r.after, r.ts);
    this.unplaced += r.unplaced;
    if (dir === 0) {
      // No change (every replica unplaced): it still carried out the oldest scheduled evaluation.
      g.scheduled.shift();
      return;
    }
    // The action carries out the oldest scheduled evaluation of its direction; older ones of the
    // other direction were not carried out.
    let scheduled = g.scheduled.shift();
    while (scheduled !== undefined && scheduled.dir !== dir) scheduled = g.scheduled.shift();
    let byPool = this.actionsByPool.get(r.pool);
    if (byPool === undefined) {
      byPool = [0, 0];
      this.actionsByPool.set(r.pool, byPool);
    }
    if (dir > 0) {
      this.up++;
      byPool[0]++;
      this.replicasAdded += r.ids.length;
      if (scheduled !== undefined) this.upReactionUs.push(r.ts - scheduled.since);
    } else {
      this.down++;
      byPool[1]++;
      this.replicasDrained += r.ids.length;
      if (scheduled !== undefined) this.downReactionUs.push(r.ts - scheduled.since);
    }
  }

  instanceState(r: InstanceStateRecord): void {
    this.states.set(r.state, (this.states.get(r.state) ?? 0) + 1);
    if (r.inst > this.maxInstance) this.maxInstance = r.inst;
    if (r.state === 'scheduling') this.scheduling.set(r.id, r.ts);
    else if (r.state === 'active' || r.state === 'terminated') {
      const since = this.scheduling.get(r.id);
      if (since === undefined) return;
      this.scheduling.delete(r.id);
      if (r.state === 'active') this.coldStartUs.push(r.ts - since);
    }
  }
}
