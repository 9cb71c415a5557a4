/**
 * A real server for tests: fresh database (in-memory PGlite, or a new database on the PostgreSQL
 * of `DATABASE_URL`), real HTTP on a random loopback port, the built web app when present.
 */
import { type Config, loadConfig } from "../../api/config.ts";
import type { Db } from "../../api/db/client.ts";
import { hashPassword } from "../../api/auth/password.ts";
import { type RunningServer, startServer } from "../../api/server.ts";
import { freshPostgresDatabase } from "./db.ts";

export const ADMIN_PASSWORD = "admin-test-password";
/** What the tests admit of the outbound policy: their loopback servers. */
export const TEST_OUTBOUND_ALLOW = "127.0.0.0/8,::1";
const webDist = new URL("../../web/dist/", import.meta.url).pathname;

/** Flags and fields of a user made for a test. */
export interface TestUserOptions {
  username: string;
  password: string;
  email?: string;
  isAdmin?: boolean;
  orderUser?: boolean;
  inventoryUser?: boolean;
  submissionUser?: boolean;
  activeStatus?: boolean;
}

/** A started test server. */
export interface TestServer {
  url: string;
  db: Db;
  config: Config;
  server: RunningServer;
  /** Inserts a user directly and returns its id. */
  createUser(options: TestUserOptions): Promise<number>;
  close(): Promise<void>;
}

/** The configuration every test server starts from (the environment, then test settings). */
export function testConfig(overrides: Record<string, string> = {}): Config {
  const base = loadConfig();
  return loadConfig({
    ...Object.fromEntries(Object.entries(base).map(([k, v]) => [k, String(v)])),
    HOST: "127.0.0.1",
    PORT: "0",
    DATA_DIR: "memory://",
    ADMIN_PASSWORD,
    // One JSON line per request would drown the test output; LOG_LEVEL=info shows them.
    LOG_LEVEL: Deno.env.get("LOG_LEVEL") || "warn",
    // The loopback mail, SFTP and token servers of the tests (docs/outbound.md).
    OUTBOUND_ALLOW: TEST_OUTBOUND_ALLOW,
    ...overrides,
  });
}

/**
 * Starts a server on a fresh database with user `admin` / `ADMIN_PASSWORD`, without background
 * jobs unless `jobs` is true.
 *
 * @example
 * const t = await startTestServer();
 * try { await fetch(`${t.url}/health`); } finally { await t.close(); }
 */
export async function startTestServer(
  options: { env?: Record<string, string>; jobs?: boolean } = {},
): Promise<TestServer> {
  let config = testConfig(options.env);
  const database = config.DATABASE_URL ? await freshPostgresDatabase(config.DATABASE_URL) : null;
  if (database) config = { ...config, DATABASE_URL: database.url };
  // Background jobs only when asked: most tests poll and process synchronously.
  const server = await startServer(config, { webDist, log: () => {}, jobs: options.jobs ?? false });
  const { db } = server.deps;
  return {
    url: server.url,
    db,
    config,
    server,
    async createUser(user) {
      const [row] = await db.query<{ id: number }>(
        `insert into users (username, password_hash, email, is_admin, order_user, inventory_user,
                            submission_user, active_status)
         values ($1, $2, $3, $4, $5, $6, $7, $8) returning id`,
        [
          user.username,
          await hashPassword(user.password),
          user.email ?? "",
          user.isAdmin ?? false,
          user.orderUser ?? false,
          user.inventoryUser ?? false,
          user.submissionUser ?? false,
          user.activeStatus ?? true,
        ],
      );
      return row.id;
    },
    async close() {
      await server.shutdown();
      await database?.drop();
    },
  };
}
