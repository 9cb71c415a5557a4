/**
 * `cli orders import FILE --source ID_OR_NAME` (the mailed file's path: the same feed and run
 * engine, POST /api/order-tracking-sources/{id}/import, trigger "cli") and `cli orders search`
 * (POST /api/order-tracking/list; a page past the first 10,000 results is the server's 400, whose
 * message says to narrow the search, exit 1).
 *
 * @module
 */
import type { Command } from "commander";
import type { ImportRunDetails } from "../shared/contract/email_sources.ts";
import { type OrderListResult, RESULT_WINDOW } from "../shared/contract/order_tracking.ts";
import { CliError } from "./client.ts";
import { action, type Ctx, pick, subcommand, table } from "./command.ts";
import { runExitCode, runText } from "./runs.ts";

const baseName = (path: string) => path.split(/[\\/]/).pop()!;

/** Reads a local file for upload, or a CliError naming it. */
export async function readLocalFile(path: string): Promise<File> {
  try {
    return new File([await Deno.readFile(path)], baseName(path));
  } catch (e) {
    const reason = e instanceof Deno.errors.NotFound ? "no such file" : (e as Error).message;
    throw new CliError(`cannot read ${path}: ${reason}`);
  }
}

/** The id of a source of the kind, from its id or name (CliError when unknown). */
export async function sourceIdOf(
  ctx: Ctx,
  listPath: string,
  idOrName: string,
  label: string,
): Promise<number> {
  const list = await ctx.api.get<Record<string, unknown>[]>(listPath);
  return Number(pick(list, idOrName, "sourceName", label).id);
}

const SEARCH_OPTIONS = [
  ["po", "PoNumberParam", "customer PO number"],
  ["item", "ItemNumberParam", "item number"],
  ["shipTo", "ShipToNameParam", "ship-to name"],
  ["supplier", "SupplierNameParam", "supplier name"],
  ["brand", "BrandNameParam", "brand name"],
  ["tracking", "TrackingNumberParam", "tracking number"],
] as const;

/** Registers `orders ...`. */
export function registerOrders(program: Command): void {
  const orders = program.command("orders").description("order tracking");
  subcommand(
    orders,
    "import <file>",
    "import an order file for a source, as if it had been mailed (exit 2 on row errors)",
    [
      'cli orders import sample.csv --source "Acme Supply"',
      "SOURCE_MANAGER_TOKEN=$TOKEN cli orders import sample.xlsx --source 3 --json",
    ],
  )
    .requiredOption("--source <id-or-name>", "the order tracking source")
    .action(action(async (ctx, file: string, options: { source: string }) => {
      const upload = await readLocalFile(file);
      const id = await sourceIdOf(
        ctx,
        "/api/order-tracking-sources/active",
        options.source,
        "order tracking source",
      );
      const form = new FormData();
      form.set("file", upload);
      ctx.progress(`importing ${upload.name}`);
      const run = await ctx.api.request<ImportRunDetails>(
        "POST",
        `/api/order-tracking-sources/${id}/import`,
        { form },
      );
      ctx.print(run, () => runText(run));
      return runExitCode(run);
    }));
  const search = subcommand(orders, "search", "search the orders (the order tracking list)", [
    "cli orders search --po 4500012345",
    "cli orders search --supplier acme --page-size 100 --json",
  ]);
  for (const [option, , label] of SEARCH_OPTIONS) {
    const flag = option.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    search.option(`--${flag} <text>`, `${label} contains`);
  }
  search
    .option("--any", "match any of the terms (default: all)")
    .option(
      "--page <n>",
      `page number, from 1; pages past the first ${
        RESULT_WINDOW.toLocaleString("en-US")
      } results are refused (exit 1): narrow the search`,
      "1",
    )
    .option("--page-size <n>", "10, 25, 50, 100 or 250", "25")
    .option("--sort <field>", "sort by this field (append :desc to reverse)", "customerPoNumber")
    .action(action(async (ctx, options: Record<string, string | boolean | undefined>) => {
      const [sortField, direction] = String(options.sort).split(":");
      const body: Record<string, unknown> = {
        PageSize: Number(options.pageSize),
        PageIndex: Number(options.page),
        AndOrParam: options.any ? false : true,
        SortParams: { [sortField]: direction !== "desc" },
      };
      for (const [option, key] of SEARCH_OPTIONS) {
        if (typeof options[option] === "string") body[key] = options[option];
      }
      const result = await ctx.api.post<OrderListResult>("/api/order-tracking/list", body);
      ctx.print(result, () =>
        `${
          table(result.orders as unknown as Record<string, unknown>[], [
            ["id", "ID"],
            ["customerPoNumber", "PO"],
            ["itemNumber", "ITEM"],
            ["shipToName", "SHIP TO"],
            ["supplierName", "SUPPLIER"],
            ["lineStatus", "STATUS"],
            ["trackingNumbers", "TRACKING"],
          ])
        }\n${result.orders.length} of ${result.countCapped ? "more than " : ""}${
          result.totalRecordCount.toLocaleString("en-US")
        } order line(s).`);
    }));
}
