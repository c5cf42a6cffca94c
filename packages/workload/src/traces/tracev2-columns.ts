// Apart from the reader so that browser-safe code (the ./testing entry) can name the columns
// without pulling in the file-reading modules.
/** BLIS TraceV2's 27 CSV columns, in order. */
export const TRACEV2_COLUMNS = [
  'request_id', 'client_id', 'tenant_id', 'slo_class', 'session_id', 'round_index', 'prefix_group', 'prefix_length',
  'streaming', 'input_tokens', 'output_tokens', 'text_tokens', 'image_tokens', 'audio_tokens', 'video_tokens',
  'reason_ratio', 'model', 'deadline_us', 'server_input_tokens', 'arrival_time_us', 'send_time_us',
  'first_chunk_time_us', 'last_chunk_time_us', 'num_chunks', 'status', 'error_message', 'finish_reason',
] as const;
