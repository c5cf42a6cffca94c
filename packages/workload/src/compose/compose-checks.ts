/** A problem of the merged spec, at a path of it. */
export interface ComposeIssue {
  path: (string | number)[];
  expected: string;
  found: string;
}

/**
 * BLIS's `Validate` rule the merge can break although each input kept it: once any client names
 * an `slo_class`, every client must (clients from a spec without classes beside one with them).
 */
export function mixedSloClassIssues(clients: readonly Record<string, unknown>[]): ComposeIssue[] {
  const named = (c: Record<string, unknown>) => typeof c.slo_class === 'string' && c.slo_class !== '';
  const empty = clients.flatMap((c, i) => (named(c) ? [] : [i]));
  if (empty.length === 0 || empty.length === clients.length) return [];
  const first = clients.findIndex(named);
  return [
    {
      path: ['clients', empty[0], 'slo_class'],
      expected: `an slo_class on every client once one has one (clients[${first}] has ${JSON.stringify(clients[first].slo_class)}; BLIS refuses the mix)`,
      found: `none on ${empty.length} client(s): ${empty
        .slice(0, 5)
        .map((i) => `clients[${i}]`)
        .join(', ')}${empty.length > 5 ? ', ...' : ''}`,
    },
  ];
}
