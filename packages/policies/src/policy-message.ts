/**
 * Splits a policy-bundle message into what was expected and what was found, so that a message reads
 * "where: expected X, found Y" instead of "expected a valid policy setting, found expected ...".
 */
export function splitPolicyMessage(message: string, path: readonly (string | number)[]): { expected: string; found: string } {
  let m = /^expected (.+?)[;,] found (.+)$/s.exec(message);
  if (m !== null) return { expected: m[1], found: m[2] };
  m = /^unknown field(.*)$/s.exec(message);
  if (m !== null) {
    const key = path[path.length - 1];
    // The package's gloss "(not a parameter of this policy)" is for fields inside a section.
    return { expected: 'a known field', found: `unknown field ${JSON.stringify(String(key ?? ''))}${path.length > 1 ? m[1] : ''}` };
  }
  m = /^unknown (.+?) ("[^"]*"); valid: (.+)$/s.exec(message);
  if (m !== null) return { expected: `a known ${m[1]} (${m[3]})`, found: m[2] };
  m = /^duplicate (.+?) ("[^"]*")/s.exec(message);
  if (m !== null) return { expected: `each ${m[1]} at most once`, found: `${m[2]} again` };
  m = /^Invalid input: expected (.+?), received ([^;]+)(?:; found (.+))?$/s.exec(message);
  if (m !== null) return { expected: m[1] === 'object' ? 'a mapping' : m[1], found: m[3] ?? m[2] };
  return { expected: 'a valid policy setting', found: message };
}
