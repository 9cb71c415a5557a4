/**
 * The seam between file delivery (mailboxes, SFTP, uploads, CLI) and the feeds that turn files
 * into data (order tracking, inventory, order submission). Delivery finds the sources that want a
 * message or file through `Feed.sources`, stores the file and records an import run; the feed's
 * `process` turns the stored bytes into rows of its own tables.
 */
import type { Db } from "../db/client.ts";
import type { Deps } from "../deps.ts";
import type { Flag } from "../auth/guards.ts";

/**
 * A feed's name, as stored in `import_runs.feed`. The names in use are those of the feature list
 * (`api/features.ts`, `FeedName` there); this layer sits below the areas and takes any name.
 */
export type FeedName = string;

/** How an import run was started. */
export type RunTrigger = "mail" | "sftp" | "upload" | "cli" | "rerun" | "url";

/** The matching rules of one source that reads from a mailbox (docs/design.md section 6). */
export interface MailRule {
  sourceId: number;
  sourceName: string;
  emailSourceId: number;
  fromEmail: string;
  subjectValue: string;
  containsNotExact: boolean;
  attachmentName: string;
  fileType: string;
  expectedAttachmentCount: number | null;
  /**
   * The feed wants the whole message, not one attachment: the run's file is the raw RFC 822
   * message (`.eml`), and the feed chooses the attachment, or a download link, itself.
   */
  wholeMessage?: boolean;
}

/** One problem with one row of a file; `row` is the 1-based row number in the file. */
export interface RowError {
  row: number;
  column?: string;
  message: string;
}

/** What processing one file produced. */
export interface ImportOutcome {
  status: "succeeded" | "failed" | "held";
  /** Feed-specific counts, e.g. `{ rows: 120, inserted: 3, updated: 7, unchanged: 110 }`. */
  counts: Record<string, number>;
  rowErrors: RowError[];
  /** Human-readable lines, in order. */
  log: string[];
  /**
   * Work that belongs to the run but not to its transaction (a large derived table): run after
   * the outcome commits, in short background transactions of its own, so one run does not hold
   * PGlite's only connection for its whole length. A failure is logged, not the run's: the next
   * run of the source rewrites what it writes.
   */
  afterCommit?: (db: Db) => Promise<void>;
}

/** The file handed to a feed. */
export interface ImportFile {
  runId: number;
  sourceId: number;
  fileName: string;
  bytes: Uint8Array;
  trigger: RunTrigger;
  /** When the file arrived (the e-mail's date for mail), for time windows and history. */
  receivedAt: Date;
}

/** A file read and split into batches, ready to be written (`Feed.prepare`). */
export interface PreparedImport {
  batches: number;
  /**
   * Writes `count` batches from batch `index` (0-based) in `tx`, as one; their counts are added
   * up in the run's ledger.
   */
  apply(tx: Db, index: number, count: number): Promise<Record<string, number>>;
  /** In the transaction that ends the run, with the batches' summed counts. */
  finish(tx: Db, counts: Record<string, number>): Promise<ImportOutcome>;
  /**
   * After the run failed with some batches written (they stay): what `finish`'s outcome would
   * have done for the data those batches wrote. A failure is logged, not the run's.
   */
  afterPartialFailure?(db: Db): Promise<void>;
}

/**
 * Deliveries other than mail, by kind. `url`: the feed's sources may pull their file from a URL
 * (docs/url_feeds.md); its rules are the active sources (id and name), nothing more.
 */
export type DeliveryKind = "sftp" | "url";

/** What one source of a feed asks a delivery to bring: its id and name, then the delivery's own fields. */
export interface DeliveryRule {
  sourceId: number;
  sourceName: string;
  [field: string]: unknown;
}

/**
 * A feature area's feed (its feature object's `feed`). Mail finds the feed's sources with
 * `mailRules`; another delivery (SFTP next) asks `deliveries[kind]` for its rules and hands the
 * files it fetches to the same import-run engine, so `process` never knows how a file came.
 */
export interface Feed {
  name: FeedName;
  /** The active sources of this feed that read from mailbox `emailSourceId` (`[]`: takes no mail). */
  mailRules(db: Db, emailSourceId: number): Promise<MailRule[]>;
  /** The active sources of this feed for each other delivery it takes. */
  deliveries?: Partial<Record<DeliveryKind, (db: Db) => Promise<DeliveryRule[]>>>;
  /**
   * Names of this feed's sources (active or not, not deleted) that read from mailbox
   * `emailSourceId`: deleting that e-mail source is refused while there are any.
   */
  emailSourceUsers?(db: Db, emailSourceId: number): Promise<string[]>;
  /**
   * Turns one file into data inside `tx` (the import run's transaction). Throwing fails the run
   * with the error's message and rolls back everything the feed wrote.
   */
  process(tx: Db, deps: Deps, file: ImportFile): Promise<ImportOutcome>;
  /**
   * Optional, used instead of `process`: a long import split into short transactions
   * (docs/architecture.md, "Batched imports"). `prepare` reads the file outside any transaction
   * (in the file workers) and throws, failing the run with nothing written, when it cannot be
   * read; the engine then applies its batches in order, each in a transaction of its own with
   * the run's ledger, and `finish` in the last one gives the run's outcome.
   */
  prepare?(db: Db, deps: Deps, file: ImportFile): Promise<PreparedImport>;
  /**
   * Job kinds `process` enqueues to finish its work after the run's commit (e.g. sending);
   * "Check now" runs them with the import runs.
   */
  followUpJobKinds?: string[];
}

/** Who may see a feed's import runs: a permission flag, or "admin" (also any unknown feed). */
export type FeedReader = Flag | "admin";

const feeds = new Map<FeedName, { feed: Feed; reader: FeedReader }>();

/**
 * Registers a feed. `registerFeatures` (`api/feature.ts`) calls it for every feature's feed once
 * at start; a test may add its own feed. Registering a name again replaces it.
 */
export function registerFeed(feed: Feed, reader: FeedReader = "admin"): void {
  feeds.set(feed.name, { feed, reader });
}

/** Who may read the runs of feed `name`; "admin" for a feed that is not registered. */
export function feedReader(name: FeedName): FeedReader {
  return feeds.get(name)?.reader ?? "admin";
}

/** The registered feeds. */
export function registeredFeeds(): Feed[] {
  return [...feeds.values()].map((entry) => entry.feed);
}

/** One feed by name; throws for an unknown name. */
export function feedByName(name: FeedName): Feed {
  const entry = feeds.get(name);
  if (!entry) throw new Error(`No feed named ${name} is registered.`);
  return entry.feed;
}
