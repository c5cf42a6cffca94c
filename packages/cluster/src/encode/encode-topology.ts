/** The E/P/D settings of a `pd` block, as given (unset = default). */
export interface EncodeFields {
  prefillInstances?: number;
  decodeInstances?: number;
  prefillDecodeInstances?: number;
  encodeInstances?: number;
  encodeDecider?: string;
}

/**
 * BLIS's encode-pool rules (ValidatePoolTopology and the `--encode-*` checks of cmd/root.go), as
 * issues against `pd.<field>`: an encode pool needs a decode-capable pool beside it, a decider
 * other than `never` needs an encode pool. (The instance count is checked with the P/D pools.)
 */
export function encodeTopologyIssues(pd: EncodeFields): { path: string[]; message: string }[] {
  const e = pd.encodeInstances ?? 0;
  const pds = (pd.prefillInstances ?? 0) + (pd.decodeInstances ?? 0) + (pd.prefillDecodeInstances ?? 0);
  const issues: { path: string[]; message: string }[] = [];
  if (e > 0 && pds === 0)
    issues.push({
      path: ['encodeInstances'],
      message: `a decode-capable pool beside encodeInstances (prefillInstances and decodeInstances, or prefillDecodeInstances), found encodeInstances ${e} and no P/D instances`,
    });
  const decider = pd.encodeDecider ?? 'never';
  if (decider !== 'never' && e === 0) issues.push({ path: ['encodeDecider'], message: `encodeInstances > 0 for encodeDecider ${decider} (the encode pool is disabled), found encodeInstances 0` });
  return issues;
}
