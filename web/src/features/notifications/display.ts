/** How the notification pages show a setting's source and its last sending. */
import type { NotificationSetting } from "./api.ts";

/** The name shown for a setting about every source of its type. */
export const ALL_SOURCES = "All sources";

/** The setting's source name, or {@link ALL_SOURCES}. */
export function displayName(setting: NotificationSetting): string {
  return setting.sourceName || ALL_SOURCES;
}

/** "Nov 23, 2026, 7:00 AM", or "Never". */
export function lastSentText(value: string | null): string {
  if (!value) return "Never";
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return "Never";
  return date.toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" });
}
