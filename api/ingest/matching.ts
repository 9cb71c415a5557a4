/**
 * Which feed sources want a message, and which of its attachments each one processes
 * (docs/design.md section 6, "Mailbox ingestion"). Pure functions: no IMAP, no database.
 */
import { globMatch } from "../../shared/patterns/glob.ts";
import type { MailRule } from "./feeds.ts";

/** The parts of a message that matching looks at. */
export interface MessageFacts {
  /** Sender addresses (From), bare. */
  from: string[];
  subject: string;
}

/** One attachment of a message. */
export interface AttachmentFacts {
  filename: string;
  size: number;
}

const norm = (text: string) => text.trim().toLowerCase();

/**
 * True when the sender is the rule's `fromEmail` (case-insensitive; a list separated by commas or
 * semicolons allows several) and the subject equals `subjectValue`, or contains it with
 * `containsNotExact` (both case-insensitive, trimmed).
 */
export function ruleMatches(rule: MailRule, message: MessageFacts): boolean {
  const wanted = rule.fromEmail.split(/[,;]/).map(norm).filter(Boolean);
  if (!wanted.length || !message.from.some((address) => wanted.includes(norm(address)))) {
    return false;
  }
  const subject = norm(message.subject);
  const value = norm(rule.subjectValue);
  return rule.containsNotExact ? subject.includes(value) : subject === value;
}

const TYPE_ALIASES: Record<string, string[]> = {
  excel: ["xls", "xlsx"],
  spreadsheet: ["xls", "xlsx"],
  text: ["txt"],
};

/** The extensions a `fileType` names: "CSV, XLSX" → ["csv", "xlsx"]; empty means any. */
export function fileTypes(fileType: string): string[] {
  return fileType.split(/[\s,;/|]+/).map((t) => norm(t).replace(/^\*?\./, "")).filter(Boolean)
    .flatMap((t) => TYPE_ALIASES[t] ?? [t]);
}

/** The extension of a file name, lower case, without the dot. */
export function extensionOf(filename: string): string {
  const dot = filename.lastIndexOf(".");
  return dot > 0 ? filename.slice(dot + 1).toLowerCase() : "";
}

/** How an attachment was chosen, best first. */
export type MatchKind = "exact name" | "name contains" | "wildcard" | "type only";

/** The attachment a rule processes and why; null when none fits. */
export interface AttachmentChoice {
  index: number;
  kind: MatchKind;
}

/**
 * The best attachment for a rule: of those of an accepted type, an exact name (with or without
 * its extension), then a name containing the pattern, then a `*` wildcard match, then the first of
 * the accepted type. Ties go to the earlier attachment.
 *
 * @example
 * ```ts ignore
 * chooseAttachment({ ...rule, attachmentName: "stock", fileType: "CSV" },
 *   [{ filename: "logo.png", size: 1 }, { filename: "Stock.csv", size: 9 }]);
 * // { index: 1, kind: "exact name" }
 * ```
 */
export function chooseAttachment(
  rule: Pick<MailRule, "attachmentName" | "fileType">,
  attachments: AttachmentFacts[],
): AttachmentChoice | null {
  const types = fileTypes(rule.fileType);
  const candidates = attachments
    .map((a, index) => ({ index, name: a.filename.trim() }))
    .filter((a) => a.name && (!types.length || types.includes(extensionOf(a.name))));
  if (!candidates.length) return null;
  const pattern = norm(rule.attachmentName);
  if (pattern) {
    const stem = (name: string) => name.replace(/\.[^.]*$/, "");
    const tests: [MatchKind, (name: string) => boolean][] = [
      ["exact name", (name) => name === pattern || stem(name) === pattern],
      ["name contains", (name) => !pattern.includes("*") && name.includes(pattern)],
      // A glob matcher, not a regex: `*a*a*a*b` must not backtrack (docs/limits.md "Patterns").
      ["wildcard", (name) => pattern.includes("*") && globMatch(pattern, name)],
    ];
    for (const [kind, test] of tests) {
      const found = candidates.find((a) => test(a.name.toLowerCase()));
      if (found) return { index: found.index, kind };
    }
  }
  return { index: candidates[0].index, kind: "type only" };
}
