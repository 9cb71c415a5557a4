/**
 * `deno task start`: reads the configuration, opens and migrates the database, serves the API and
 * the web app on one origin. SIGTERM/SIGINT stop it gracefully (api/shutdown.ts).
 */
import { ConfigError, configWarnings, loadConfig } from "./config.ts";
import { startServer } from "./server.ts";
import { DbLockedError } from "./db/lock.ts";
import { log } from "./http/log.ts";
import { onStopSignal } from "./shutdown.ts";

const webDist = new URL("../web/dist/", import.meta.url).pathname;

try {
  const config = loadConfig();
  const server = await startServer(config, { webDist });
  log.info(`Serving on ${server.url}/`, { url: `${server.url}/` });
  // Once per start: the admin's pages repeat it (GET /api/accounts/config-warnings).
  for (const warning of configWarnings(config)) log.warn(warning);
  onStopSignal("server", () => server.shutdown());
} catch (error) {
  if (!(error instanceof ConfigError || error instanceof DbLockedError)) throw error;
  console.error(error.message);
  Deno.exit(1);
}
