/** The flags that take a `"name:weight,..."` scorer list, where a name may be a module path. */
export const SCORER_LIST_FLAGS = [
  ['routingScorers', '--routing-scorers'],
  ['prefillRoutingScorers', '--prefill-routing-scorers'],
  ['decodeRoutingScorers', '--decode-routing-scorers'],
] as const;

/** The scorer names (module paths included) a `"name:weight,..."` list gives, in order. */
export function scorerListNames(text: string): string[] {
  return text.split(',').map((entry) => {
    const colon = entry.lastIndexOf(':');
    return (colon < 0 ? entry : entry.slice(0, colon)).trim();
  });
}

/**
 * The list with each module path replaced by the name its scorer is registered under
 * (policy-setup.ts), so that the list parses against the run's registry.
 */
export function withRegisteredScorerNames(text: string, registered: ReadonlyMap<string, string>): string {
  if (registered.size === 0) return text;
  return text
    .split(',')
    .map((entry) => {
      const colon = entry.lastIndexOf(':');
      const name = registered.get((colon < 0 ? entry : entry.slice(0, colon)).trim());
      return name === undefined ? entry : `${name}${colon < 0 ? '' : entry.slice(colon)}`;
    })
    .join(',');
}
