import type { ClientSpec, WindowSpec } from '../client-schema.js';
import type { CohortSpec } from './cohort-schema.js';
import { diurnalWindows, drainWindows, spikeWindow } from './cohort-windows.js';

/**
 * A cohort's members as clients, as BLIS's ExpandCohorts makes them: `<id>-<j>` for j in
 * [0, population), each with `rate_fraction / population`, the cohort's other fields, and
 * lifecycle windows from its patterns, diurnal then spike then drain (none: no lifecycle, always
 * on). BLIS derives a generator per cohort here and draws nothing from it, so no stream moves.
 * Members share one windows array: the rate computations group clients by it.
 */
export function expandCohorts(cohorts: readonly CohortSpec[]): ClientSpec[] {
  const out: ClientSpec[] = [];
  for (const cohort of cohorts) {
    const { id, population, prefix_sharing, diurnal, spike, drain, ...fields } = cohort;
    const windows: WindowSpec[] = [];
    if (diurnal !== undefined) windows.push(...diurnalWindows(diurnal));
    if (spike !== undefined) windows.push(spikeWindow(spike, population));
    if (drain !== undefined) windows.push(...drainWindows(drain));
    const lifecycle = windows.length > 0 ? { windows } : undefined;
    for (let j = 0; j < population; j++) {
      const perMember = prefix_sharing === 'per_member' && fields.prefix_group !== undefined;
      out.push({
        ...fields,
        id: `${id}-${j}`,
        rate_fraction: fields.rate_fraction / population,
        ...(perMember ? { prefix_group: `${fields.prefix_group}-${j}` } : {}),
        ...(lifecycle !== undefined ? { lifecycle } : {}),
      });
    }
  }
  return out;
}

/**
 * Where client `index` of an expanded spec comes from in its file: `['clients', i]` for one the
 * file lists, `['cohorts', k]` for a member of cohort k (cohort members follow the file's clients).
 */
export function clientOrigin(fileClients: number, cohorts: readonly Pick<CohortSpec, 'population'>[] | undefined, index: number): (string | number)[] {
  if (index < fileClients || cohorts === undefined) return ['clients', index];
  let i = index - fileClients;
  for (const [k, c] of cohorts.entries()) {
    if (i < c.population) return ['cohorts', k];
    i -= c.population;
  }
  return ['clients', index];
}

/**
 * `path` (into a spec whose cohorts are expanded) as the file has it: a path into a cohort
 * member's client is its cohort's.
 */
export function specPath(spec: { clients: readonly unknown[]; cohorts?: readonly Pick<CohortSpec, 'population'>[] }, path: (string | number)[]): (string | number)[] {
  if (spec.cohorts === undefined || path[0] !== 'clients' || typeof path[1] !== 'number') return path;
  const members = spec.cohorts.reduce((a, c) => a + c.population, 0);
  const fileClients = spec.clients.length - members;
  return path[1] < fileClients ? path : clientOrigin(fileClients, spec.cohorts, path[1]);
}
