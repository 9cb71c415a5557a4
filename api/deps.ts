/** What handlers need from the process, handed to them through the Hono context. */
import type { Config } from "./config.ts";
import type { Db } from "./db/client.ts";
import type { SessionUser } from "./auth/sessions.ts";
import type { SecretBox } from "./secrets.ts";
import type { SystemMailer } from "./mail/system_mail.ts";
import type { FileWork } from "./ingest/file_work.ts";

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
