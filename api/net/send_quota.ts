/**
 * Limits on what the server sends or fetches on someone's behalf (issue 28, finding 4;
 * docs/limits.md, "Sending"): at most `perSubject` uses per subject (a user, a source) and `total`
 * uses in all within a sliding window. Counted in the database (`send_uses`), so several server
 * processes on one PostgreSQL share one count: the check and the record are one transaction
 * under an advisory lock per kind, so two processes cannot both take the last use.
 */
import type { Db } from "../db/client.ts";
import type { Config } from "../config.ts";

/** The window every send limit counts in: an hour. */
export const SEND_WINDOW_SECONDS = 60 * 60;

/** One kind of send and its limits within {@link SEND_WINDOW_SECONDS}. */
export interface SendQuota {
  /** What is counted: `test-email`, `notification-test`, `link-download`. */
  kind: string;
  /** Uses per subject (user or source) in the window. */
  perSubject: number;
  /** Uses of every subject together in the window. */
  total: number;
}

/** Admitted, or refused with which limit was reached and when a use becomes free again. */
export type SendAdmission =
  | { ok: true }
  | { ok: false; limit: "perSubject" | "total"; retryAfterSeconds: number };

// Advisory lock class of the send quotas (api/db: 7243001 migrations, 7243004 order upserts).
const LOCK_CLASS = 7243028;

/**
 * Takes one use of `quota` for `subject` when both its limits allow, recording it; otherwise
 * records nothing and says when to retry. Call it just before the send; a send that then fails
 * still counts (a failing send is as much load, and retrying it is what the limit bounds).
 */
export async function admitSend(db: Db, quota: SendQuota, subject: string): Promise<SendAdmission> {
  return await db.transaction(async (tx) => {
    await tx.query("select pg_advisory_xact_lock($1, hashtext($2))", [LOCK_CLASS, quota.kind]);
    await tx.query(
      "delete from send_uses where kind = $1 and at <= now() - make_interval(secs => $2)",
      [quota.kind, SEND_WINDOW_SECONDS],
    );
    // The limit-th newest use in the window: while it exists the limit is reached, and it ages
    // out of the window after `wait` seconds.
    const wait = async (limit: number, bySubject: boolean) => {
      const [row] = await tx.query<{ wait: number }>(
        `select extract(epoch from at + make_interval(secs => $2) - now())::float8 as wait
           from send_uses where kind = $1 ${bySubject ? "and subject = $4" : ""}
          order by at desc offset $3 limit 1`,
        bySubject
          ? [quota.kind, SEND_WINDOW_SECONDS, limit - 1, subject]
          : [quota.kind, SEND_WINDOW_SECONDS, limit - 1],
      );
      return row ? Math.max(1, Math.ceil(row.wait)) : null;
    };
    const mine = await wait(quota.perSubject, true);
    if (mine !== null) return { ok: false, limit: "perSubject", retryAfterSeconds: mine };
    const all = await wait(quota.total, false);
    if (all !== null) return { ok: false, limit: "total", retryAfterSeconds: all };
    await tx.query("insert into send_uses (kind, subject) values ($1, $2)", [quota.kind, subject]);
    return { ok: true };
  });
}

/**
 * Minutes until `seconds` have passed, for messages ("in 12 minutes").
 *
 * @example
 * ```ts
 * import { waitText } from "./send_quota.ts";
 * waitText(30); // "in 1 minute"
 * waitText(600); // "in 10 minutes"
 * ```
 */
export function waitText(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return `in ${minutes} minute${minutes === 1 ? "" : "s"}`;
}

/**
 * The message of a refused send: which limit, its number, its variable, when to retry. `who` is
 * the subject of the per-subject limit ("You have", "This source has").
 *
 * @example
 * ```ts
 * import { refusalText } from "./send_quota.ts";
 * refusalText(
 *   "testEmail",
 *   { kind: "test-email", perSubject: 20, total: 100 },
 *   { ok: false, limit: "perSubject", retryAfterSeconds: 600 },
 *   "You have",
 * );
 * // "You have sent 20 test e-mails in the last hour, the limit (TEST_EMAILS_PER_USER_PER_HOUR). Try again in 10 minutes."
 * ```
 */
