/** GET /api/order-tracking/list/update-stats: one row per order tracking source. */
import { z } from "zod";

/** Orders of one source updated and deleted in the past 24 hours. */
export const updateStatsRow = z.object({
  orderTrackingSourceName: z.string(),
  ordersUpdated: z.number(),
  ordersDeleted: z.number(),
});
export type UpdateStatsRow = z.infer<typeof updateStatsRow>;
