import * as z from 'zod';
import { DistributionSchema } from '../distribution-schema.js';

/** The media of a multimodal prompt: each is a per-item token distribution and an item count. */
export const MEDIA = ['image', 'audio', 'video'] as const;
export type Medium = (typeof MEDIA)[number];

/**
 * A client's multimodal prompts (BLIS's MultimodalSpec, sim/workload/spec.go): text tokens, and
 * per medium a number of items and the tokens of each. A prompt is the sum of its parts, at
 * least 1 token. Every distribution is optional, but a medium needs both of its own (BLIS skips
 * a medium with only one; here that is refused, since the one given would do nothing).
 */
export const MultimodalSchema = z
  .strictObject({
    /** Text tokens of each prompt; unset: none. */
    text_distribution: DistributionSchema.optional(),
    /** Tokens of each image. */
    image_distribution: DistributionSchema.optional(),
    /** Images per prompt (each draw at least 1). */
    image_count_distribution: DistributionSchema.optional(),
    /** Tokens of each audio clip. */
    audio_distribution: DistributionSchema.optional(),
    /** Audio clips per prompt (each draw at least 1). */
    audio_count_distribution: DistributionSchema.optional(),
    /** Tokens of each video. */
    video_distribution: DistributionSchema.optional(),
    /** Videos per prompt (each draw at least 1). */
    video_count_distribution: DistributionSchema.optional(),
  })
  .superRefine((m, ctx) => {
    for (const medium of MEDIA) {
      const tokens = m[`${medium}_distribution`];
      const count = m[`${medium}_count_distribution`];
      if ((tokens === undefined) === (count === undefined)) continue;
      const [given, missing] = tokens === undefined ? [`${medium}_count_distribution`, `${medium}_distribution`] : [`${medium}_distribution`, `${medium}_count_distribution`];
      ctx.addIssue({ code: 'custom', path: [missing], message: `${missing} beside ${given} (a medium needs both its token and its count distribution)`, params: { found: 'nothing (the field is missing)' } });
    }
    if (m.text_distribution === undefined && MEDIA.every((medium) => m[`${medium}_distribution`] === undefined))
      ctx.addIssue({ code: 'custom', path: [], message: 'at least a text_distribution or one medium (image, audio or video distribution and count)', params: { found: 'none' } });
  });

export type MultimodalSpec = z.output<typeof MultimodalSchema>;
