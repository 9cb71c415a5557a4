/**
 * `cli notifications list|test|webhook|test-webhook`: notification settings
 * (/api/notification-settings) and their webhooks (docs/notifications.md, "Webhooks").
 *
 * @module
 */
import type { Command } from "commander";
import { sourceTypeLabel } from "../shared/catalog/display_names.ts";
import { WEBHOOK_PRESETS, type WebhookPreset } from "../shared/contract/notifications.ts";
import { CliError } from "./client.ts";
import { action, parseId, subcommand, table } from "./command.ts";

/** All of stdin as lines (the webhook's address, then its secret), without line breaks. */
async function stdinLines(): Promise<string[]> {
  const text = await new Response(Deno.stdin.readable).text();
  return text.split(/\r?\n/);
}

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
          webhook: n.webhookPreset ? `${n.webhookPreset} ${n.webhookHost}` : "",
        })),
        [
          ["id", "ID"],
          ["name", "NAME"],
          ["sourceType", "FOR"],
          ["sourceName", "SOURCE"],
          ["notificationInterval", "INTERVAL"],
          ["enabled", "ENABLED"],
          ["webhook", "WEBHOOK"],
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
  subcommand(
    notifications,
    "webhook <id>",
    "set or remove a setting's webhook; the address (and with --secret the signing secret on " +
      "the next line) is read from stdin, so it stays out of the shell history",
    [
      'printf \'%s\\n%s\' "$SLACK_URL" "$SIGNING_KEY" | cli notifications webhook 4 --preset slack --secret',
      "cli notifications webhook 4 --preset none",
    ],
  )
    .requiredOption("--preset <preset>", "json, slack, teams, or none to remove the webhook")
    .option("--secret", "read an HMAC-SHA256 signing secret from stdin's second line")
    .action(action(async (ctx, id: string, options: { preset: string; secret?: boolean }) => {
      const preset = (options.preset === "none" ? "" : options.preset) as WebhookPreset;
      if (!(WEBHOOK_PRESETS as readonly string[]).includes(preset)) {
        throw new CliError("--preset must be json, slack, teams or none");
      }
      const path = `/api/notification-settings/${parseId(id, "a notification setting id")}`;
      const setting = await ctx.api.get<Record<string, unknown>>(path);
      let webhookUrl = "";
      let webhookSecret = "";
      if (preset !== "") {
        const [url = "", secret = ""] = await stdinLines();
        webhookUrl = url.trim();
        if (!webhookUrl) throw new CliError("give the webhook's address on stdin");
        webhookSecret = options.secret ? secret : "";
        if (options.secret && !webhookSecret) {
          throw new CliError("--secret: give the signing secret on stdin's second line");
        }
      }
      const saved = await ctx.api.request<Record<string, unknown>>("PUT", path, {
        json: { ...setting, webhookPreset: preset, webhookUrl, webhookSecret },
      });
      ctx.print(
        saved,
        () =>
          saved.webhookPreset
            ? `Webhook set: ${saved.webhookPreset} to ${saved.webhookHost}` +
              (saved.webhookSecret ? ", signed" : ", not signed")
            : "Webhook removed",
      );
    }));
  subcommand(notifications, "test-webhook <id>", "post a test message to a setting's webhook", [
    "cli notifications test-webhook 4",
  ]).action(action(async (ctx, id: string) => {
    const result = await ctx.api.post<{ success: boolean; message: string }>(
      `/api/notification-settings/${parseId(id, "a notification setting id")}/test-webhook`,
    );
    ctx.print(result, () => result.message);
    return result.success ? 0 : 1;
  }));
}
