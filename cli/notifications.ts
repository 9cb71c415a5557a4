/**
 * `cli notifications list|test`: notification settings (/api/notification-settings).
 *
 * @module
 */
import type { Command } from "commander";
import { sourceTypeLabel } from "../shared/catalog/display_names.ts";
import { action, parseId, subcommand, table } from "./command.ts";

/** Registers `notifications ...`. */
export function registerNotifications(program: Command): void {
  const notifications = program.command("notifications").description("notification settings");
  subcommand(notifications, "list", "every notification setting", [
    "cli notifications list",
  ]).action(action(async (ctx) => {
    const list = await ctx.api.get<Record<string, unknown>[]>("/api/notification-settings");
    ctx.print(list, () =>
      table(
        list.map((n) => ({
          ...n,
          sourceType: sourceTypeLabel(String(n.sourceType)),
          enabled: n.notificationEnabled ? "yes" : "no",
        })),
        [
          ["id", "ID"],
          ["name", "NAME"],
          ["sourceType", "FOR"],
          ["sourceName", "SOURCE"],
          ["notificationInterval", "INTERVAL"],
          ["enabled", "ENABLED"],
          ["lastNotificationSent", "LAST SENT"],
        ],
      ));
  }));
  subcommand(notifications, "test <id>", "send a test notification for a setting now", [
    "cli notifications test 4",
  ]).action(action(async (ctx, id: string) => {
    ctx.progress("sending");
    const result = await ctx.api.post<Record<string, unknown>>(
      `/api/notification-settings/${parseId(id, "a notification setting id")}/test`,
    );
    ctx.print(
      result,
      () =>
        typeof result?.message === "string"
          ? result.message
          : `Test notification sent: ${JSON.stringify(result)}`,
    );
    return result?.success === false ? 1 : 0;
  }));
}
