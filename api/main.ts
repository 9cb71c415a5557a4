/**
 * `deno task start`: reads the configuration, opens and migrates the database, serves the API and
 * the web app on one origin.
 */
import { ConfigError, loadConfig } from "./config.ts";
import { startServer } from "./server.ts";
import { DbLockedError } from "./db/lock.ts";

const webDist = new URL("../web/dist/", import.meta.url).pathname;

try {
  const server = await startServer(loadConfig(), { webDist });
  console.log(`Serving on ${server.url}/`);
  const stop = async () => {
    await server.shutdown();
    Deno.exit(0);
  };
  Deno.addSignalListener("SIGINT", stop);
  Deno.addSignalListener("SIGTERM", stop);
} catch (error) {
  if (!(error instanceof ConfigError || error instanceof DbLockedError)) throw error;
  console.error(error.message);
  Deno.exit(1);
}
