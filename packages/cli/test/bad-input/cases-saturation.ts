import { join } from 'node:path';
import type { BadInputCase } from './bad-input-case.js';

const TRACE = join(import.meta.dirname, '..', 'fixtures', 'blis-parity', 'azurecode2k.yaml');
const MODULES = join(import.meta.dirname, '..', 'fixtures', 'saturation-detectors');

// The saturation analysis flags of `blis run` and `blis replay` and BLIS's --saturation-config
// file: each bad value names the flag or the file:line and key, what was expected and found.

const RUN = ['run', '--num-requests', '3'];

export const cases: readonly BadInputCase[] = [
  { name: '--detectors with an unknown detector', args: [...RUN, '--detectors', 'drift'], stderr: ['--detectors: expected composite, threshold, backlog-drift, a detector module (./x.mjs), a comma-list of those, or all, found unknown detector "drift"'], exactLines: true },
  {
    name: '--detectors: an unknown name inside a comma-list',
    args: [...RUN, '--detectors', 'composite,latency'],
    stderr: ['--detectors: expected composite, threshold, backlog-drift, a detector module (./x.mjs), a comma-list of those, or all, found unknown detector "latency"'],
    exactLines: true,
  },
  {
    name: '--detectors: all inside a comma-list',
    args: [...RUN, '--detectors', 'composite,all'],
    stderr: ['--detectors: expected composite, threshold, backlog-drift, a detector module (./x.mjs), a comma-list of those, or all ("all" alone: it is the whole roster, not a detector), found "composite,all"'],
    exactLines: true,
  },
  { name: '--detectors: a comma-list naming none', args: [...RUN, '--detectors', ', ,'], stderr: ['--detectors: expected composite, threshold, backlog-drift, a detector module (./x.mjs), a comma-list of those, or all, found ", ," (no detector named)'], exactLines: true },
  { name: '--detectors: a single name with spaces (only a comma-list is trimmed, as in BLIS)', args: [...RUN, '--detectors', ' composite'], stderr: [/^blis: --detectors: expected .*, found unknown detector " composite"$/], exactLines: true },
  { name: '--detectors empty', args: [...RUN, '--detectors', ''], stderr: ['--detectors: expected a non-empty string, found ""'], exactLines: true },
  { name: '--saturation-final-window that is no Go duration', args: [...RUN, '--detectors', 'all', '--saturation-final-window', '30'], stderr: ['--saturation-final-window: expected a Go duration > 0 (e.g. 30s, 1m30s, 500ms), found "30"'], exactLines: true },
  { name: '--saturation-final-window with an unknown unit', args: [...RUN, '--detectors', 'all', '--saturation-final-window', '3d'], stderr: ['--saturation-final-window: expected a Go duration > 0 (e.g. 30s, 1m30s, 500ms), found "3d"'], exactLines: true },
  { name: '--saturation-final-window 0', args: [...RUN, '--detectors', 'all', '--saturation-final-window', '0'], stderr: ['--saturation-final-window: expected a Go duration > 0 (e.g. 30s, 1m30s, 500ms), found "0"'], exactLines: true },
  { name: '--saturation-final-window negative', args: [...RUN, '--detectors', 'all', '--saturation-final-window=-5s'], stderr: ['--saturation-final-window: expected a Go duration > 0 (e.g. 30s, 1m30s, 500ms), found "-5s"'], exactLines: true },
  { name: '--saturation-final-window past int64 nanoseconds', args: [...RUN, '--detectors', 'all', '--saturation-final-window', '3000000h'], stderr: ['--saturation-final-window: expected a Go duration > 0 (e.g. 30s, 1m30s, 500ms), found "3000000h"'], exactLines: true },
  {
    name: 'the saturation flags without --detectors',
    args: [...RUN, '--saturation-report', '$DIR/r.json', '--saturation-final-window', '10s'],
    stderr: [
      '--saturation-report: expected to be given with --detectors (the saturation analysis is off without it), found no --detectors',
      '--saturation-final-window: expected to be given with --detectors (the saturation analysis is off without it), found no --detectors',
    ],
    exactLines: true,
  },
  { name: '--saturation-config without --detectors', args: [...RUN, '--saturation-config', '$DIR/s.yaml'], files: { 's.yaml': '' }, stderr: ['--saturation-config: expected to be given with --detectors (the saturation analysis is off without it), found no --detectors'], exactLines: true },
  { name: '--saturation-report into a missing folder', args: [...RUN, '--detectors', 'all', '--saturation-report', '$DIR/no/such/r.json'], stderr: [/^blis: --saturation-report \S+no\/such\/r\.json: expected a writable file, found /], exactLines: true },
  { name: '--saturation-config that does not exist', args: [...RUN, '--detectors', 'all', '--saturation-config', '$DIR/none.yaml'], stderr: [/^blis: --saturation-config \S+none\.yaml: expected a readable saturation configuration file, found ENOENT/], exactLines: true },
  {
    name: 'saturation config: a composite: block (composite has no tuning)',
    args: [...RUN, '--detectors', 'all', '--saturation-config', '$DIR/s.yaml'],
    files: { 's.yaml': 'threshold:\n  threshold_ms: 100\ncomposite:\n  x: 1\n' },
    stderr: [/^blis: \S+s\.yaml:3 composite: expected a threshold: or backlog_drift: block \(composite has no tunable parameters\), found unknown key "composite"$/],
    exactLines: true,
  },
  {
    name: 'saturation config: an unknown key in the backlog_drift: block',
    args: [...RUN, '--detectors', 'all', '--saturation-config', '$DIR/s.yaml'],
    files: { 's.yaml': 'backlog_drift:\n  window_size_sec: 10\n  window_sec: 5\n' },
    stderr: [/^blis: \S+s\.yaml:3 backlog_drift\.window_sec: expected a key of BLIS's backlog_drift: block \(window_size_sec, min_windows, .*\), found unknown key "window_sec"$/],
    exactLines: true,
  },
  {
    name: 'saturation config: threshold_ms not positive, window_size_sec fractional, confidence_ci out of (0, 1)',
    args: [...RUN, '--detectors', 'all', '--saturation-config', '$DIR/s.yaml'],
    files: { 's.yaml': 'threshold:\n  threshold_ms: 0\nbacklog_drift:\n  window_size_sec: 1.5\n  confidence_ci: 1\n' },
    stderr: [
      /^blis: \S+s\.yaml:2 threshold\.threshold_ms: expected a finite number > 0 \(ms\), found 0$/,
      /^blis: \S+s\.yaml:4 backlog_drift\.window_size_sec: expected a whole number of seconds > 0, found 1\.5$/,
      /^blis: \S+s\.yaml:5 backlog_drift\.confidence_ci: expected a number in \(0, 1\), found 1$/,
    ],
    exactLines: true,
  },
  {
    name: 'saturation config: threshold_ms as text',
    args: [...RUN, '--detectors', 'threshold', '--saturation-config', '$DIR/s.yaml'],
    files: { 's.yaml': 'threshold:\n  threshold_ms: fast\n' },
    stderr: [/^blis: \S+s\.yaml:2 threshold\.threshold_ms: expected a finite number > 0 \(ms\), found "fast"$/],
    exactLines: true,
  },
  {
    name: 'saturation config: saturated_drain_ratio above transient_drain_ratio',
    args: [...RUN, '--detectors', 'backlog-drift', '--saturation-config', '$DIR/s.yaml'],
    files: { 's.yaml': 'backlog_drift:\n  saturated_drain_ratio: 0.99\n' },
    stderr: [/^blis: \S+s\.yaml:2 backlog_drift\.saturated_drain_ratio: expected saturated_drain_ratio <= transient_drain_ratio \(BLIS: the regions would overlap\), found 0\.99 > 0\.98$/],
    exactLines: true,
  },
  {
    name: 'saturation config: a block for a detector that does not run',
    args: [...RUN, '--detectors', 'composite', '--saturation-config', '$DIR/s.yaml'],
    files: { 's.yaml': 'threshold:\n  threshold_ms: 100\n' },
    stderr: [/^blis: \S+s\.yaml:1 threshold: expected no threshold: block unless threshold is among --detectors, found --detectors composite$/],
    exactLines: true,
  },
  {
    name: 'saturation config: not a mapping',
    args: [...RUN, '--detectors', 'all', '--saturation-config', '$DIR/s.yaml'],
    files: { 's.yaml': '- threshold\n' },
    stderr: [/^blis: \S+s\.yaml:1: expected a mapping with threshold: and\/or backlog_drift: blocks \(BLIS's --saturation-config format\), found /],
    exactLines: true,
  },
  {
    name: 'saturation config: a YAML syntax error',
    args: [...RUN, '--detectors', 'all', '--saturation-config', '$DIR/s.yaml'],
    files: { 's.yaml': 'threshold:\n  threshold_ms: [1\n' },
    stderr: [/^blis: \S+s\.yaml:\d+/],
  },
  {
    name: '--detectors: many unknown names are counted, not all quoted',
    args: [...RUN, '--detectors', 'a,b,c,d,e,a'],
    stderr: ['--detectors: expected composite, threshold, backlog-drift, a detector module (./x.mjs), a comma-list of those, or all, found unknown detector "a", "b", "c" and 2 more'],
    exactLines: true,
  },
  { name: '--detectors: a detector module that does not exist', args: [...RUN, '--detectors', 'composite,./no-such-detector.mjs'], stderr: ['--detectors ./no-such-detector.mjs: expected a detector name or an existing ES module path, found no such file'], exactLines: true },
  {
    name: '--detectors: a detector module without a default export',
    args: [...RUN, '--detectors', '$DIR/d.mjs'],
    files: { 'd.mjs': 'export const x = 1;\n' },
    stderr: [/^blis: --detectors \S+d\.mjs: expected a default export that makes a detector, \(\) => PostHocSaturationDetector, found no default export$/],
    exactLines: true,
  },
  {
    name: '--detectors: a module whose detector lacks detect()',
    args: [...RUN, '--detectors', '$DIR/d.mjs'],
    files: { 'd.mjs': "export default () => ({ name: 'x', observe() {}, reset() {} });\n" },
    stderr: [/^blis: --detectors \S+d\.mjs: expected a detector: \{ name, observe\(event\), detect\(\), reset\(\) \}, found an object without detect\(\)$/],
    exactLines: true,
  },
  {
    name: '--detectors: a module whose detector takes a built-in name',
    args: [...RUN, '--detectors', join(MODULES, 'named-composite.mjs')],
    stderr: [/^blis: --detectors \S+named-composite\.mjs: expected a detector named apart from the built-in ones and the other modules \(labels are keyed by name\), found the name "composite"$/],
    exactLines: true,
  },
  {
    name: '--detectors: a module whose verdict has no level of the three (found after the run; nothing on stdout)',
    args: [...RUN, '--detectors', join(MODULES, 'bad-level.mjs')],
    stderr: [/^blis: --detectors \S+bad-level\.mjs: expected detect\(\) to return \{ level: STABLE \| BACKLOGGED \| OVERLOADED, .*\}, found level "RED"$/],
    exactLines: true,
  },
  {
    name: '--detectors: a module whose observe throws',
    args: [...RUN, '--detectors', join(MODULES, 'throws.mjs')],
    stderr: [/^blis: --detectors \S+throws\.mjs: expected a detector whose observe\(\) returns, found observe\(\) threw: boom$/],
    exactLines: true,
  },
  { name: '--detectors on blis replay is checked the same', args: ['replay', '--trace', TRACE, '--max-requests', '5', '--detectors', 'x'], stderr: [/^blis: --detectors: expected .*, found unknown detector "x"$/], exactLines: true },
];
