/**
 * The rule that decided an item, in words (issue 23, the item view): the engine's `decidedBy`
 * with the figures behind it. The rules themselves stay in rules.ts and prediction.ts; this
 * only words their outcome.
 */
import { STATUS_ACTIVE } from "../contract/inventory.ts";
import type { ItemOutcome } from "./item_outcome.ts";
import { statusLists, statusVerdict } from "./rules.ts";

const fmt = (n: number) => Number.isInteger(n) ? n.toLocaleString("en-US") : n.toFixed(2);

/** What {@link explainItem} needs of the source. */
export interface ExplainSource {
  minItemsToBeActive: number | null;
  statusAvailableList: string;
  statusOutOfStockList: string;
}

/**
 * Why an item has its status, as one sentence. `statusCell` is the status cell of its row (under
 * Status Supersedes Quantity), `prediction` the prediction's sentence when it made the item
 * inactive (predictionReason).
 *
 * @example
 * ```ts
 * import { explainItem } from "./explain.ts";
 * const source = { minItemsToBeActive: 10, statusAvailableList: "", statusOutOfStockList: "" };
 * explainItem({ status: "Inactive", quantity: 3, decidedBy: "quantity" }, source);
 * // "Quantity 3 is below the minimum quantity of 10"
 * ```
 */
export function explainItem(
  item: Pick<ItemOutcome, "status" | "quantity" | "decidedBy">,
  source: ExplainSource,
  statusCell?: string,
  prediction?: string,
): string {
  const active = item.status === STATUS_ACTIVE;
  switch (item.decidedBy) {
    case "missing":
      return "Missing from the supplier's file";
    case "no quantity":
      return "No readable quantity in the supplier's file";
    case "status": {
      const cell = (statusCell ?? "").trim();
      const verdict = cell
        ? statusVerdict(cell, statusLists(source.statusAvailableList, source.statusOutOfStockList))
        : null;
      const quoted = verdict === (active ? "available" : "out_of_stock") ? ` "${cell}"` : "";
      return active
        ? `Available status${quoted} in the supplier's file`
        : `Out-of-stock status${quoted} in the supplier's file`;
    }
    case "prediction":
      return `Predicted to sell out before the next file${
        prediction
          ? `: ${prediction.replace(/^Predicted: /, "").replace(/: made Inactive$/, "")}`
          : ""
      }`;
    case "quantity": {
      const q = fmt(item.quantity ?? 0);
      const min = source.minItemsToBeActive;
      if (min === null) {
        return active ? `Quantity ${q} is above 0` : `Quantity ${q} is not above 0`;
      }
      return active
        ? `Quantity ${q} is at least the minimum quantity of ${fmt(min)}`
        : `Quantity ${q} is below the minimum quantity of ${fmt(min)}`;
    }
  }
}
