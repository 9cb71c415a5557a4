/**
 * The operations CLI: `deno task cli <command>`. Each command lives in its own module and
 * registers itself here.
 *
 * @module
 */
import { Command } from "commander";
import { registerInspect } from "./inspect.ts";
import { registerInventory } from "./inventory.ts";
import { registerMail } from "./mail.ts";

/** Builds the commander program with every subcommand registered. */
export function buildProgram(): Command {
  const program = new Command()
    .name("cli")
    .description("Source manager command line")
    .showHelpAfterError("(run with --help for usage)")
    .configureOutput({ outputError: (text, write) => write(text) });
  registerInspect(program);
  registerInventory(program);
  registerMail(program);
  return program;
}

if (import.meta.main) {
  await buildProgram().parseAsync(Deno.args, { from: "user" });
}
