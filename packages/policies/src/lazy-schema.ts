import * as z from 'zod';

/**
 * A schema built when it first parses (`z.lazy`), for schemas that most runs never use. Every
 * `blis` command, and the thread of every cold `blis evaluate`, loads all the built-in policies,
 * trace formats and input files, while a run uses a few: zod builds a schema from dozens of
 * objects, and building them all as their modules loaded cost a cold start some 5-10 ms, most of
 * it for schemas nothing parsed. Parsing through the wrapper gives the same results and issues.
 */
export function lazySchema<T extends z.ZodType>(build: () => T): z.ZodLazy<T> {
  return z.lazy(build);
}
