// How list-valued inputs (--routing-scorers, --fitness-weights, the playground's scorer field)
// report their parse errors.

/** A quoted excerpt as `quoteExcerpt` writes it: JSON string, maybe cut with its length stated. */
const QUOTED = String.raw`"(?:[^"\\]|\\.)*"(?:\.\.\. \(\d+ characters\))?`;

/**
 * Splits a --fitness-weights / --routing-scorers parse message (from @blis/cluster and
 * @blis/policies) into expected and found: `unknown scorer "x"; valid: a, b` becomes
 * expected `... over a, b`, found `unknown scorer "x"`.
 */
export function splitListMessage(message: string, shape: string): { expected: string; found: string } {
  let m = new RegExp(`^(unknown [a-z ]+?) (${QUOTED}); (?:valid|known): (.+)$`, 's').exec(message);
  if (m !== null) return { expected: `${shape} over ${m[3]}`, found: `${m[1]} ${m[2]}` };
  m = /^(?:weight of (\S+) must be|scorer ("[^"]*") weight must be) (.+?), (?:found|got) (.+)$/s.exec(message);
  if (m !== null) return { expected: `the weight of ${m[1] ?? m[2]} to be ${m[3]}`, found: m[4] };
  m = /^duplicate (.+?) ("[^"]*")/s.exec(message);
  if (m !== null) return { expected: `each ${m[1]} at most once`, found: `${m[2]} again` };
  m = /^expected (.+?), found (.+)$/s.exec(message);
  if (m !== null) return { expected: m[1], found: m[2] };
  m = new RegExp(`^invalid scorer entry (${QUOTED}): expected (.+)$`, 's').exec(message);
  if (m !== null) return { expected: `${m[2]} entries`, found: m[1] };
  return { expected: shape, found: message };
}
