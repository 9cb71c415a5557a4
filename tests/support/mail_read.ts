/** Reads back what the server mailed, from the test Dovecot (real delivery through Postfix). */
import PostalMime from "postal-mime";
import { connectImap, type MailUser, waitForMessages } from "../services/services.ts";

/** One delivered message as a user sees it. */
export interface DeliveredMail {
  subject: string;
  text: string;
  html: string;
}

/**
 * Waits until `count` messages are in the INBOX, then answers them all, oldest first, decoded.
 *
 * @example
 * const [reset] = await readMail(mailbox, 1);
 */
export async function readMail(user: MailUser, count: number): Promise<DeliveredMail[]> {
  await waitForMessages(user, count, 20_000);
  const imap = await connectImap(user);
  try {
    await imap.mailboxOpen("INBOX");
    const out: DeliveredMail[] = [];
    for await (const message of imap.fetch("1:*", { source: true })) {
      if (!message.source) continue;
      const parsed = await PostalMime.parse(message.source);
      out.push({
        subject: parsed.subject ?? "",
        text: parsed.text ?? "",
        html: typeof parsed.html === "string" ? parsed.html : "",
      });
    }
    return out;
  } finally {
    await imap.logout();
  }
}
