import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EvalRequestSchema, EvalResponseSchema, evaluate } from '../src/index.js';

// Golden pairs: each `<name>.request.json` is answered exactly by `<name>.response.json`. They
// pin the protocol's bytes (field order, names, numbers) so that any change to what a search
// receives is a reviewed change. Regenerate with BLIS_UPDATE_GOLDEN=1 after checking the diff.
const dir = fileURLToPath(new URL('./golden/', import.meta.url));
const names = readdirSync(dir)
  .filter((f) => f.endsWith('.request.json'))
  .map((f) => f.replace(/\.request\.json$/, ''))
  .sort();

describe('blis-eval/1 golden requests and responses', () => {
  it('has golden pairs', () => expect(names.length).toBeGreaterThanOrEqual(2));
  for (const name of names) {
    it(name, async () => {
      const request = JSON.parse(readFileSync(`${dir}${name}.request.json`, 'utf8')) as unknown;
      expect(EvalRequestSchema.safeParse(request).success).toBe(true);
      const response = await evaluate(request);
      expect(EvalResponseSchema.safeParse(response).success).toBe(true);
      const text = `${JSON.stringify(response, null, 2)}\n`;
      if (process.env.BLIS_UPDATE_GOLDEN === '1') writeFileSync(`${dir}${name}.response.json`, text);
      expect(text).toBe(readFileSync(`${dir}${name}.response.json`, 'utf8'));
    });
  }
});
