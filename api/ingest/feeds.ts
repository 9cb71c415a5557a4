/**
 * The seam between file delivery (mailboxes, SFTP, uploads, CLI) and the feeds that turn files
 * into data (order tracking, inventory, order submission). Delivery finds the sources that want a
 * message or file through `Feed.sources`, stores the file and records an import run; the feed's
 * `process` turns the stored bytes into rows of its own tables.
 */
import type { Db } from "../db/client.ts";
import type { Deps } from "../deps.ts";

/** The feeds, as stored in `import_runs.feed`. */
export type FeedName = "order-tracking" | "inventory" | "order-submission";

/** How an import run was started. */
export type RunTrigger = "mail" | "sftp" | "upload" | "cli" | "rerun";

/** The matching rules of one source that reads from a mailbox (DESIGN.md section 6). */
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

/** A feed registers one of these. */
export interface Feed {
  name: FeedName;
  /** The active sources of this feed that read from mailbox `emailSourceId`. */
  mailRules(db: Db, emailSourceId: number): Promise<MailRule[]>;
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
   * Job kinds `process` enqueues to finish its work after the run's commit (e.g. sending);
   * "Check now" runs them with the import runs.
   */
  followUpJobKinds?: string[];
}

const feeds = new Map<FeedName, Feed>();

/** Registers a feed (at module load of the feed's routes). */
export function registerFeed(feed: Feed): void {
  feeds.set(feed.name, feed);
}

/** The registered feeds. */
export function registeredFeeds(): Feed[] {
  return [...feeds.values()];
}

/** One feed by name; throws for an unknown name. */
export function feedByName(name: FeedName): Feed {
  const feed = feeds.get(name);
  if (!feed) throw new Error(`No feed named ${name} is registered.`);
  return feed;
}
