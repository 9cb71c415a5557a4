/**
 * The subject and body of a vendor's e-mail. The wildcards `{poNumbers}`, `{originalSubject}`
 * and `{originalBody}` work only in forwarded e-mails (spec section 2, vendor edit "Email
 * Configuration"): in an e-mail that is not a forward they are left as typed, as the screen's
 * note warns.
 */

/** What the wildcards stand for. */
export interface ForwardFacts {
  /** PO numbers of the rows sent, distinct, in file order. */
  poNumbers: readonly string[];
  originalSubject: string;
  /** The original message's text body (HTML bodies are reduced to text by the caller). */
  originalBody: string;
}

const WILDCARDS = /\{(poNumbers|originalSubject|originalBody)\}/gi;

/**
 * Replaces the wildcards (names matched case-insensitively) in one text, in a single pass, so a
 * subject that itself contains "{originalBody}" is not expanded again.
 *
 * @example replaceWildcards("POs {poNumbers}", { poNumbers: ["1", "2"], originalSubject: "", originalBody: "" })
 *   // "POs 1, 2"
 */
export function replaceWildcards(text: string, facts: ForwardFacts): string {
  return text.replace(WILDCARDS, (_all, name: string) => {
    switch (name.toLowerCase()) {
      case "ponumbers":
        return facts.poNumbers.join(", ");
      case "originalsubject":
        return facts.originalSubject;
      default:
        return facts.originalBody;
    }
  });
}

/**
 * The subject and body to send: wildcards replaced when the e-mail is a forward, left as typed
 * otherwise. A subject is kept on one line (line breaks of the original become spaces).
 */
export function vendorMailText(
  subject: string,
  body: string,
  forwarded: boolean,
  facts: ForwardFacts,
): { subject: string; body: string } {
  if (!forwarded) return { subject, body };
  return {
    subject: replaceWildcards(subject, {
      ...facts,
      originalSubject: facts.originalSubject.replace(/\s*[\r\n]+\s*/g, " "),
      originalBody: facts.originalBody.replace(/\s*[\r\n]+\s*/g, " ").slice(0, 500),
    }).trim(),
    body: replaceWildcards(body, facts),
  };
}

/** Headers of the original message shown in a forward. */
export interface OriginalMessage {
  from: string;
  to: string;
  date: string;
  subject: string;
  text: string;
}

/**
 * The body of a forwarded e-mail: the vendor's text (wildcards replaced by the caller), then
 * the original message under the usual "Forwarded message" block.
 */
export function forwardedBody(vendorText: string, original: OriginalMessage): string {
  return [
    vendorText.trimEnd(),
    "",
    "---------- Forwarded message ---------",
    `From: ${original.from}`,
    `Date: ${original.date}`,
    `Subject: ${original.subject}`,
    `To: ${original.to}`,
    "",
    original.text,
  ].join("\n");
}