export function refusalText(
  kind: SendKind,
  quota: SendQuota,
  refused: Extract<SendAdmission, { ok: false }>,
  who: string,
): string {
  const { noun, verb, variables } = SEND_KINDS[kind];
  const retry = `Try again ${waitText(refused.retryAfterSeconds)}.`;
  const count = (n: number) => `${n} ${n === 1 ? noun.slice(0, -1) : noun}`;
  if (refused.limit === "perSubject") {
    return `${who} ${verb} ${
      count(quota.perSubject)
    } in the last hour, the limit (${variables.perSubject}). ${retry}`;
  }
  return `The server has ${verb} ${
    count(quota.total)
  } in the last hour, the limit for everyone together (${variables.total}). ${retry}`;
}

/**
 * Uses recorded in this process's memory, per database: {@link admitSendBeyondTransaction} on
 * PGlite. An embedded database has exactly one process (api/db/lock.ts), so this is the whole
 * count there (it starts again at a restart).
 */
const memoryUses = new WeakMap<Db, Map<string, { subject: string; at: number }[]>>();

/**
 * {@link admitSend} for a caller inside a transaction whose rollback must not forget the use (a
 * feed's `process`: a run that fails after a download rolls back, yet the download happened).
 * On PostgreSQL the use is recorded on another connection of the pool and committed at once; on
 * PGlite, whose one connection the caller's transaction holds, in this process's memory.
 */
export async function admitSendBeyondTransaction(
  db: Db,
  quota: SendQuota,
  subject: string,
  now = Date.now(),
): Promise<SendAdmission> {
  if (db.kind === "postgres") return await admitSend(db, quota, subject);
  const windowMs = SEND_WINDOW_SECONDS * 1000;
  const kinds = memoryUses.get(db) ?? new Map<string, { subject: string; at: number }[]>();
  memoryUses.set(db, kinds);
  const uses = (kinds.get(quota.kind) ?? []).filter((u: { at: number }) => u.at > now - windowMs);
  kinds.set(quota.kind, uses);
  const refuse = (list: { at: number }[], limit: number, which: "perSubject" | "total") => {
    if (list.length < limit) return null;
    const oldestCounted = list[list.length - limit].at;
    const retryAfterSeconds = Math.max(1, Math.ceil((oldestCounted + windowMs - now) / 1000));
    return { ok: false as const, limit: which, retryAfterSeconds };
  };
  const refused =
    refuse(uses.filter((u) => u.subject === subject), quota.perSubject, "perSubject") ??
      refuse(uses, quota.total, "total");
  if (refused) return refused;
  uses.push({ subject, at: now });
  return { ok: true };
}

/** The sends that are limited, each with its two variables (api/config.ts). */
export const SEND_KINDS = {
  testEmail: {
    kind: "test-email",
    noun: "test e-mails",
    verb: "sent",
    variables: { perSubject: "TEST_EMAILS_PER_USER_PER_HOUR", total: "TEST_EMAILS_PER_HOUR" },
  },
  notificationTest: {
    kind: "notification-test",
    noun: "notification tests",
    verb: "sent",
    variables: {
      perSubject: "NOTIFICATION_TESTS_PER_USER_PER_HOUR",
      total: "NOTIFICATION_TESTS_PER_HOUR",
    },
  },
  linkDownload: {
    kind: "link-download",
    noun: "link downloads",
    verb: "made",
    variables: {
      perSubject: "LINK_DOWNLOADS_PER_SOURCE_PER_HOUR",
      total: "LINK_DOWNLOADS_PER_HOUR",
    },
  },
} as const;

/** The name of a limited send. */
export type SendKind = keyof typeof SEND_KINDS;

/**
 * The limits of `kind` as `config` sets them.
 *
 * @example
 * ```ts
 * import { loadConfig } from "../config.ts";
 * import { quotaOf } from "./send_quota.ts";
 * quotaOf(loadConfig({}), "testEmail"); // { kind: "test-email", perSubject: 20, total: 100 }
 * ```
 */
export function quotaOf(config: Config, kind: SendKind): SendQuota {
  const { variables } = SEND_KINDS[kind];
  return {
    kind: SEND_KINDS[kind].kind,
    perSubject: config[variables.perSubject],
    total: config[variables.total],
  };
}
