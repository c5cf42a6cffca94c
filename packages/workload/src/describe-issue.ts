import type { core } from 'zod';

const NOUN: Record<string, string> = { number: 'a number', int: 'an integer', string: 'a string', boolean: 'true or false', object: 'a mapping', array: 'a list' };

/** What a zod issue expected, in words a user of the YAML or trace file reads ("a number > 0"). */
export function describeExpected(i: core.$ZodIssue): string {
  switch (i.code) {
    case 'invalid_type':
      return NOUN[i.expected] ?? `a ${i.expected}`;
    case 'too_small':
    case 'too_big': {
      const op = i.code === 'too_small' ? (i.inclusive ? '>=' : '>') : i.inclusive ? '<=' : '<';
      const bound = String(i.code === 'too_small' ? i.minimum : i.maximum);
      if (i.origin === 'array') return `a list with ${op} ${bound} item(s)`;
      if (i.origin === 'string') return `a string with ${op} ${bound} character(s)`;
      return `a number ${op} ${bound}`;
    }
    case 'invalid_value':
      return `one of ${i.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'invalid_union': {
      const options = (i as { options?: unknown[] }).options;
      return options !== undefined ? `one of ${options.map((o) => JSON.stringify(o)).join(', ')}` : i.message;
    }
    case 'custom':
      return i.message;
    default:
      return i.message.replace(/^Invalid input: /, '');
  }
}

/** A custom issue's own account of what it found (`params.found`), when it has one. */
export function customFound(i: core.$ZodIssue): string | undefined {
  return i.code === 'custom' ? ((i.params as { found?: string } | undefined)?.found ?? undefined) : undefined;
}
