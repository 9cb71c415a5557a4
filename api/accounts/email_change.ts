/**
 * The mail to the old address when an account's e-mail address changes (issue 28): whoever
 * changed it, the owner hears of it where they still read mail. Sent by a job, like the reset
 * mail, so the change answers at once and a mail server hiccup is retried. No link: nothing in
 * it needs one, and without `PUBLIC_URL` there would be none to give.
 */
import type { Db } from "../db/client.ts";
import type { JobHandler } from "../jobs/handlers.ts";
import { enqueueJob } from "../jobs/queue.ts";

/** Job kind of the notice to the old address. */
export const EMAIL_CHANGED_JOB = "email-changed-mail";

/** What the notice says. */
export interface EmailChange {
  username: string;
  oldEmail: string;
  newEmail: string;
  /** True when an admin changed someone else's address. */
  byAdmin: boolean;
  /** ISO 8601. */
  at: string;
}

/** Enqueues the notice when the address really changed and the old one was set. */
export async function noticeEmailChange(db: Db, change: Omit<EmailChange, "at">): Promise<void> {
  if (!change.oldEmail || change.oldEmail.toLowerCase() === change.newEmail.toLowerCase()) return;
  await enqueueJob(db, {
    kind: EMAIL_CHANGED_JOB,
    payload: { ...change, at: new Date().toISOString() },
    maxAttempts: 5,
  });
}

/** The text of the notice. */
export function emailChangedText(change: EmailChange): string {
  const who = change.byAdmin ? "An administrator changed" : "Someone signed in as you changed";
  const to = change.newEmail ? `to ${change.newEmail}` : "to no address";
  return `Hello ${change.username},\n\n${who} the e-mail address of your account ` +
    `"${change.username}" from ${change.oldEmail} ${to} on ` +
    `${change.at.slice(0, 16).replace("T", " ")} UTC. Password-reset and notification mails ` +
    `now go to the new address.\n\nIf you did not ask for this, ask your administrator at once ` +
    `to restore your address and reset your password.\n`;
}

/** The job handler of `EMAIL_CHANGED_JOB`: one mail to the old address. */
export const emailChangedJob: JobHandler = {
  async run(deps, job) {
    // Without a mail server there is no one to tell; retrying would not change that.
    if (!deps.mailer.configured) return;
    const change = job.payload as unknown as EmailChange;
    await deps.mailer.send({
      to: change.oldEmail,
      subject: "Your e-mail address was changed",
      text: emailChangedText(change),
    });
  },
};
