import type { FlagDef } from './flags.js';

const WORKLOAD = 'Workload';

/** BLIS's `--lazy-generation` (#1441): its generator streams instead of pre-generating; ours always streams. */
export const LAZY_GENERATION_FLAG: FlagDef = {
  name: 'lazy-generation',
  kind: 'bool',
  group: WORKLOAD,
  description: "BLIS's streaming generator; accepted and changes nothing here: requests are always generated as the run reaches them (the same requests as without it, as in BLIS)",
};

/** `blis run`'s closed loop from flags (BLIS's concurrency mode). */
export const RUN_CLOSED_LOOP_FLAGS: readonly FlagDef[] = [
  {
    name: 'concurrency',
    kind: 'nonNegInt',
    group: WORKLOAD,
    description: 'closed loop: this many virtual users, each sending its next request when its last is answered, lengths from the length flags (0 = off; not with --rate, --workload, --arrival-process or --workload-spec; needs --num-requests or --horizon)',
    defaultText: '0',
  },
  { name: 'think-time-ms', kind: 'nonNegInt', group: WORKLOAD, description: "with --concurrency: a user's pause between an answer and its next request, ms", defaultText: '0' },
];

/** `blis replay`'s session flags (BLIS's closed-loop session replay). */
export const REPLAY_SESSION_FLAGS: readonly FlagDef[] = [
  {
    name: 'session-mode',
    kind: 'string',
    choices: ['fixed', 'closed-loop'],
    group: WORKLOAD,
    description: "fixed: every row arrives at its recorded time; closed-loop (TraceV2): a session's next round is sent when the previous one completes, after a think time",
    defaultText: 'fixed',
  },
  {
    name: 'think-time-ms',
    kind: 'nonNegInt',
    group: WORKLOAD,
    description: "closed-loop: every session's pause between an answer and its next round, ms (0 = the trace's: think_time_us, else the gaps between the rounds' arrivals)",
    defaultText: '0',
  },
  {
    name: 'think-time-dist',
    kind: 'string',
    group: WORKLOAD,
    description: 'closed-loop, instead of --think-time-ms: pauses drawn from "constant:value=500ms" or "lognormal:mu=2.0,sigma=0.6[,min=3s][,max=30s]" (mu, sigma of ln seconds)',
  },
];
