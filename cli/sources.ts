/**
 * `cli sources list|show|export|import KIND`: every kind of source through its contracted calls.
 * Export writes JSON with stored secrets as the placeholder (`********`, never in clear); import
 * validates every entry with the shared zod schema first (a malformed file imports nothing), then
 * updates the source an entry names (by id, else by name) or creates it; `--dry-run` shows what
 * would change.
 *
 * @module
 */
import type { Command } from "commander";
import type { z } from "zod";
import { emailSourceSave } from "../shared/contract/email_sources.ts";
import { sourceSaveRequest } from "../shared/contract/order_tracking.ts";
import { inventorySourceSave } from "../shared/contract/inventory.ts";
import {
  orderSubmissionSourceSave,
  orderVendorSourceSave,
} from "../shared/contract/order_submission.ts";
import { notificationSettingSave } from "../shared/contract/notifications.ts";
import { ApiClient, CliError, EXIT } from "./client.ts";
import { action, type Ctx, details, pick, subcommand, table } from "./command.ts";
import { registerUrlFeeds } from "./url_feeds.ts";

/** The placeholder the server answers for a stored secret; saving it keeps the secret. */
export const SECRET_PLACEHOLDER = "********";

type Row = Record<string, unknown>;

/** One kind of source and its calls. */
export interface SourceKind {
  label: string;
  list: string;
  show: (id: number) => string;
  save: (api: ApiClient, id: number, body: Row) => Promise<Row>;
  // deno-lint-ignore no-explicit-any
  schema: z.ZodType<any, any>;
  /** The field that names a source (matched case-insensitively). */
  nameKey: string;
  /** Extra columns of `list`. */
  columns: [string, string][];
}

/** Every kind, by the name the commands take. */
export const KINDS: Record<string, SourceKind> = {
  email: {
    label: "e-mail source",
    list: "/api/email-sources/emails",
    show: (id) => `/api/email-sources/email/${id}`,
    save: (api, id, body) => api.post("/api/email-sources/email/save", { ...body, id }),
    schema: emailSourceSave,
    nameKey: "email",
    columns: [["incomingServer", "INCOMING"], ["lastPollError", "LAST POLL ERROR"]],
  },
  "order-tracking": {
    label: "order tracking source",
    list: "/api/order-tracking-sources/active",
    show: (id) => `/api/order-tracking-sources/get/${id}`,
    save: (api, id, body) => api.post("/api/order-tracking-sources/save", { ...body, id }),
    schema: sourceSaveRequest,
    nameKey: "sourceName",
    columns: [["fromEmail", "FROM"], ["fileType", "TYPE"]],
  },
  inventory: {
    label: "inventory source",
    list: "/api/inventory-sources/inventories",
    show: (id) => `/api/inventory-sources/inventory/${id}`,
    save: (api, id, body) => api.post("/api/inventory-sources/inventory/save", { ...body, id }),
    schema: inventorySourceSave,
    nameKey: "sourceName",
    columns: [["fromEmail", "FROM"], ["fileType", "TYPE"]],
  },
  "order-submission": {
    label: "order submission source",
    list: "/api/order-submission/sources/active",
    show: (id) => `/api/order-submission/sources/get/${id}`,
    save: (api, id, body) => api.post("/api/order-submission/sources/save", { ...body, id }),
    schema: orderSubmissionSourceSave,
    nameKey: "sourceName",
    columns: [["fromEmail", "FROM"]],
  },
  vendor: {
    label: "vendor",
    list: "/api/order-submission/vendor/active",
    show: (id) => `/api/order-submission/vendor/get/${id}`,
    save: (api, id, body) => api.post("/api/order-submission/vendor/save", { ...body, id }),
    schema: orderVendorSourceSave,
    nameKey: "vendorNameFromFile",
    columns: [["submitEmails", "SUBMIT TO"]],
  },
  notifications: {
    label: "notification setting",
    list: "/api/notification-settings",
    show: (id) => `/api/notification-settings/${id}`,
    save: (api, id, body) =>
      id
        ? api.request("PUT", `/api/notification-settings/${id}`, { json: { ...body, id } })
        : api.post("/api/notification-settings", { ...body, id: 0 }),
    schema: notificationSettingSave,
    nameKey: "name",
    columns: [["sourceType", "FOR"], ["notificationInterval", "INTERVAL"]],
  },
};

