/**
 * `login`, `logout`, `whoami`: personal access tokens for the CLI (docs/auth.md, "Personal access
 * tokens"). `login` proves the password once, creates a token named after this host, ends the
 * password session and stores the token for the server (cli/credentials.ts).
 *
 * @module
 */
import type { Command } from "commander";
import type { CreatedAccessToken } from "../shared/contract/accounts.ts";
import type { CurrentUser } from "../shared/contract/auth.ts";
import { ApiClient, CliError, EXIT, resolveConnection } from "./client.ts";
import { readCredentials, writeCredential } from "./credentials.ts";
import { action, type Ctx, printError, subcommand } from "./command.ts";

/** Reads a line from the terminal without echoing it. */
async function readHidden(question: string): Promise<string> {
  const encoder = new TextEncoder();
  await Deno.stderr.write(encoder.encode(question));
  if (!Deno.stdin.isTerminal()) return (await readLine()) ?? "";
  Deno.stdin.setRaw(true);
  const bytes: number[] = [];
  try {
    const buffer = new Uint8Array(1);
    while (true) {
      const n = await Deno.stdin.read(buffer);
      if (n === null) break;
      const b = buffer[0];
      if (b === 13 || b === 10) break;
      if (b === 3) throw new CliError("cancelled");
      if (b === 127 || b === 8) bytes.pop();
      else bytes.push(b);
    }
  } finally {
    Deno.stdin.setRaw(false);
    await Deno.stderr.write(encoder.encode("\n"));
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/** One line of stdin (without its line break), or null at the end. */
async function readLine(): Promise<string | null> {
  const bytes: number[] = [];
  const buffer = new Uint8Array(1);
  while (true) {
    const n = await Deno.stdin.read(buffer);
    if (n === null) return bytes.length ? new TextDecoder().decode(new Uint8Array(bytes)) : null;
    if (buffer[0] === 10) break;
    bytes.push(buffer[0]);
  }
  return new TextDecoder().decode(new Uint8Array(bytes)).replace(/\r$/, "");
}

/** All of stdin, without the trailing line break (`--password-stdin`). */
async function readAllStdin(): Promise<string> {
  const text = await new Response(Deno.stdin.readable).text();
  return text.replace(/\r?\n$/, "");
}

/** Cookies of a response as a `Cookie` header value. */
function cookieHeader(headers: Headers): string {
  return headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
}

interface LoginOptions {
  username?: string;
  passwordStdin?: boolean;
  name?: string;
  json?: boolean;
}

async function login(command: Command, options: LoginOptions): Promise<number> {
  const json = options.json === true;
  try {
    const connection = await resolveConnection(command.optsWithGlobals());
    const api = new ApiClient({ server: connection.server });
    let username = options.username;
    if (!username) {
      if (options.passwordStdin) throw new CliError("--password-stdin needs --username");
      await Deno.stderr.write(new TextEncoder().encode("Username: "));
      username = (await readLine())?.trim() ?? "";
    }
    if (!username) throw new CliError("a username is required");
    const password = options.passwordStdin ? await readAllStdin() : await readHidden("Password: ");
    if (!password) throw new CliError("a password is required");
    let session;
    try {
      session = await api.raw<{ username: string }>("POST", "/auth/login", {
        json: { username, password },
        anonymous: true,
      });
    } catch (error) {
      if (error instanceof CliError && error.status === 401) {
        throw new CliError("invalid username or password", EXIT.unauthenticated, 401);
      }
      throw error;
    }
    const cookie = cookieHeader(session.headers);
    const name = (options.name ?? `cli on ${Deno.hostname()}`).slice(0, 100);
    let created: CreatedAccessToken;
    try {
      created = await api.request<CreatedAccessToken>("POST", "/api/accounts/tokens", {
        json: { name },
        headers: { cookie },
      });
    } finally {
      // The password session was only the way to the token.
      await api.request("POST", "/auth/logout", { headers: { cookie } }).catch(() => {});
    }
    await writeCredential(connection.server, {
      token: created.token,
      tokenId: created.id,
      username: session.body.username,
      createdAt: created.createdAt,
    });
    const result = {
      server: connection.server,
      username: session.body.username,
      tokenId: created.id,
      tokenName: created.name,
    };
    if (json) console.log(JSON.stringify(result, null, 2));
    else {
      console.log(
        `Logged in to ${connection.server} as ${result.username}: token "${created.name}" stored.`,
      );
    }
    return EXIT.ok;
  } catch (error) {
    return printError(error, json);
  }
}

async function logout(ctx: Ctx): Promise<number> {
  const server = ctx.api.connection.server;
  const stored = (await readCredentials())[server];
  if (!ctx.api.connection.token) {
    throw new CliError(`not logged in to ${server}`, EXIT.unauthenticated);
  }
  let revoked = true;
  try {
    await ctx.api.request("DELETE", "/api/accounts/tokens/current");
  } catch (error) {
    // A token revoked already (on the account page) is forgotten all the same.
    if (!(error instanceof CliError && error.exitCode === EXIT.unauthenticated)) throw error;
    revoked = false;
  }
  if (stored && stored.token === ctx.api.connection.token) await writeCredential(server, null);
  ctx.print(
    { server, revoked, forgotten: Boolean(stored) },
    () =>
      `${revoked ? "Token revoked" : "The token was revoked already"}${
        stored ? " and forgotten" : ""
      }: logged out of ${server}.`,
  );
  return EXIT.ok;
}

async function whoami(ctx: Ctx): Promise<number> {
  const user = await ctx.api.get<CurrentUser>("/auth/user");
  const flags = (["orderUser", "inventoryUser", "submissionUser"] as const).filter((f) =>
    user[f] === "True"
  );
  ctx.print(
    { server: ctx.api.connection.server, ...user },
    () =>
      `${user.username} (id ${user.userId}, ${user.role}) on ${ctx.api.connection.server}; flags: ${
        flags.join(", ") || "none"
      }`,
  );
  return EXIT.ok;
}

/** Registers `login`, `logout` and `whoami`. */
export function registerAuth(program: Command): void {
  subcommand(program, "login", "log in with a password and store a personal access token", [
    "cli login --server https://sm.example.com --username alice",
    "printf '%s' \"$PASSWORD\" | cli login --username ci --password-stdin --json",
  ])
    .option("--username <name>", "the username (asked when not given)")
    .option("--password-stdin", "read the password from stdin instead of asking")
    .option("--name <token-name>", "the token's name (default: cli on <host name>)")
    .action((options: LoginOptions, command: Command) =>
      login(command, options).then((code) => void (Deno.exitCode = code))
    );
  subcommand(program, "logout", "revoke the token on the server and forget it here", [
    "cli logout",
  ]).action(action((ctx) => logout(ctx)));
  subcommand(program, "whoami", "the user behind the token, with their role and flags", [
    "cli whoami --json",
  ]).action(action((ctx) => whoami(ctx)));
}
