/** How a mailbox is watched, in the words of the list and the edit page (docs/mail_ingestion.md). */
import type { EmailSource } from "./api.ts";

/**
 * "Listening (IDLE)", "Polling every N s (server has no IDLE)" or "Polling every N s"; null for
 * an inactive source (not read at all) or an answer without the field.
 *
 * @example
 * ```ts
 * import { watchText } from "./watch_text.ts";
 * const watch = { mode: "no-idle" as const, pollSeconds: 300, lastCheckAt: null };
 * console.assert(watchText({ activeStatus: true, watch }) === "Polling every 300 s (server has no IDLE)");
 * ```
 */
export function watchText(source: Pick<EmailSource, "activeStatus" | "watch">): string | null {
  const { watch } = source;
  if (!watch || !source.activeStatus) return null;
  if (watch.mode === "listening") return "Listening (IDLE)";
  const every = `Polling every ${watch.pollSeconds} s`;
  return watch.mode === "no-idle" ? `${every} (server has no IDLE)` : every;
}