const KIND_NAMES = Object.keys(KINDS).join(", ");

/** The kind named on the command line, or a CliError listing them. */
export function kindOf(name: string): SourceKind {
  const kind = KINDS[name.toLowerCase()];
  if (!kind) throw new CliError(`unknown kind "${name}": use one of ${KIND_NAMES}`);
  return kind;
}

/** A record's keys matched to the schema's, case-insensitively (as the server does). */
function canonicalKeys(schema: SourceKind["schema"], record: Row): Row {
  const shape = (schema as unknown as { shape?: Row }).shape ?? {};
  const byLower = new Map(Object.keys(shape).map((k) => [k.toLowerCase(), k]));
  const out: Row = {};
  for (const [key, value] of Object.entries(record)) {
    if (key === "__proto__") continue;
    out[byLower.get(key.toLowerCase()) ?? key] = value;
  }
  return out;
}

/** Replaces any secret-looking value with the placeholder (the server does already). */
function maskSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskSecrets);
  if (!value || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      /password|secret|webhookUrl/i.test(k) && typeof v === "string" && v !== ""
        ? SECRET_PLACEHOLDER
        : maskSecrets(v),
    ]),
  );
}

/**
 * The record with the ids of nested records (column mappings, vendor aliases) replaced: they
 * belong to the server the file came from, so a created source must not point at them.
 */
function nestedIds(value: unknown, replace: (id: unknown) => unknown, depth = 0): unknown {
  if (Array.isArray(value)) return value.map((v) => nestedIds(v, replace, depth + 1));
  if (!value || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).flatMap(([k, v]) => {
      if (depth > 0 && k.toLowerCase() === "id") {
        const replaced = replace(v);
        return replaced === undefined ? [] : [[k, replaced]];
      }
      return [[k, nestedIds(v, replace, depth + 1)]];
    }),
  );
}

/** The shared schema's view of a record, for comparing: ids and secrets left out. */
function comparable(kind: SourceKind, record: Row): Row | null {
  const parsed = kind.schema.safeParse(canonicalKeys(kind.schema, record));
  if (!parsed.success) return null;
  const data = nestedIds(parsed.data, () => undefined) as Row;
  delete data.id;
  return data;
}

/** Field names whose values differ. */
function changedFields(before: Row | null, after: Row): string[] {
  if (!before) return Object.keys(after);
  return Object.keys(after).filter((k) =>
    JSON.stringify(before[k] ?? null) !== JSON.stringify(after[k] ?? null) &&
    after[k] !== SECRET_PLACEHOLDER
  );
}

