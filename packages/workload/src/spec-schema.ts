import { MAX_CLOCK_US } from '@blis/engine';
import { MAX_CLOCK_TEXT, minRateWithinClock } from '@blis/engine/internal';
import * as z from 'zod';
import { type ClientSpec, ClientSchema, type WindowSpec } from './client-schema.js';
import { cohortIssues } from './cohorts/cohort-issues.js';
import { CohortSchema, type CohortSpec } from './cohorts/cohort-schema.js';
import { clientOrigin, expandCohorts } from './cohorts/expand-cohorts.js';
import { GoodputSloTargetsSchema } from './goodput/goodput-targets.js';
import { MAX_SPEC_CLIENTS } from './request-limits.js';
import { ServeGenDataSchema } from './servegen/servegen-spec.js';

export { ArrivalSchema, ClientSchema, DEFAULT_SLO_CLASS, DistributionSchema, SLO_CLASSES, WindowSchema } from './client-schema.js';
export type { ClientSpec, WindowSpec } from './client-schema.js';

const nonNeg = z.number().nonnegative();
const pos = z.number().positive();
const posInt = z.number().int().positive();

export const WorkloadSpecSchema = z
  .strictObject({
    // Go BLIS reads `version: 2` unquoted as the string too. A v1 spec (or one without a version)
    // arrives here upgraded (spec-upgrade.ts); "1" is listed so that a wrong version names it.
    version: z.union([z.literal('2'), z.literal(2), z.literal('1'), z.literal(1)]).transform(() => '2' as const),
    // Go's zero value when the file has none: BLIS then draws from seed 0 (unless --seed is given).
    seed: z.number().int().default(0),
    category: z.string().default(''),
    /**
     * Requests/s over all clients, shared by `rate_fraction`. 0 is BLIS's absolute rate mode:
     * every client then needs lifecycle windows, each with a `trace_rate` used as the rate.
     */
    aggregate_rate: nonNeg,
    num_requests: posInt.optional(),
    /** Stop generating arrivals after this tick (µs). */
    horizon: pos.optional(),
    clients: z.array(ClientSchema).optional(),
    /** Populations of like clients (BLIS's cohorts), expanded into clients after the file's own. */
    cohorts: z.array(CohortSchema).optional(),
    /**
     * A ServeGen data directory, loaded into `cohorts` when the spec is read (as `blis convert
     * servegen` converts it, with this spec's seed); exclusive with `clients` and `cohorts`.
     */
    servegen_data: ServeGenDataSchema.optional(),
    /**
     * Goodput thresholds by SLO class (ms): the result's `goodput` block counts the requests of
     * each class listed that completed within them. `--slo-ttft/--slo-itl/--slo-e2e` override
     * them per class and dimension.
     */
    goodput_slo_targets: GoodputSloTargetsSchema.optional(),
  })
  .superRefine((s, ctx) => {
    const clients = s.clients ?? [];
    const cohorts = s.cohorts ?? [];
    const add = (i: { path: (string | number)[]; expected: string; found: string }) => ctx.addIssue({ code: 'custom', path: i.path, message: i.expected, params: { found: i.found } });
    if (clients.length === 0 && cohorts.length === 0)
      add({ path: ['clients'], expected: 'a list with >= 1 item (or cohorts, or servegen_data)', found: s.clients === undefined ? 'nothing (the field is missing)' : 'an empty list' });
    // In absolute rate mode rates come from the windows' trace_rate; rate_fraction is unused.
    const users = clients.some((c) => (c.concurrency ?? 0) > 0);
    if (s.aggregate_rate > 0 && clients.length > 0 && cohorts.length === 0 && !users && clients.every((c) => c.rate_fraction === 0))
      ctx.addIssue({ code: 'custom', path: ['clients'], message: 'at least one client with rate_fraction > 0', params: { found: 'every rate_fraction is 0' } });
    if (s.horizon !== undefined && s.horizon > MAX_CLOCK_US) ctx.addIssue({ code: 'custom', path: ['horizon'], message: `at most ${MAX_CLOCK_TEXT}`, params: { found: String(s.horizon) } });
    // Without a horizon every request arrives: at 1e-300 req/s, past the clock's range.
    if (s.horizon === undefined && s.num_requests !== undefined && Number.isSafeInteger(s.num_requests) && s.aggregate_rate > 0 && (s.num_requests / s.aggregate_rate) * 1e6 > MAX_CLOCK_US)
      ctx.addIssue({
        code: 'custom',
        path: ['aggregate_rate'],
        message: `at least ${minRateWithinClock(s.num_requests)} requests per second (${s.num_requests} requests arriving within ${MAX_CLOCK_TEXT})`,
        params: { found: String(s.aggregate_rate) },
      });
    const checkBounds = (d: { params: unknown } | undefined, path: (string | number)[]) => {
      const p = d?.params as { min?: number; max?: number } | undefined;
      if (p?.min !== undefined && p.max !== undefined && p.min > p.max)
        ctx.addIssue({ code: 'custom', path: [...path, 'params', 'min'], message: `min <= max (${p.max})`, params: { found: String(p.min) } });
    };
    for (const i of multimodalIssues(clients, cohorts)) add(i);
    const mmBounds = (c: { multimodal?: Record<string, { params: unknown } | undefined> }, at: (string | number)[]) => {
      for (const [k, d] of Object.entries(c.multimodal ?? {})) checkBounds(d, [...at, 'multimodal', k]);
    };
    for (const [k, c] of cohorts.entries()) mmBounds(c, ['cohorts', k]);
    clients.forEach((c, i) => {
      mmBounds(c, ['clients', i]);
      for (const which of ['input_distribution', 'output_distribution'] as const) checkBounds(c[which], ['clients', i, which]);
      c.lifecycle?.windows.forEach((w, j) => {
        const at = ['clients', i, 'lifecycle', 'windows', j];
        // BLIS (spec.go validateClient): a window must have end_us > start_us.
        if (w.end_us <= w.start_us) ctx.addIssue({ code: 'custom', path: [...at, 'end_us'], message: `a number > start_us (${w.start_us})`, params: { found: String(w.end_us) } });
        for (const which of ['input_distribution', 'output_distribution'] as const) checkBounds(w[which], [...at, which]);
      });
    });
    if (s.aggregate_rate === 0) {
      // BLIS (spec.go Validate): absolute rate mode needs every client's windows to carry trace_rate.
      clients.forEach((c, i) => {
        // Concurrency users are closed loop: no rate, no windows.
        if ((c.concurrency ?? 0) > 0) return;
        if (c.lifecycle === undefined)
          ctx.addIssue({ code: 'custom', path: ['clients', i, 'lifecycle'], message: 'lifecycle windows, each with a trace_rate (aggregate_rate is 0: absolute rate mode)', params: { found: 'nothing (the field is missing)' } });
        c.lifecycle?.windows.forEach((w, j) => {
          if (w.trace_rate === undefined)
            ctx.addIssue({ code: 'custom', path: ['clients', i, 'lifecycle', 'windows', j, 'trace_rate'], message: 'a trace_rate in requests/s (aggregate_rate is 0: absolute rate mode)', params: { found: 'nothing (the field is missing)' } });
        });
      });
    } else {
      // With per-window overrides BLIS generates only from lifecycle windows: a client without
      // windows would silently send nothing (generator.go generateTimeVaryingRequests). Refused.
      const owner = perWindowOwner(clients, cohorts);
      if (owner !== undefined)
        clients.forEach((c, i) => {
          if (c.lifecycle === undefined && c.rate_fraction > 0)
            ctx.addIssue({
              code: 'custom',
              path: ['clients', i, 'lifecycle'],
              message: `lifecycle windows (${owner} has per-window overrides, and then a client without windows sends nothing)`,
              params: { found: 'nothing (the field is missing)' },
            });
        });
    }
    for (const i of concurrencyIssues(clients, cohorts)) add(i);
    for (const i of cohortIssues(s.aggregate_rate, cohorts, s.aggregate_rate > 0 ? perWindowOwner(clients, cohorts) : undefined)) add(i);
    // Every member is a client: the run's limit on clients counts them, checked here where the file's lines are known.
    let total = clients.length;
    for (const [k, c] of cohorts.entries()) {
      total += c.population;
      if (total > MAX_SPEC_CLIENTS) {
        add({ path: ['cohorts', k, 'population'], expected: `at most ${MAX_SPEC_CLIENTS} clients in all, cohort members included`, found: `${c.population} (${total} clients up to this cohort)` });
        return;
      }
    }
    const all = cohorts.length > 0 ? [...clients, ...expandCohorts(cohorts)] : clients;
    // A member's own path is its cohort's: its windows are the cohort's patterns.
    const origin = (path: (string | number)[]) => (typeof path[1] === 'number' && path[1] >= clients.length ? clientOrigin(clients.length, cohorts, path[1]) : path);
    if (s.horizon !== undefined) for (const i of dedupe(lateWindowIssues({ aggregate_rate: s.aggregate_rate, clients: all }, s.horizon, `the horizon (${s.horizon} µs)`).map((i) => ({ ...i, path: origin(i.path) })))) add(i);
    const ids = new Set<string>();
    all.forEach((c, i) => {
      if (ids.has(c.id)) add({ path: [...origin(['clients', i]), 'id'], expected: i < clients.length ? 'a unique client id' : 'a unique client id (a cohort member is <cohort id>-<n>)', found: `"${c.id}" twice` });
      ids.add(c.id);
    });
  })
  .transform((s) => ({ ...s, clients: [...(s.clients ?? []), ...expandCohorts(s.cohorts ?? [])] }));

