import type { FlagDef } from './flags.js';

const SATURATION = 'Saturation analysis';

/**
 * BLIS's post-hoc saturation analysis flags, on `run` and `replay` (docs/saturation.md). Off
 * unless --detectors is given; the other three need it.
 */
export const SATURATION_FLAGS: readonly FlagDef[] = [
  {
    name: 'detectors',
    kind: 'string',
    group: SATURATION,
    description: 'post-hoc saturation detectors to run after the simulation: composite, threshold, backlog-drift, a detector module (./x.mjs), a comma-list of those, or all; adds their final labels as `saturation` (off when not given)',
  },
  {
    name: 'saturation-config',
    kind: 'string',
    group: SATURATION,
    description: "YAML tuning of the detectors, BLIS's format: a threshold: block (threshold_ms) and a backlog_drift: block (window_size_sec, ...); needs --detectors",
  },
  {
    name: 'saturation-report',
    kind: 'string',
    group: SATURATION,
    description: 'write the per-event verdict trace here, BLIS\'s {"final":{...},"trace":[...]} JSON; needs --detectors',
  },
  {
    name: 'saturation-final-window',
    kind: 'string',
    group: SATURATION,
    description: 'Go duration of the final window whose verdicts vote for each label (e.g. 30s, 1m30s); needs --detectors',
    defaultText: 'backlog_drift.window_size_sec if set, else 30s',
  },
];