/** Reads an export file: `{ kind, sources: [...] }` or a bare array with --kind. */
async function readImportFile(path: string, kindOption?: string) {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (e) {
    const reason = e instanceof Deno.errors.NotFound ? "no such file" : (e as Error).message;
    throw new CliError(`cannot read ${path}: ${reason}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new CliError(`${path} is not valid JSON: ${(e as Error).message}`);
  }
  const doc = Array.isArray(json)
    ? { sources: json }
    : json as { kind?: unknown; sources?: unknown };
  const kindName = kindOption ?? (typeof doc?.kind === "string" ? doc.kind : undefined);
  if (!kindName) throw new CliError(`${path} names no kind: add --kind (${KIND_NAMES})`);
  if (!Array.isArray(doc?.sources)) {
    throw new CliError(`${path}: expected { "kind": ..., "sources": [ ... ] } or an array`);
  }
  return { kindName, kind: kindOf(kindName), entries: doc.sources as unknown[] };
}

/** What the import does with one entry. */
interface Plan {
  index: number;
  name: string;
  action: "create" | "update" | "unchanged";
  id: number | null;
  changes: string[];
  body: Row;
}

async function planImport(ctx: Ctx, kind: SourceKind, entries: unknown[]): Promise<Plan[]> {
  // Every entry is checked before anything is written: a bad file imports nothing.
  const problems: Record<string, string[]> = {};
  const bodies: Row[] = [];
  entries.forEach((entry, i) => {
    const where = `sources[${i}]`;
    if (!entry || typeof entry !== "object" || Array.isArray(entry)) {
      problems[where] = ["not an object"];
      return;
    }
    const record = canonicalKeys(kind.schema, entry as Row);
    const parsed = kind.schema.safeParse(record);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const key = `${where}.${issue.path.map(String).join(".") || "(entry)"}`;
        (problems[key] ??= []).push(issue.message);
      }
    }
    bodies.push(record);
  });
  if (Object.keys(problems).length) {
    const count = new Set(Object.keys(problems).map((k) => k.split(".")[0])).size;
    throw new CliError(
      `${count} of ${entries.length} entries are not valid ${kind.label}s: nothing imported`,
      EXIT.refused,
      undefined,
      problems,
    );
  }
  const existing = await ctx.api.get<Row[]>(kind.list);
  const plans: Plan[] = [];
  for (const [index, body] of bodies.entries()) {
    const name = String(body[kind.nameKey] ?? "");
    const id = Number(body.id ?? 0);
    let match = id > 0 ? existing.find((r) => Number(r.id) === id) : undefined;
    if (!match) {
      const named = existing.filter((r) =>
        String(r[kind.nameKey] ?? "").trim().toLowerCase() === name.trim().toLowerCase()
      );
      if (named.length > 1) {
        throw new CliError(
          `sources[${index}]: ${named.length} ${kind.label}s are named "${name}": give the id`,
        );
      }
      match = named[0];
    }
    if (!match) {
      plans.push({
        index,
        name,
        action: "create",
        id: null,
        changes: [],
        body: nestedIds(body, () => 0) as Row,
      });
      continue;
    }
    const current = await ctx.api.get<Row>(kind.show(Number(match.id)));
    const changes = changedFields(comparable(kind, current), comparable(kind, body)!);
    plans.push({
      index,
      name,
      action: changes.length ? "update" : "unchanged",
      id: Number(match.id),
      changes,
      body,
    });
  }
  return plans;
}

const planLine = (kind: SourceKind, p: Plan, dryRun: boolean) => {
  const verb = {
    create: dryRun ? "would create" : "created",
    update: dryRun ? "would update" : "updated",
    unchanged: "unchanged",
  }[p.action];
  const id = p.id ? ` (id ${p.id})` : "";
  const fields = p.action === "update" ? `: ${p.changes.join(", ")}` : "";
  return `${verb} ${kind.label} "${p.name}"${id}${fields}`;
};

/** Registers `sources ...`. */
export function registerSources(program: Command): void {
  const sources = program.command("sources").description(
    `sources of every kind (${KIND_NAMES})`,
  );
  registerUrlFeeds(sources);
  subcommand(sources, "list <kind>", `list the sources of a kind (${KIND_NAMES})`, [
    "cli sources list order-tracking",
    "cli sources list email --json",
  ]).action(action(async (ctx, kindName: string) => {
    const kind = kindOf(kindName);
    const list = await ctx.api.get<Row[]>(kind.list);
    ctx.print(list, () =>
      table(
        list.map((r) => ({ ...r, active: r.activeStatus === false ? "no" : "yes" })),
        [["id", "ID"], [kind.nameKey, "NAME"], ...kind.columns, ["active", "ACTIVE"]],
      ));
  }));
  subcommand(sources, "show <kind> <source>", "one source, by id or name", [
    'cli sources show order-tracking "Acme Supply"',
  ]).action(action(async (ctx, kindName: string, idOrName: string) => {
    const kind = kindOf(kindName);
    const found = pick(await ctx.api.get<Row[]>(kind.list), idOrName, kind.nameKey, kind.label);
    const source = maskSecrets(await ctx.api.get<Row>(kind.show(Number(found.id)))) as Row;
    ctx.print(source, () => details(source));
  }));
  subcommand(
    sources,
    "export <kind>",
    "export every source of a kind (or those named) as JSON; secrets as ********",
    [
      "cli sources export order-tracking --out tracking.json",
      'cli sources export inventory "Widgets Inc" > widgets.json',
    ],
  )
    .argument("[sources...]", "ids or names (default: all)")
    .option("--out <file>", "write to this file instead of stdout")
    .action(action(async (ctx, kindName: string, wanted: string[], options: { out?: string }) => {
      const kind = kindOf(kindName);
      const list = await ctx.api.get<Row[]>(kind.list);
      const chosen = wanted.length
        ? wanted.map((w) => pick(list, w, kind.nameKey, kind.label))
        : list;
      const full: Row[] = [];
      for (const [i, s] of chosen.entries()) {
        ctx.progress(`reading ${kind.label} ${i + 1} of ${chosen.length}`);
        full.push(maskSecrets(await ctx.api.get<Row>(kind.show(Number(s.id)))) as Row);
      }
      const doc = {
        kind: kindName.toLowerCase(),
        exportedAt: new Date().toISOString(),
        server: ctx.api.connection.server,
        sources: full,
      };
      if (options.out) {
        await Deno.writeTextFile(options.out, JSON.stringify(doc, null, 2) + "\n");
        ctx.print(
          { kind: doc.kind, out: options.out, count: full.length },
          () => `Wrote ${full.length} ${kind.label}(s) to ${options.out}.`,
        );
      } else {
        console.log(JSON.stringify(doc, null, 2));
      }
    }));
  subcommand(
    sources,
    "import <file>",
    "create or update sources from an export; every entry is validated before anything is written",
    [
      "cli sources import tracking.json --dry-run",
      "cli sources import tracking.json --json",
    ],
  )
    .option("--kind <kind>", `the kind, when the file is a bare array (${KIND_NAMES})`)
    .option("--dry-run", "show what would change, change nothing")
    .addHelpText(
      "after",
      `
An entry updates the source it names: its id when that exists on this server, else the source of
the same name; otherwise it is created. A stored secret exported as ******** is kept on update; a
new source needs the secret in clear in the file.`,
    )
    .action(action(async (ctx, file: string, options: { kind?: string; dryRun?: boolean }) => {
      const { kindName, kind, entries } = await readImportFile(file, options.kind);
      const plans = await planImport(ctx, kind, entries);
      const dryRun = options.dryRun === true;
      const done: Plan[] = [];
      if (!dryRun) {
        for (const [i, plan] of plans.entries()) {
          if (plan.action === "unchanged") continue;
          ctx.progress(`saving ${i + 1} of ${plans.length}`);
          try {
            const saved = await kind.save(ctx.api, plan.id ?? 0, plan.body);
            plan.id = Number(saved?.id ?? plan.id);
            done.push(plan);
          } catch (error) {
            if (error instanceof CliError) {
              throw new CliError(
                `sources[${plan.index}] "${plan.name}": ${error.message}` +
                  (done.length ? ` (${done.length} saved before it)` : ""),
                error.exitCode,
                error.status,
                error.errors,
              );
            }
            throw error;
          }
        }
      }
      const result = {
        kind: kindName,
        dryRun,
        created: plans.filter((p) => p.action === "create").length,
        updated: plans.filter((p) => p.action === "update").length,
        unchanged: plans.filter((p) => p.action === "unchanged").length,
        entries: plans.map(({ body: _b, ...p }) => p),
      };
      ctx.print(result, () =>
        [
          ...plans.map((p) => planLine(kind, p, dryRun)),
          `${
            dryRun ? "Dry run: " : ""
          }${result.created} to create, ${result.updated} to update, ${result.unchanged} unchanged.`
            .replace(" to create", dryRun ? " to create" : " created").replace(
              " to update",
              dryRun ? " to update" : " updated",
            ),
        ].join("\n"));
    }));
}
