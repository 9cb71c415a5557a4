/**
 * `cli sources url show|set|check KIND SOURCE` (docs/url_feeds.md): a source's URL feed through
 * /api/url-feeds. KIND is inventory or order-tracking; SOURCE an id or a name. The password or
 * token is read from the environment variable `--secret-env` names, never from the command line
 * (where other users of the machine could read it in the process list).
 *
 * @module
 */
import type { Command } from "commander";
import { URL_FEED_AUTH, urlFeedWatchText } from "../shared/contract/url_feeds.ts";
import type { UrlFeed, UrlFeedCheckResult } from "../shared/contract/url_feeds.ts";
import { CliError, EXIT } from "./client.ts";
import { action, type Ctx, details, pick, subcommand } from "./command.ts";

type Row = Record<string, unknown>;

const FEEDS: Record<string, { list: string; nameKey: string; label: string }> = {
  inventory: {
    list: "/api/inventory-sources/inventories",
    nameKey: "sourceName",
    label: "inventory source",
  },
  "order-tracking": {
    list: "/api/order-tracking-sources/active",
    nameKey: "sourceName",
    label: "order tracking source",
  },
};

async function pathOf(ctx: Ctx, kindName: string, source: string): Promise<string> {
  const feed = kindName.toLowerCase();
  const kind = FEEDS[feed];
  if (!kind) throw new CliError(`unknown kind "${kindName}": use inventory or order-tracking`);
  const found = pick(await ctx.api.get<Row[]>(kind.list), source, kind.nameKey, kind.label);
  return `/api/url-feeds/${feed}/${Number(found.id)}`;
}

const line = (feed: UrlFeed) =>
  urlFeedWatchText(feed, (iso) => iso.slice(0, 16).replace("T", " ") + " UTC") ??
    "No feed URL.";

/** Registers `sources url ...` under `sources`. */
export function registerUrlFeeds(sources: Command): void {
  const url = sources.command("url").description(
    "a source's URL feed (inventory, order-tracking): show, set, check now",
  );
  subcommand(url, "show <kind> <source>", "the URL feed of a source and its last look", [
    'cli sources url show inventory "Acme stock"',
  ]).action(action(async (ctx, kind: string, source: string) => {
    const feed = await ctx.api.get<UrlFeed>(await pathOf(ctx, kind, source));
    ctx.print(feed, () => `${details(feed as unknown as Row, ["watch"])}\n\n${line(feed)}`);
  }));
  subcommand(url, "set <kind> <source>", "set (or with --url '' remove) the URL feed", [
    'cli sources url set inventory "Acme stock" --url https://acme.example/stock.csv --every 15',
    'URL_TOKEN=... cli sources url set inventory 4 --url https://x.example/f.csv --cron "0 6 * * *" --auth header --header-name X-Api-Key --secret-env URL_TOKEN',
  ])
    .requiredOption("--url <url>", "https:// URL of the file ('' removes the feed)")
    .option("--every <minutes>", "fetch every this many minutes")
    .option("--cron <expression>", "or: a five-field cron expression, in UTC")
    .option("--auth <kind>", `authentication: ${URL_FEED_AUTH.join(", ")}`, "none")
    .option("--username <name>", "user name for --auth basic")
    .option("--header-name <name>", "header for --auth header (e.g. Authorization)")
    .option(
      "--secret-env <variable>",
      "environment variable holding the password or token (default: keep the stored one)",
    )
    .action(action(async (ctx, kind: string, source: string, options: Row) => {
      const secretEnv = options.secretEnv as string | undefined;
      const secret = secretEnv ? Deno.env.get(secretEnv) : "********";
      if (secretEnv && !secret) throw new CliError(`${secretEnv} is not set`);
      const saved = await ctx.api.post<UrlFeed>(await pathOf(ctx, kind, source), {
        url: options.url,
        everyMinutes: options.every ?? null,
        cron: options.cron ?? "",
        authKind: options.auth,
        username: options.username ?? "",
        headerName: options.headerName ?? "",
        secret: options.auth === "none" ? "" : secret,
      });
      ctx.print(saved, () => line(saved));
    }));
  subcommand(url, "check <kind> <source>", "look at the URL now; a new file becomes a run", [
    'cli sources url check inventory "Acme stock" --json',
  ]).action(action(async (ctx, kind: string, source: string) => {
    const result = await ctx.api.post<UrlFeedCheckResult>(
      `${await pathOf(ctx, kind, source)}/check`,
      {},
    );
    ctx.print(result, () =>
      [
        `outcome: ${result.outcome}`,
        result.runId ? `run: ${result.runId}` : "",
        result.error ? `error: ${result.error}` : "",
      ].filter(Boolean).join("\n"));
    return result.outcome === "failed" ? EXIT.refused : undefined;
  }));
}
