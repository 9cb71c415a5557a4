/**
 * `cli users list|show|create|update|disable` (Admin): the user management screens' calls
 * (/api/accounts/list, user/{id}, update/user).
 *
 * @module
 */
import type { Command } from "commander";
import type { UserAccount } from "../shared/contract/accounts.ts";
import { CliError } from "./client.ts";
import { action, type Ctx, details, pick, subcommand, table } from "./command.ts";

interface UserOptions {
  username?: string;
  email?: string;
  firstName?: string;
  lastName?: string;
  passwordStdin?: boolean;
  admin?: boolean;
  orderUser?: boolean;
  inventoryUser?: boolean;
  submissionUser?: boolean;
  notifications?: boolean;
  active?: boolean;
}

const FLAG_OPTIONS: [keyof UserOptions, keyof UserAccount][] = [
  ["admin", "isAdmin"],
  ["orderUser", "orderUser"],
  ["inventoryUser", "inventoryUser"],
  ["submissionUser", "submissionUser"],
  ["notifications", "sendNotificationsToEmail"],
  ["active", "activeStatus"],
];

async function findUser(ctx: Ctx, idOrName: string): Promise<UserAccount> {
  const list = await ctx.api.get<UserAccount[]>("/api/accounts/list");
  const found = pick(list, idOrName, "username", "user", "userId");
  return await ctx.api.get<UserAccount>(`/api/accounts/user/${found.userId}`);
}

const flagsOf = (u: UserAccount) =>
  [
    u.isAdmin && "admin",
    u.orderUser && "order",
    u.inventoryUser && "inventory",
    u.submissionUser && "submission",
  ].filter(Boolean).join(",");

async function save(ctx: Ctx, base: Partial<UserAccount>, options: UserOptions, userId: number) {
  const body: Record<string, unknown> = {
    userId,
    username: options.username ?? base.username,
    email: options.email ?? base.email,
    firstName: options.firstName ?? base.firstName ?? "",
    lastName: options.lastName ?? base.lastName ?? "",
  };
  for (const [option, field] of FLAG_OPTIONS) {
    body[field] = options[option] ?? base[field];
  }
  if (options.passwordStdin) {
    body.password = (await new Response(Deno.stdin.readable).text()).replace(/\r?\n$/, "");
  }
  return await ctx.api.post<UserAccount>("/api/accounts/update/user", body);
}

function flagOptions(command: Command): Command {
  return command
    .option("--email <address>", "e-mail address")
    .option("--first-name <name>", "first name")
    .option("--last-name <name>", "last name")
    .option("--password-stdin", "read a new password from stdin")
    .option("--admin", "role Admin").option("--no-admin", "role User")
    .option("--order-user", "order tracking flag").option("--no-order-user", "")
    .option("--inventory-user", "inventory flag").option("--no-inventory-user", "")
    .option("--submission-user", "order submission flag").option("--no-submission-user", "")
    .option("--notifications", "send notifications to the e-mail address")
    .option("--no-notifications", "");
}

const userText = (u: UserAccount) => details(u as unknown as Record<string, unknown>);

/** Registers `users ...`. */
export function registerUsers(program: Command): void {
  const users = program.command("users").description("user management (Admin)");
  subcommand(users, "list", "every user with role, flags and status", [
    "cli users list",
    "cli users list --json",
  ]).action(action(async (ctx) => {
    const list = await ctx.api.get<UserAccount[]>("/api/accounts/list");
    ctx.print(list, () =>
      table(
        list.map((u) => ({
          ...u,
          flags: flagsOf(u),
          active: u.activeStatus ? "yes" : "no",
        })),
        [["userId", "ID"], ["username", "USERNAME"], ["email", "E-MAIL"], ["flags", "FLAGS"], [
          "active",
          "ACTIVE",
        ], ["lastLogin", "LAST LOGIN"]],
      ));
  }));
  subcommand(users, "show <user>", "one user (by id or username)", [
    "cli users show alice",
  ]).action(action(async (ctx, idOrName: string) => {
    const user = await findUser(ctx, idOrName);
    ctx.print(user, () => userText(user));
  }));
  flagOptions(
    subcommand(users, "create <username>", "create a user (flags default: order user, active)", [
      "printf '%s' \"$NEW_PASSWORD\" | cli users create bob --email bob@example.com --inventory-user --password-stdin",
    ]),
  ).action(action(async (ctx, username: string, options: UserOptions) => {
    if (!options.email) throw new CliError("--email is required to create a user");
    const saved = await save(
      ctx,
      { orderUser: true, activeStatus: true },
      { ...options, username },
      0,
    );
    ctx.print(saved, () => `Created user ${saved.username} (id ${saved.userId}).`);
  }));
  flagOptions(
    subcommand(users, "update <user>", "change a user's fields and flags (others kept)", [
      "cli users update alice --no-inventory-user --submission-user",
    ]).option("--username <name>", "a new username").option("--active", "activate")
      .option("--no-active", "deactivate"),
  ).action(action(async (ctx, idOrName: string, options: UserOptions) => {
    const user = await findUser(ctx, idOrName);
    const saved = await save(ctx, user, options, user.userId);
    ctx.print(saved, () => `Updated user ${saved.username} (id ${saved.userId}).`);
  }));
  subcommand(
    users,
    "disable <user>",
    "deactivate a user: their sessions and tokens stop working",
    ["cli users disable bob"],
  ).action(action(async (ctx, idOrName: string) => {
    const user = await findUser(ctx, idOrName);
    const saved = await save(ctx, user, { active: false }, user.userId);
    ctx.print(saved, () => `Disabled user ${saved.username} (id ${saved.userId}).`);
  }));
}
