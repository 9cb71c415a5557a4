/**
 * A long date-and-time form ("November 22, 2026 at 10:36:02 AM") in the browser's time zone;
 * blank for a missing or unreadable date (spec part 1, section 2, account page).
 */
export function longDateTime(value: string | null | undefined): string {
  if (!value) return "";
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return "";
  return date.toLocaleString("en-US", { dateStyle: "long", timeStyle: "medium" });
}
