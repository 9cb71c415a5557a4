/**
 * What handlers need from the process, handed to them through the Hono context: the services'
 * interfaces (ports). Their implementations live in higher platform layers (secrets.ts,
 * mail/system_mail.ts, ingest/file_work.ts, auth/sessions.ts), which import these types and
 * re-export them; this module imports only config and db, so that http/ middleware may use
 * `AppEnv` without reaching up into auth/, mail/ or ingest/ (docs/conventions.md, "Layers").
 */
import type { Buffer } from "node:buffer";
import type { Config } from "./config.ts";
import type { Db } from "./db/db.ts";
import type { ReadOptions } from "../shared/files/mod.ts";
import type { ProcessInventoryInput } from "../shared/inventory/mod.ts";
import type { OrderFileSettings } from "../shared/order_files/read_order_file.ts";

/** Encrypts and decrypts with one key. */
export interface SecretBox {
  keyId: string;
  encrypt(plain: string): Promise<string>;
  decrypt(stored: string): Promise<string>;
}

/** One message from the system. */
export interface SystemMessage {
  to: string;
  subject: string;
  text: string;
  /** An HTML alternative to `text` (notifications). */
  html?: string;
  /** Files to attach (the inventory feed's generated file). */
  attachments?: { filename: string; content: Buffer }[];
}

/** Sends system mail; `configured` is false when no SMTP server is set. */
export interface SystemMailer {
  configured: boolean;
  send(message: SystemMessage): Promise<void>;
}

/** The tasks a file worker runs, with their inputs (structured-clone safe: no callbacks). */
export type FileTask =
  | { task: "readTable"; input: { bytes: Uint8Array; options: ReadOptions } }
  | { task: "processInventory"; input: Omit<ProcessInventoryInput, "onProgress"> }
  | { task: "readForm"; input: { body: Uint8Array; contentType: string } }
  | {
    task: "readOrderFile";
    input: {
      bytes: Uint8Array;
      options: ReadOptions & { name: string };
      settings: OrderFileSettings;
    };
  };

/** The pool: run one task, and end every worker. */
export interface FileWork {
  /** `seconds` replaces the pool's limit for this task (the upload's parse: linear, bounded). */
  run<T>(
    task: FileTask,
    options: { what: string; transfer?: ArrayBuffer[]; seconds?: number },
  ): Promise<T>;
  close(): void;
}

/** The user behind a valid access token. */
export interface SessionUser {
  sessionId: string;
  userId: number;
  username: string;
  isAdmin: boolean;
  inventoryUser: boolean;
  orderUser: boolean;
  submissionUser: boolean;
}

/** Long-lived services of one process. */
export interface Deps {
  config: Config;
  db: Db;
  secrets: SecretBox;
  mailer: SystemMailer;
  /**
   * The file-work pool (api/ingest/file_work.ts) of a server or worker process; absent in the
   * CLI and tests that read files in their own thread.
   */
  files?: FileWork;
}

/** Hono's environment type for every router. `user` is set by the auth guards. */
export type AppEnv = {
  Variables: {
    deps: Deps;
    user: SessionUser;
  };
};
