/** Texts the notification screens show for a setting (spec part 2, section 2). */
import { type NotificationSetting, WEEKDAY_NAMES } from "../contract/notifications.ts";

/** The "Includes" labels of a setting, in the order of the edit form's Content card. */
export function includesLabels(
  setting: Pick<
    NotificationSetting,
    | "includeStatusChanges"
    | "includeQuantityChanges"
    | "includeZeroQuantityAlerts"
    | "includeDailyBreakdown"
    | "includeItemDetails"
    | "includeErrorAlerts"
    | "includeSuccessAlerts"
  >,
): string[] {
  const labels: Array<[boolean, string]> = [
    [setting.includeStatusChanges, "Status Changes"],
    [setting.includeQuantityChanges, "Quantity Changes"],
    [setting.includeZeroQuantityAlerts, "Zero Quantity Alerts"],
    [setting.includeDailyBreakdown, "Daily Breakdown"],
    [setting.includeItemDetails, "Item Details"],
    [setting.includeErrorAlerts, "Error Alerts"],
    [setting.includeSuccessAlerts, "Success Alerts"],
  ];
  return labels.filter(([on]) => on).map(([, label]) => label);
}

/** The first `shown` labels and how many more there are ("first 2 plus a count"). */
export function splitLabels(labels: string[], shown: number): { shown: string[]; more: number } {
  return { shown: labels.slice(0, shown), more: Math.max(0, labels.length - shown) };
}

/** The weekday of a code: 1 Monday .. 7 Sunday; 0, null or out of range: "Any day". */
export function weekdayName(code: number | null | undefined): string {
  return code && code >= 1 && code <= 7 ? WEEKDAY_NAMES[code] : WEEKDAY_NAMES[0];
}

/** The Interval column: "Weekly (Monday)" for Weekly, else the interval itself. */
export function intervalLabel(
  setting: Pick<NotificationSetting, "notificationInterval" | "notificationDayOfWeek">,
): string {
  return setting.notificationInterval === "Weekly"
    ? `Weekly (${weekdayName(setting.notificationDayOfWeek)})`
    : setting.notificationInterval;
}
