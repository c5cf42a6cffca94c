import * as z from 'zod';
import { EvalRequestSchema } from './protocol.js';
import { EvalResponseSchema } from './response-schema.js';

/** Files the package ships: `@blis/adapters/eval-request.schema.json` and `.../eval-response.schema.json`. */
export const EVAL_REQUEST_JSON_SCHEMA_FILE = 'schema/eval-request.schema.json';
export const EVAL_RESPONSE_JSON_SCHEMA_FILE = 'schema/eval-response.schema.json';

/** JSON Schema (draft 2020-12) of a `blis-eval/1` request as callers write it (defaults optional). */
export function evalRequestJsonSchema(): Record<string, unknown> {
  return { $id: 'https://blis.dev/schema/eval-request.schema.json', title: 'blis-eval/1 request', ...z.toJSONSchema(EvalRequestSchema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) };
}

/** JSON Schema (draft 2020-12) of a `blis-eval/1` response. */
export function evalResponseJsonSchema(): Record<string, unknown> {
  return { $id: 'https://blis.dev/schema/eval-response.schema.json', title: 'blis-eval/1 response', ...z.toJSONSchema(EvalResponseSchema, { target: 'draft-2020-12', io: 'output', unrepresentable: 'any' }) };
}
