/**
 * Test mail accounts: one Dovecot passwd-file per address in `passwdDir`, so an account added at
 * run time can log in at once (Dovecot re-reads a changed file at most once a second).
 */
import { doveadm } from "./doveadm.ts";
import { type MailUser, readServices, type ServicesInfo } from "./services_info.ts";

/** A user given by its address, by its local part, or as full credentials. */
export type UserRef = MailUser | string;

const LOCAL_PART = /^[a-z0-9][a-z0-9._+-]*$/;

/** Normalises `name` or `name@domain` to the full, lower-case address in the test domain. */
export function mailAddress(name: string, info: ServicesInfo = readServices()): string {
  const lower = name.trim().toLowerCase();
  const [local, domain = info.domain, ...rest] = lower.split("@");
  if (rest.length > 0 || !LOCAL_PART.test(local) || domain !== info.domain) {
    throw new Error(
      `"${name}" is not a valid test mail user (expected name or name@${info.domain})`,
    );
  }
  return `${local}@${domain}`;
}

/**
 * Creates the IMAP/SMTP account `name@<domain>` (or changes its password) and resolves once
 * Dovecot accepts the credentials; a password is generated when none is given. Mail already
 * delivered to that address stays: every address of the domain has a mailbox, account or not.
 */
export async function addMailUser(name: string, password?: string): Promise<MailUser> {
  const info = readServices();
  const address = mailAddress(name, info);
  const pass = password ?? crypto.randomUUID().replaceAll("-", "");
  if (pass.length === 0 || /[:\s]/.test(pass)) {
    throw new Error("test mail passwords must be non-empty, without ':' or whitespace");
  }
  const file = `${info.passwdDir}/${address}`;
  const { gid } = Deno.statSync(info.passwdDir);
  Deno.writeTextFileSync(`${file}.new`, `${address}:{PLAIN}${pass}::::::\n`, { mode: 0o640 });
  // Dovecot's auth process runs unprivileged and reads the file through the directory's group.
  Deno.chownSync(`${file}.new`, 0, gid);
  Deno.renameSync(`${file}.new`, file);
  const deadline = Date.now() + 3_000;
  while ((await doveadm(["auth", "test", address, pass], [0, 77], info)).code !== 0) {
    if (Date.now() > deadline) {
      throw new Error(`Dovecot does not accept the new password of ${address}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { address, password: pass };
}

/** Full credentials for a user reference; a bare name or address is looked up. */
export function resolveMailUser(user: UserRef, info: ServicesInfo = readServices()): MailUser {
  if (typeof user !== "string") return user;
  const address = mailAddress(user, info);
  let line: string;
  try {
    line = Deno.readTextFileSync(`${info.passwdDir}/${address}`);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) {
      throw new Error(`no test mail account ${address}; create it with addMailUser()`);
    }
    throw err;
  }
  const password = /^[^:]+:\{PLAIN\}([^:]*):/.exec(line)?.[1];
  if (password === undefined) throw new Error(`unreadable passwd-file for ${address}`);
  return { address, password };
}

/** The user's maildir on the local filesystem (it exists once mail arrived or they logged in). */
export function mailboxDir(user: UserRef, info: ServicesInfo = readServices()): string {
  const address = typeof user === "string" ? mailAddress(user, info) : user.address;
  return `${info.maildirRoot}/${address.split("@")[0]}/Maildir`;
}
