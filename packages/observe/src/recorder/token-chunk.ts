/**
 * Whether one streamed chunk carries generated tokens, so the ITL file times tokens and not
 * protocol events. OpenAI-compatible servers also stream chunks that carry none: chat's opening
 * `delta: {role: "assistant", content: ""}`, a closing `delta: {}` with only a finish reason, and
 * the usage-only chunk (`choices: []`) that `stream_options.include_usage` adds after the last
 * token. BLIS times those too, which puts a near-zero gap into a request's mean ITL.
 */
export class TokenChunkDetector {
  /** `usage.completion_tokens` of the last chunk that had one; undefined before any. */
  private completionTokens: number | undefined;

  /**
   * True when a choice has generated text (or a tool-call, reasoning or refusal delta), or the
   * running token count grew since an earlier chunk's (vLLM's continuous usage stats). A first
   * count alone says nothing: a closing chunk with an empty text may carry the whole answer's usage.
   */
  carriesTokens(chunk: Readonly<Record<string, unknown>>): boolean {
    const choices = Array.isArray(chunk.choices) ? chunk.choices : [];
    const counted = countedTokens(chunk.usage);
    const grew = counted !== undefined && this.completionTokens !== undefined && counted > this.completionTokens;
    if (counted !== undefined) this.completionTokens = Math.max(this.completionTokens ?? 0, counted);
    if (choices.length === 0) return false;
    return grew || choices.some(choiceHasOutput);
  }
}

function countedTokens(usage: unknown): number | undefined {
  if (typeof usage !== 'object' || usage === null) return undefined;
  const n = (usage as { completion_tokens?: unknown }).completion_tokens;
  return typeof n === 'number' ? n : undefined;
}

const nonEmptyText = (v: unknown): boolean => typeof v === 'string' && v !== '';

/** Completions put the text in `text`; chat in `delta.content` (or a reasoning, refusal or tool-call delta). */
function choiceHasOutput(choice: unknown): boolean {
  if (typeof choice !== 'object' || choice === null) return false;
  const c = choice as { text?: unknown; delta?: unknown };
  if (nonEmptyText(c.text)) return true;
  if (typeof c.delta !== 'object' || c.delta === null) return false;
  const d = c.delta as Record<string, unknown>;
  return (
    nonEmptyText(d.content) ||
    nonEmptyText(d.reasoning_content) ||
    nonEmptyText(d.reasoning) ||
    nonEmptyText(d.refusal) ||
    (Array.isArray(d.tool_calls) && d.tool_calls.length > 0) ||
    (typeof d.function_call === 'object' && d.function_call !== null)
  );
}