/**
 * BLIS's rules for concurrency clients (spec.go): `concurrency` and `rate_fraction` are
 * exclusive, and no multi-turn client may share the spec (BLIS cannot budget both kinds of
 * follow-up together).
 */
function concurrencyIssues(clients: readonly ClientSpec[], cohorts: readonly CohortSpec[]): { path: (string | number)[]; expected: string; found: string }[] {
  const out: { path: (string | number)[]; expected: string; found: string }[] = [];
  const multiTurn = [...clients, ...cohorts].some((c) => c.reasoning?.multi_turn !== undefined);
  clients.forEach((c, i) => {
    if ((c.concurrency ?? 0) === 0) return;
    if (c.rate_fraction > 0) out.push({ path: ['clients', i, 'rate_fraction'], expected: 'rate_fraction 0 on a concurrency client (the two are exclusive)', found: String(c.rate_fraction) });
    if (multiTurn) out.push({ path: ['clients', i, 'concurrency'], expected: 'no multi-turn client beside concurrency clients (BLIS cannot budget both kinds of follow-up)', found: `concurrency ${c.concurrency} and a multi-turn client` });
  });
  return out;
}

/**
 * BLIS draws `multimodal` prompts only on its single-shot path: a multi-turn session, a
 * concurrency user and the per-window generator draw `input_distribution` and ignore it. Here
 * such a spec is refused rather than run without the prompts it asks for.
 */
