import { formatParamPath, zodIssueTexts } from '@blis/policies/internal';
import * as z from 'zod';

const ContentPart = z.object({ type: z.string(), text: z.string().optional() }).loose();

const Message = z
  .object({
    role: z.string(),
    content: z.union([z.string(), z.array(ContentPart), z.null()]).optional(),
  })
  .loose();

const Common = {
  model: z.string().optional(),
  stream: z.boolean().optional(),
  stream_options: z.object({ include_usage: z.boolean().optional() }).loose().nullish(),
  max_tokens: z.number().int().nonnegative().nullish(),
  min_tokens: z.number().int().nonnegative().nullish(),
  /** vLLM's priority: lower is more urgent. */
  priority: z.number().int().nullish(),
};

/** The parts of an OpenAI-compatible completions body the reference server uses. */
export const CompletionsBodySchema = z.object({ ...Common, prompt: z.union([z.string(), z.array(z.string()).length(1)]) }).loose();

/** The parts of a chat completions body the reference server uses. */
export const ChatBodySchema = z.object({ ...Common, max_completion_tokens: z.number().int().nonnegative().nullish(), messages: z.array(Message).min(1) }).loose();

/** One request, whichever API it came through. */
export interface ParsedCompletionRequest {
  api: 'completions' | 'chat';
  model: string;
  prompt: string;
  stream: boolean;
  includeUsage: boolean;
  /** Undefined: the client set no limit. */
  maxTokens: number | undefined;
  priority: number;
}

/** A 400 answer: what was wrong with the body, OpenAI-style. */
export class BadRequestError extends Error {}

/** Validates a request body; a chat's messages are joined into one prompt (no template tokens). */
export function parseCompletionRequest(api: 'completions' | 'chat', body: unknown): ParsedCompletionRequest {
  if (api === 'completions') {
    const r = CompletionsBodySchema.safeParse(body);
    if (!r.success) throw new BadRequestError(describe(r.error, body));
    const b = r.data;
    return {
      api,
      model: b.model ?? '',
      prompt: typeof b.prompt === 'string' ? b.prompt : b.prompt[0],
      stream: b.stream === true,
      includeUsage: b.stream_options?.include_usage === true,
      maxTokens: b.max_tokens ?? undefined,
      priority: b.priority ?? 0,
    };
  }
  const r = ChatBodySchema.safeParse(body);
  if (!r.success) throw new BadRequestError(describe(r.error, body));
  const b = r.data;
  const text = b.messages
    .map((m) => (typeof m.content === 'string' ? m.content : (m.content ?? []).map((p) => p.text ?? '').join(' ')))
    .join('\n');
  return {
    api,
    model: b.model ?? '',
    prompt: text,
    stream: b.stream === true,
    includeUsage: b.stream_options?.include_usage === true,
    maxTokens: b.max_completion_tokens ?? b.max_tokens ?? undefined,
    priority: b.priority ?? 0,
  };
}

/** The first problem with a body: `messages[0].role: expected a string, found nothing (the field is missing)`. */
function describe(e: z.ZodError, body: unknown): string {
  const [t] = zodIssueTexts(e.issues, body);
  return `${formatParamPath(t.path, '') || 'body'}: expected ${t.expected}, found ${t.found}`;
}
