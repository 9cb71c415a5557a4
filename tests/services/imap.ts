/** IMAP helpers for tests, on the test Dovecot (imapflow client, doveadm for admin actions). */
import { Buffer } from "node:buffer";
import { ImapFlow } from "imapflow";
import { doveadm } from "./doveadm.ts";
import { mailboxDir, resolveMailUser, type UserRef } from "./mail_users.ts";
import { readCaPem, readServices, type ServicesInfo } from "./services_info.ts";

/** How an IMAP client reaches Dovecot: plain text, STARTTLS on the IMAP port, or IMAPS. */
export type ImapSecurity = "plain" | "starttls" | "tls";

/** Options for {@link connectImap}. */
export interface ConnectImapOptions {
  security?: ImapSecurity;
}

/**
 * Logs `user` in and returns the connected imapflow client; the caller must `logout()`.
 * TLS variants trust the test CA and keep certificate verification on.
 */
export async function connectImap(
  user: UserRef,
  options: ConnectImapOptions = {},
): Promise<ImapFlow> {
  const info = readServices();
  const { address, password } = resolveMailUser(user, info);
  const security = options.security ?? "plain";
  const client = new ImapFlow({
    host: info.host,
    port: security === "tls" ? info.ports.imaps : info.ports.imap,
    secure: security === "tls",
    doSTARTTLS: security === "starttls",
    auth: { user: address, pass: password },
    tls: { ca: readCaPem(info) },
    logger: false,
  });
  await client.connect();
  return client;
}

async function withImap<T>(user: UserRef, fn: (client: ImapFlow) => Promise<T>): Promise<T> {
  const client = await connectImap(user);
  try {
    return await fn(client);
  } finally {
    await client.logout().catch(() => client.close());
  }
}

/**
 * Waits until `user`'s INBOX holds at least `count` messages and returns how many it holds.
 * Throws after `timeoutMs` with the count reached and where to look.
 */
export async function waitForMessages(
  user: UserRef,
  count: number,
  timeoutMs = 10_000,
): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  return await withImap(user, async (client) => {
    while (true) {
      const status = await client.status("INBOX", { messages: true });
      const messages = status ? status.messages ?? 0 : 0;
      if (messages >= count) return messages;
      if (Date.now() >= deadline) {
        const info = readServices();
        throw new Error(
          `INBOX of ${resolveMailUser(user, info).address} has ${messages} message(s), ` +
            `expected ${count} within ${timeoutMs} ms (see ${info.logs.postfix} and ${info.logs.dovecot})`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
}

/** Where an appended message landed. */
export interface AppendedMessage {
  uid: number;
  uidValidity: bigint;
}

/** Stores a raw RFC 822 message in `user`'s `mailbox` (default INBOX) with IMAP APPEND. */
export async function appendMessage(
  user: UserRef,
  rawRfc822: string | Uint8Array,
  mailbox = "INBOX",
): Promise<AppendedMessage> {
  // IMAP wants CRLF line ends; test fixtures written in source usually have bare LF.
  const content = typeof rawRfc822 === "string"
    ? Buffer.from(rawRfc822.replace(/\r?\n/g, "\r\n"))
    : Buffer.from(rawRfc822);
  return await withImap(user, async (client) => {
    const res = await client.append(mailbox, content);
    if (!res || res.uid === undefined || res.uidValidity === undefined) {
      throw new Error(`APPEND to ${mailbox} gave no UID (Dovecot always sends UIDPLUS)`);
    }
    return { uid: res.uid, uidValidity: res.uidValidity };
  });
}

/** The current UIDVALIDITY of `user`'s `mailbox` (default INBOX). */
export async function getUidValidity(user: UserRef, mailbox = "INBOX"): Promise<bigint> {
  return await withImap(user, async (client) => {
    const status = await client.status(mailbox, { uidValidity: true });
    const uidValidity = status ? status.uidValidity : undefined;
    if (uidValidity === undefined) throw new Error(`no UIDVALIDITY for ${mailbox}`);
    return uidValidity;
  });
}

/**
 * Ends every open IMAP session of `user`, the way a dropped connection looks to a client.
 * Without a user it ends everyone's sessions, which disturbs other test files running in
 * parallel: pass the user.
 */
export async function dropImapConnections(user?: UserRef): Promise<void> {
  const info = readServices();
  const mask = user === undefined ? "*" : resolveMailUser(user, info).address;
  // doveadm kick exits 68 (EX_NOUSER) when nobody was connected, which is fine here.
  await doveadm(["kick", mask], [0, 68], info);
}

/** Options for {@link recreateMailbox}. */
export interface RecreateMailboxOptions {
  /** Put the old messages back into the new INBOX (with new UIDs). Default true. */
  keepMessages?: boolean;
}

/**
 * Deletes and recreates `user`'s maildir so INBOX gets a new UIDVALIDITY, as when a server
 * rebuilds a mailbox. Open sessions of the user are dropped first. Returns both UIDVALIDITYs.
 */
export async function recreateMailbox(
  user: UserRef,
  options: RecreateMailboxOptions = {},
): Promise<{ before: bigint; after: bigint }> {
  const info = readServices();
  const { address } = resolveMailUser(user, info);
  const before = await mailboxUidValidity(info, address);
  await dropImapConnections(address);
  const dir = mailboxDir(address, info);
  const aside = `${dir}.old-${Date.now()}`;
  await Deno.rename(dir, aside);
  try {
    let after = await mailboxUidValidity(info, address);
    // A fresh maildir takes the current time as UIDVALIDITY; within the same second as the old
    // one it would not change, so force it on (the mailbox is still empty).
    if (after <= before) {
      after = before + 1n;
      await doveadm(["mailbox", "update", "-u", address, "--uid-validity", `${after}`, "INBOX"], [
        0,
      ], info);
    }
    if (options.keepMessages ?? true) await restoreMessages(aside, dir, info);
    return { before, after };
  } finally {
    await Deno.remove(aside, { recursive: true });
  }
}

async function mailboxUidValidity(info: ServicesInfo, address: string): Promise<bigint> {
  const { stdout } = await doveadm(
    ["-f", "flow", "mailbox", "status", "-u", address, "uidvalidity", "INBOX"],
    [0],
    info,
  );
  const match = /uidvalidity=(\d+)/.exec(stdout);
  if (!match) throw new Error(`cannot read UIDVALIDITY of ${address}: ${stdout}`);
  return BigInt(match[1]);
}

// Message files dropped into new/ are picked up by Dovecot as fresh deliveries.
async function restoreMessages(from: string, to: string, info: ServicesInfo): Promise<void> {
  const { uid, gid } = await Deno.stat(info.maildirRoot);
  for (const sub of ["cur", "new"]) {
    let entries: Deno.DirEntry[] = [];
    try {
      entries = [...Deno.readDirSync(`${from}/${sub}`)];
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    }
    for (const entry of entries) {
      if (!entry.isFile) continue;
      const target = `${to}/new/${entry.name.split(":")[0]}`;
      await Deno.copyFile(`${from}/${sub}/${entry.name}`, target);
      await Deno.chown(target, uid, gid);
    }
  }
}
