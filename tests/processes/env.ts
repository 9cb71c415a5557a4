/**
 * The settings every process of the process tests shares (one database, one secret key, the
 * loopback mail servers, quick polls and ticks), so the test and the processes it starts agree.
 */
import { generateSecretKey } from "../../api/secrets.ts";
import { TEST_OUTBOUND_ALLOW } from "../support/server.ts";
import { readServices } from "../services/services.ts";

/**
 * `database` (DATABASE_URL or DATA_DIR) with the shared settings and `overrides` on top.
 *
 * @example
 * const env = processEnv({ DATABASE_URL: url }, { LOG_LEVEL: "warn" });
 */
export function processEnv(
  database: Record<string, string>,
  overrides: Record<string, string> = {},
): Record<string, string> {
  return {
    ...database,
    SECRET_KEY: generateSecretKey(),
    ADMIN_PASSWORD: "admin-test-password",
    MAIL_CA_FILE: readServices().caPath,
    OUTBOUND_ALLOW: TEST_OUTBOUND_ALLOW,
    MAIL_POLL_SECONDS: "5",
    JOBS_TICK_SECONDS: "1",
    HOST: "127.0.0.1",
    ...overrides,
  };
}