function multimodalIssues(clients: readonly ClientSpec[], cohorts: readonly CohortSpec[]): { path: (string | number)[]; expected: string; found: string }[] {
  const out: { path: (string | number)[]; expected: string; found: string }[] = [];
  const perWindow = perWindowOwner(clients, cohorts);
  const check = (c: ClientSpec | CohortSpec, at: (string | number)[]) => {
    if (c.multimodal === undefined) return;
    const path = [...at, 'multimodal'];
    if (c.reasoning?.multi_turn !== undefined) out.push({ path, expected: 'no multimodal section on a multi-turn client (BLIS draws its rounds from input_distribution)', found: 'multimodal with reasoning.multi_turn' });
    else if ('concurrency' in c && (c.concurrency ?? 0) > 0) out.push({ path, expected: 'no multimodal section on a concurrency client (BLIS draws its users\' requests from input_distribution)', found: `multimodal with concurrency ${c.concurrency}` });
    else if (perWindow !== undefined) out.push({ path, expected: `no multimodal section in a spec on the per-window generator (${perWindow} has per-window overrides; BLIS draws those requests from input_distribution)`, found: 'a multimodal section' });
  };
  for (const [i, c] of clients.entries()) check(c, ['clients', i]);
  for (const [k, c] of cohorts.entries()) check(c, ['cohorts', k]);
  return out;
}

/** What puts a spec on the per-window generator, named for a message: a client's window override, or a cohort's spike rate. */
function perWindowOwner(clients: readonly ClientSpec[], cohorts: readonly CohortSpec[]): string | undefined {
  const client = clients.find((c) => c.lifecycle?.windows.some(hasWindowOverrides));
  if (client !== undefined) return `client "${client.id}"`;
  const cohort = cohorts.find((c) => c.spike?.trace_rate !== undefined);
  return cohort !== undefined ? `cohort "${cohort.id}"` : undefined;
}

/** One issue per path (a cohort's members share their cohort's). */
function dedupe<T extends { path: (string | number)[] }>(issues: T[]): T[] {
  const seen = new Set<string>();
  return issues.filter((i) => {
    const k = i.path.join('.');
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * Windows that all open at or after the horizon leave nothing to send: a spec whose every sending
 * client is like that would run 0 requests and report it as a result. One issue per such client,
 * at its earliest window's `start_us`. `horizonText` names the horizon (the spec's, or a run's).
 */
export function lateWindowIssues(
  s: Pick<WorkloadSpec, 'aggregate_rate' | 'clients'>,
  horizon: number,
  horizonText: string,
): { path: (string | number)[]; expected: string; found: string }[] {
  const sends = (c: ClientSpec) => s.aggregate_rate === 0 || c.rate_fraction > 0;
  const late = (c: ClientSpec) => c.lifecycle?.windows.every((w) => w.start_us >= horizon) === true;
  if (!s.clients.some(sends) || !s.clients.filter(sends).every(late)) return [];
  return s.clients.flatMap((c, i) => {
    if (!sends(c) || c.lifecycle === undefined) return [];
    const windows = c.lifecycle.windows;
    const first = windows.reduce((a, w, j) => (w.start_us < windows[a].start_us ? j : a), 0);
    return [
      {
        path: ['clients', i, 'lifecycle', 'windows', first, 'start_us'],
        expected: `a window starting before ${horizonText}; with every window after it the workload has no request`,
        found: String(windows[first].start_us),
      },
    ];
  });
}

/** Whether a window overrides anything of its client's (BLIS's `hasPerWindowParameters`). */
export function hasWindowOverrides(w: WindowSpec): boolean {
  return w.trace_rate !== undefined || w.arrival !== undefined || w.input_distribution !== undefined || w.output_distribution !== undefined;
}

export type WorkloadSpec = z.output<typeof WorkloadSpecSchema>;
export type WorkloadSpecInput = z.input<typeof WorkloadSpecSchema>;
