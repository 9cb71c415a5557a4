/** What handlers need from the process, handed to them through the Hono context. */
import type { Config } from "./config.ts";
import type { Db } from "./db/client.ts";
import type { SessionUser } from "./auth/sessions.ts";
import type { SecretBox } from "./secrets.ts";
import type { SystemMailer } from "./mail/system_mail.ts";

/** Long-lived services of one process. */
export interface Deps {
  config: Config;
  db: Db;
  secrets: SecretBox;
  mailer: SystemMailer;
}

/** Hono's environment type for every router. `user` is set by the auth guards. */
export type AppEnv = {
  Variables: {
    deps: Deps;
    user: SessionUser;
  };
};
