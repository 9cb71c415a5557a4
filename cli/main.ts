/**
 * The operations CLI: `deno task cli <command>`. Every command that reads or changes application
 * state talks to the server's HTTP API with a personal access token (cli/client.ts); only
 * `inspect` and `inventory process --config` work on local files without a server. Each command
 * lives in its own module and registers itself here.
 *
 * @module
 */
import { Command, CommanderError } from "commander";
import { EXIT_HELP } from "./client.ts";
import { registerActivity } from "./activity.ts";
import { registerAuth } from "./auth.ts";
import { registerDashboard } from "./dashboard.ts";
import { registerInspect } from "./inspect.ts";
import { registerInventory } from "./inventory.ts";
import { registerMail } from "./mail.ts";
import { registerNotifications } from "./notifications.ts";
import { registerOrders } from "./orders.ts";
import { registerRuns } from "./runs.ts";
import { registerSources } from "./sources.ts";
import { registerUsers } from "./users.ts";

const CONNECTION_HELP = `
Server and token:
  --server URL, else SOURCE_MANAGER_URL, else http://127.0.0.1:$PORT (PORT default 8000).
  --token, else SOURCE_MANAGER_TOKEN (CI: from the secret store), else the token \`cli login\`
  stored in ~/.config/source-manager/credentials.json (mode 0600, one entry per server URL).
${EXIT_HELP}

Example:
  $ cli login --server http://127.0.0.1:8000 --username admin
  $ cli sources list order-tracking
  $ SOURCE_MANAGER_TOKEN=smt_... cli orders import sample.csv --source "Acme Supply" --json`;

/** Builds the commander program with every subcommand registered. */
export function buildProgram(jsonErrors = false): Command {
  const program = new Command()
    .name("cli")
    .description("Source manager command line")
    .option("--server <url>", "the server's URL (default: $SOURCE_MANAGER_URL, else local $PORT)")
    .option(
      "--token <token>",
      "a personal access token (default: $SOURCE_MANAGER_TOKEN, else cli login's)",
    )
    .showHelpAfterError("(run with --help for usage)")
    .exitOverride()
    .configureOutput({
      // With --json a usage error becomes a JSON document (main below), not commander's text.
      outputError: (text, write) => jsonErrors ? undefined : write(text),
    })
    .addHelpText("after", CONNECTION_HELP);
  registerAuth(program);
  registerUsers(program);
  registerSources(program);
  registerMail(program);
  registerRuns(program);
  registerOrders(program);
  registerInventory(program);
  registerNotifications(program);
  registerActivity(program);
  registerDashboard(program);
  registerInspect(program);
  addExamples(program);
  return program;
}

const GROUP_EXAMPLES: Record<string, string[]> = {
  users: ["cli users list", "cli users show alice --json"],
  sources: ["cli sources list order-tracking", "cli sources export email --out email.json"],
  mail: ["cli mail poll"],
  runs: ["cli runs list --limit 20", "cli runs show 42"],
  orders: ['cli orders import sample.csv --source "Acme Supply"', "cli orders search --po 4500"],
  inventory: ['cli inventory process stock.csv --source "Widgets" --dry-run', "cli inventory list"],
  notifications: ["cli notifications list"],
  activity: ["cli activity list --user alice --from 2026-11-01"],
  inspect: ["cli inspect supplier.xlsx --sheet Stock", "cli inspect orders.csv --json --all"],
};

/** Every command's --help ends with an example (the groups' and inspect's here). */
function addExamples(program: Command): void {
  for (const command of program.commands) {
    const examples = GROUP_EXAMPLES[command.name()];
    if (!examples) continue;
    command.addHelpText("after", `\nExample:\n${examples.map((e) => `  $ ${e}`).join("\n")}\n`);
  }
}

if (import.meta.main) {
  const json = Deno.args.includes("--json");
  try {
    await buildProgram(json).parseAsync(Deno.args, { from: "user" });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    if (json && error.exitCode !== 0) {
      const message = error.message.replace(/^error: /, "");
      console.log(JSON.stringify({ error: { message, exitCode: 1, status: null, errors: null } }));
    }
    Deno.exit(error.exitCode === 0 ? 0 : 1);
  }
}
