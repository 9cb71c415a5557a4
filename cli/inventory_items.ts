/**
 * `cli inventory items SOURCE` and `cli inventory item SOURCE ITEM` (issue 23): the item view
 * of docs/inventory.md ("Items") on the command line, through the same API as the pages.
 */
import type { Command } from "commander";
import type { ItemDetail, ItemListPage } from "../shared/contract/inventory_items.ts";
import { action, type Ctx, details, pick, subcommand, table } from "./command.ts";

const INVENTORY_LIST = "/api/inventory-sources/inventories";

/** Options of `inventory items` as commander hands them over. */
interface ItemsOptions {
  inactive?: boolean;
  changed?: boolean;
  missing?: boolean;
  search?: string;
  sort?: string;
  desc?: boolean;
  page?: string;
  pageSize?: string;
}

async function sourceId(ctx: Ctx, idOrName: string): Promise<number> {
  const list = await ctx.api.get<{ id: number; sourceName: string }[]>(INVENTORY_LIST);
  return pick(list, idOrName, "sourceName", "inventory source").id;
}

const status = (i: { deliveredStatus: string | null; runStatus: string; heldChange: boolean }) =>
  `${i.deliveredStatus ?? `${i.runStatus} (not delivered)`}${
    i.heldChange ? ` (held: would turn ${i.runStatus})` : ""
  }`;

/** Registers `items` and `item` under `cli inventory`. */
export function registerInventoryItems(inventory: Command): void {
  subcommand(
    inventory,
    "items <source>",
    "a source's catalogue items: quantity, status in the last delivered feed, why, last change",
    ['cli inventory items "Widgets Inc" --inactive', "cli inventory items 3 --search A-7 --json"],
  )
    .option("--inactive", "only items inactive in the last delivered feed")
    .option("--changed", "only items the last run turned active or inactive")
    .option("--missing", "only items missing from the last supplier file")
    .option("--search <text>", "part of the item number")
    .option("--sort <key>", "itemNumber, quantity, status, changedAt or position")
    .option("--desc", "sort in descending order")
    .option("--page <n>", "page number (default 1)")
    .option("--page-size <n>", "items per page (default 50, at most 200)")
    .action(action(async (ctx, idOrName: string, options: ItemsOptions) => {
      const id = await sourceId(ctx, idOrName);
      const query = new URLSearchParams();
      if (options.inactive) query.set("inactive", "true");
      if (options.changed) query.set("changed", "true");
      if (options.missing) query.set("missing", "true");
      if (options.search) query.set("q", options.search);
      if (options.sort) query.set("sort", options.sort);
      if (options.desc) query.set("dir", "desc");
      if (options.page) query.set("page", options.page);
      if (options.pageSize) query.set("pageSize", options.pageSize);
      const page = await ctx.api.get<ItemListPage>(
        `/api/inventory-sources/inventory/${id}/items?${query}`,
      );
      const pages = Math.max(1, Math.ceil(page.total / page.pageSize));
      ctx.print(page, () =>
        [
          page.lastRun
            ? `${page.sourceName}: last supplier file ${page.lastRun.receivedAt} (run ${page.lastRun.runId})${
              page.lastRun.held ? ", held by the guard" : ""
            }`
            : `${page.sourceName}: no supplier file processed yet`,
          table(
            page.items.map((i) => ({
              ...i,
              quantity: i.quantity ?? "-",
              status: status(i),
              changedAt: i.changedAt ?? "never",
            })),
            [
              ["itemNumber", "ITEM"],
              ["quantity", "QTY"],
              ["status", "STATUS"],
              ["reason", "WHY"],
              ["changedAt", "CHANGED (UTC)"],
            ],
          ),
          `page ${page.page} of ${pages} (${page.total} ${page.total === 1 ? "item" : "items"})`,
        ].join("\n"));
    }));

  subcommand(
    inventory,
    "item <source> <item>",
    "one item: why it has its status, since when, the runs that changed it, its raw row",
    ['cli inventory item "Widgets Inc" A-77'],
  ).action(action(async (ctx, idOrName: string, itemNumber: string) => {
    const id = await sourceId(ctx, idOrName);
    const d = await ctx.api.get<ItemDetail>(
      `/api/inventory-sources/inventory/${id}/items/${encodeURIComponent(itemNumber)}`,
    );
    ctx.print(d, () => {
      const i = d.item;
      const lines = [
        details({
          item: i.itemNumber,
          source: d.sourceName,
          status: status(i),
          why: i.reason,
          quantity: i.quantity ?? "-",
          since: i.changedAt ? `${i.changedAt} (run ${i.changedRunId})` : "no change recorded",
          lastFile: `${d.lastRun.receivedAt} (run ${d.lastRun.runId})`,
        }),
      ];
      if (d.prediction) lines.push("", `Prediction: ${d.prediction.reason}`);
      lines.push(
        "",
        "Runs that changed it:",
        table(d.changes, [["receivedAt", "WHEN (UTC)"], ["runId", "RUN"], ["to", "TURNED"], [
          "reason",
          "WHY",
        ]]),
        "",
        "Quantities (latest 10):",
        table(d.history.slice(-10), [["takenAt", "WHEN (UTC)"], ["quantity", "QTY"]]),
        "",
        `Row in the last supplier file${
          d.rawRow?.rowNumber ? ` (row ${d.rawRow.rowNumber})` : ""
        }:`,
        d.rawRow
          ? details(Object.fromEntries(d.rawRow.cells.map((c) => [c.header, c.value])))
          : "(not in the file)",
      );
      return lines.join("\n");
    });
  }));
}
