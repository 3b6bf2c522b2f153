import { ANALYTICS_DIMENSIONS, ANALYTICS_PERIODS, type AnalyticsDimension } from './analytics-api.ts';
import { DaySchema, dayRangeCheck } from './fields.ts';
import { z } from './zod.ts';

/** A filter's value: a page, a host, a campaign... as the breakdown showed it (empty for "none"). */
const FilterValueSchema = z.optional(
  z.string().check(
    z.maxLength(1024),
    z.refine((value) => !/\p{Cc}/u.test(value)),
  ),
);

/** A named period, or a range of days; and any of the breakdowns as a filter. */
export const AnalyticsQuerySchema = z
  .object({
    period: z.optional(z.enum(ANALYTICS_PERIODS)),
    from: z.optional(DaySchema),
    to: z.optional(DaySchema),
    ...(Object.fromEntries(ANALYTICS_DIMENSIONS.map((name) => [name, FilterValueSchema])) as Record<
      AnalyticsDimension,
      typeof FilterValueSchema
    >),
  })
  .check(
    dayRangeCheck(),
    z.refine(({ period, from }) => period !== undefined || from !== undefined, {
      message: 'MISSING_REQUIRED_FIELD',
      path: ['from'],
    }),
    z.refine(({ period, to }) => period !== undefined || to !== undefined, {
      message: 'MISSING_REQUIRED_FIELD',
      path: ['to'],
    }),
  );
export type AnalyticsQuery = z.infer<typeof AnalyticsQuerySchema>;
