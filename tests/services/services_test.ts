/** Proves the loopback test servers work end to end; needs tests/services/up.sh to have run. */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { ImapFlow } from "imapflow";
// @ts-types="@types/nodemailer"
import nodemailer from "nodemailer";
import {
  addMailUser,
  appendMessage,
  connectImap,
  connectSftp,
  dropImapConnections,
  getUidValidity,
  mailboxDir,
  readServices,
  recreateMailbox,
  sendMail,
  waitForMessages,
} from "./services.ts";

const info = readServices();
const unique = () => `t${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;

function rawMessage(subject: string): string {
  return [
    `From: sender@${info.domain}`,
    `To: someone@${info.domain}`,
    `Subject: ${subject}`,
    `Message-ID: <${unique()}@${info.domain}>`,
    `Date: ${new Date().toUTCString()}`,
    "",
    "body",
    "",
  ].join("\n");
}

/** All messages of a maildir as one text; empty while Dovecot has not created it yet. */
function maildirText(dir: string): string {
  const texts: string[] = [];
  for (const sub of ["new", "cur"]) {
    try {
      for (const entry of Deno.readDirSync(`${dir}/${sub}`)) {
        texts.push(Deno.readTextFileSync(`${dir}/${sub}/${entry.name}`));
      }
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    }
  }
  return texts.join("\n");
}

Deno.test("IMAP login works in plain text, with STARTTLS and over IMAPS", async () => {
  for (const security of ["plain", "starttls", "tls"] as const) {
    const client = await connectImap(info.mailUsers[0], { security });
    assert.equal(client.authenticated !== false, true, security);
    assert.equal(client.secureConnection, security !== "plain", security);
    await client.logout();
  }
});

Deno.test("TLS is really verified: without the test CA the certificate is refused", async () => {
  const imap = new ImapFlow({
    host: info.host,
    port: info.ports.imaps,
    secure: true,
    auth: { user: info.mailUsers[0].address, pass: info.mailUsers[0].password },
    logger: false,
  });
  imap.on("error", () => {});
  await assert.rejects(imap.connect(), /certificate|issuer|unknown/i);
  const smtp = nodemailer.createTransport({
    host: info.host,
    port: info.ports.submission,
    requireTLS: true,
    auth: { user: info.mailUsers[0].address, pass: info.mailUsers[0].password },
  });
  try {
    await assert.rejects(smtp.verify(), /certificate|issuer|unknown/i);
  } finally {
    smtp.close();
  }
});

Deno.test("IMAP login with a wrong password is refused", async () => {
  await assert.rejects(
    connectImap({ address: info.mailUsers[0].address, password: "wrong" }),
  );
});

Deno.test("mail sent through Postfix SMTP arrives in the Dovecot mailbox", async () => {
  const user = await addMailUser(unique());
  const subject = `smtp ${unique()}`;
  const sent = await sendMail({
    from: `app@${info.domain}`,
    to: user.address,
    subject,
    text: "hi",
  });
  assert.deepEqual(sent.accepted, [user.address]);
  assert.equal(await waitForMessages(user, 1, 15_000), 1);
  assert.match(maildirText(mailboxDir(user)), new RegExp(`Subject: ${subject}`));
});

Deno.test("mail to other domains stays here, in the outbound catch-all mailbox", async () => {
  const subject = `outside ${unique()}`;
  await sendMail({ from: `app@${info.domain}`, to: "vendor@example.com", subject, text: "x" });
  const deadline = Date.now() + 15_000;
  while (!maildirText(mailboxDir(info.outboundMailbox)).includes(subject)) {
    assert.ok(Date.now() < deadline, "message never reached the outbound mailbox");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
});

Deno.test("submission port: STARTTLS and SMTP AUTH with a test user, CA verified", async () => {
  const user = await addMailUser(unique());
  const subject = `submission ${unique()}`;
  await sendMail({ from: user.address, to: user.address, subject, text: "auth" }, { authAs: user });
  assert.equal(await waitForMessages(user, 1, 15_000), 1);
  await assert.rejects(
    sendMail(
      { from: user.address, to: user.address, subject: "x", text: "x" },
      { authAs: { address: user.address, password: "wrong" } },
    ),
    /auth|535/i,
  );
});

Deno.test("SFTP: password login, upload, rename and download", async () => {
  const client = await connectSftp();
  try {
    const dir = info.sftp.remoteUploadDir;
    const name = unique();
    const content = Buffer.from(`a;b\n1;2\n${name}\n`);
    await client.put(content, `${dir}/${name}.part`);
    await client.rename(`${dir}/${name}.part`, `${dir}/${name}.csv`);
    assert.equal(Deno.readTextFileSync(`${info.sftp.uploadDir}/${name}.csv`), content.toString());
    const back = await client.get(`${dir}/${name}.csv`);
    assert.ok(Buffer.isBuffer(back));
    assert.equal(back.toString(), content.toString());
    // The chroot hides the real filesystem.
    assert.equal(await client.exists("/etc/passwd"), false);
  } finally {
    await client.end();
  }
});

Deno.test("recreateMailbox changes UIDVALIDITY and keeps the messages", async () => {
  const user = await addMailUser(unique());
  const first = await appendMessage(user, rawMessage("before"));
  assert.equal(first.uid, 1);
  const { before, after } = await recreateMailbox(user);
  assert.equal(before, first.uidValidity);
  assert.notEqual(after, before);
  assert.equal(await getUidValidity(user), after);
  assert.equal(await waitForMessages(user, 1, 5_000), 1);

  const { after: emptied } = await recreateMailbox(user, { keepMessages: false });
  assert.notEqual(emptied, after);
  const client = await connectImap(user);
  try {
    const status = await client.status("INBOX", { messages: true });
    assert.equal(status && status.messages, 0);
  } finally {
    await client.logout();
  }
});

Deno.test("dropImapConnections drops a live IMAP session", async () => {
  const user = await addMailUser(unique());
  const client = await connectImap(user);
  const closed = new Promise<void>((resolve) => client.once("close", () => resolve()));
  client.on("error", () => {}); // the drop itself may surface as an error event
  await client.mailboxOpen("INBOX");
  await dropImapConnections(user);
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    closed,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error("session still open after kick")), 5_000);
    }),
  ]).finally(() => clearTimeout(timer));
  assert.equal(client.usable, false);
  await assert.rejects(client.status("INBOX", { messages: true }));
});
