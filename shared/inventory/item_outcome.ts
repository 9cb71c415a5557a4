import type { ItemStatus } from "../contract/inventory.ts";

/** What became of one catalogue item. */
export interface ItemOutcome {
  itemNumber: string;
  status: ItemStatus;
  /** Summed quantity of its rows; null when missing or unreadable. */
  quantity: number | null;
  found: boolean;
  /** Why: "quantity", "status", "missing", "no quantity", "prediction". */
  decidedBy: "quantity" | "status" | "missing" | "no quantity" | "prediction";
  /** With `keepRows`: the item's last row of the supplier file (bounded), and its file row. */
  row?: string[];
  rowNumber?: number;
  /** With `keepRows`: the rule that decided it, in words (explain.ts). */
  reason?: string;
}
