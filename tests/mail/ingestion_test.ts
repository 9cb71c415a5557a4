/**
 * Mailbox ingestion against the loopback Dovecot and Postfix (start them with
 * tests/services/up.sh): matching, one run per message, marks after the commit, UIDVALIDITY
 * changes, dropped connections, bad credentials.
 */
import assert from "node:assert/strict";
import { pollMailbox } from "../../api/ingest/mailbox_poll.ts";
import {
  addMailUser,
  appendMessage,
  connectImap,
  dropImapConnections,
  type MailUser,
  recreateMailbox,
  sendMail,
  waitForMessages,
} from "../services/services.ts";
import { mailFixture, sourceFor, testClient, uniqueName } from "./support.ts";
import { rawMessage } from "./messages.ts";
import { addTestRule, TEST_FEED } from "./test_feed.ts";

const SUPPLIER = "supplier@example.test";

interface Run {
  id: number;
  status: string;
  fileName: string;
  trigger: string;
  error: string | null;
  warnings: string[];
  log: string[];
  counts: Record<string, number>;
  rerunOf: number | null;
  mailMessageId: number | null;
}

async function seenUids(user: MailUser): Promise<Map<string, boolean>> {
  const client = await connectImap(user);
  try {
    await client.mailboxOpen("INBOX");
    const messages = await client.fetchAll("1:*", { envelope: true, flags: true });
    return new Map(
      messages.map((m) => [m.envelope?.subject ?? "", m.flags?.has("\\Seen") ?? false]),
    );
  } finally {
    await client.logout();
  }
}

Deno.test("mailbox ingestion", async (t) => {
  const fixture = await mailFixture();
  const { server, admin } = fixture;
  const deps = server.server.deps;
  const quiet = { log: () => {} };
  try {
    await t.step("each matching message becomes one run; others are left alone", async () => {
      const { user, emailSourceId } = fixture;
      const ruleId = await addTestRule(server.db, {
        emailSourceId,
        fromEmail: SUPPLIER,
        subjectValue: "Stock update",
        containsNotExact: true,
        attachmentName: "stock",
        fileType: "CSV",
        expectedAttachmentCount: 3,
      });
      // Through Postfix, as a supplier's mail server would deliver it.
      await sendMail({
        from: SUPPLIER,
        to: user.address,
        subject: "Daily stock update 1",
        text: "Attached.",
        attachments: [
          { filename: "logo.png", content: "png" },
          { filename: "stock_2024.csv", content: "item,qty\nA1,5\n" },
          { filename: "other.csv", content: "x\n" },
        ],
      });
      await waitForMessages(user, 1);
      await appendMessage(
        user,
        rawMessage({ from: "someone@example.test", to: user.address, subject: "Stock update" }),
      );
      await appendMessage(
        user,
        rawMessage({
          from: SUPPLIER,
          to: user.address,
          subject: "stock update 2",
          attachments: [{ name: "stock.csv", content: "BAD\n" }],
        }),
      );
      await appendMessage(
        user,
        rawMessage({ from: SUPPLIER.toUpperCase(), to: user.address, subject: "Stock update 3" }),
      );

      const result = await pollMailbox(deps, emailSourceId, { processRuns: true, ...quiet });
      assert.equal(result.error, null);
      assert.deepEqual(
        [result.seen, result.matched, result.ignored, result.runs],
        [4, 3, 1, 3],
      );

      const runs = (await admin.get(`/api/import-runs?feed=${TEST_FEED}&sourceId=${ruleId}`))
        .body as Run[];
      assert.equal(runs.length, 3);
      const [noAttachment, bad, good] = runs; // newest first
      assert.equal(good.status, "succeeded");
      assert.equal(good.fileName, "stock_2024.csv");
      assert.equal(good.trigger, "mail");
      assert.deepEqual(good.counts, { rows: 2 });
      assert.deepEqual(good.warnings, []);
      const details = (await admin.get(`/api/import-runs/${good.id}`)).body as Run;
      assert.ok(details.log.includes('Processing attachment "stock_2024.csv" (name contains).'));
      assert.ok(details.log.includes("Ignored attachments: logo.png, other.csv."));

      assert.equal(bad.status, "failed");
      assert.equal(bad.error, "Line 1 of stock.csv is not valid.");
      assert.deepEqual(bad.warnings, ["The e-mail had 1 attachment(s); 3 expected."]);

      assert.equal(noAttachment.status, "failed");
      assert.match(noAttachment.error!, /^No attachment of type CSV in the e-mail/);

      // The rejected file left nothing behind; the good one is there once.
      const files = await server.db.query<{ fileName: string }>(
        `select file_name as "fileName" from test_feed_files`,
      );
      assert.deepEqual(files.map((f) => f.fileName), ["stock_2024.csv"]);

      const seen = await seenUids(user);
      assert.equal(seen.get("Daily stock update 1"), true);
      assert.equal(seen.get("stock update 2"), true);
      assert.equal(seen.get("Stock update 3"), true);
      assert.equal(seen.get("Stock update"), false, "a message no source wants stays unread");
    });

    await t.step("polling again claims nothing; the list shows the successful poll", async () => {
      const again = await pollMailbox(deps, fixture.emailSourceId, quiet);
      assert.deepEqual([again.seen, again.runs, again.error], [0, 0, null]);
      const [listed] = (await admin.get("/api/email-sources/emails")).body as Record<
        string,
        unknown
      >[];
      assert.ok(listed.lastSuccessfulPoll);
      assert.equal(listed.lastPollError, null);
    });

    await t.step("a run is re-run from its stored file, and its file downloads", async () => {
      const [good] = (await admin.get(`/api/import-runs?feed=${TEST_FEED}`)).body as Run[];
      const original = (await admin.get(`/api/import-runs?feed=${TEST_FEED}`)).body as Run[];
      const succeeded = original.find((r) => r.status === "succeeded")!;
      assert.ok(good);
      const rerun = await admin.post(`/api/import-runs/${succeeded.id}/rerun`);
      assert.equal(rerun.status, 200);
      const run = rerun.body as Run;
      assert.equal(run.trigger, "rerun");
      assert.equal(run.rerunOf, succeeded.id);
      assert.equal(run.status, "succeeded");
      assert.equal(run.fileName, "stock_2024.csv");
      const file = await fetch(`${server.url}/api/import-runs/${succeeded.id}/file`, {
        headers: { cookie: [...admin.cookies].map(([k, v]) => `${k}=${v.value}`).join("; ") },
      });
      assert.equal(await file.text(), "item,qty\nA1,5\n");
      const noFile = original.find((r) => r.error?.startsWith("No attachment"))!;
      assert.equal((await admin.post(`/api/import-runs/${noFile.id}/rerun`)).status, 400);
    });

    await t.step("the runs of a feed need that feed's flag", async () => {
      await server.createUser({ username: "orders", password: "orders-password", orderUser: true });
      const orders = testClient(server.url);
      await orders.login("orders", "orders-password");
      assert.equal((await orders.get(`/api/import-runs?feed=${TEST_FEED}`)).status, 403);
      const [run] = (await admin.get(`/api/import-runs?feed=${TEST_FEED}`)).body as Run[];
      assert.equal((await orders.get(`/api/import-runs/${run.id}`)).status, 403);
      assert.equal((await orders.get(`/api/import-runs?feed=order-tracking`)).status, 200);
      assert.equal((await testClient(server.url).get(`/api/import-runs`)).status, 401);
    });

    await t.step("a recreated mailbox (new UIDVALIDITY) brings no duplicates", async () => {
      const user = await addMailUser(uniqueName("uidv"));
      const id = await saveSource(user);
      await addTestRule(server.db, rule(id));
      for (let i = 1; i <= 3; i++) await appendMessage(user, supplierMessage(user, `old ${i}`));
      const first = await pollMailbox(deps, id, { processRuns: true, ...quiet });
      assert.equal(first.runs, 3);
      const { before, after } = await recreateMailbox(user);
      assert.notEqual(before, after);
      await appendMessage(user, supplierMessage(user, "new 1"));
      const second = await pollMailbox(deps, id, { processRuns: true, ...quiet });
      assert.equal(second.error, null);
      assert.equal(second.runs, 1, "only the new message is processed");
      assert.deepEqual(await fileNamesOf(id), ["new 1.csv", "old 1.csv", "old 2.csv", "old 3.csv"]);
    });

    await t.step("a connection dropped in the middle of a poll is recovered", async () => {
      const user = await addMailUser(uniqueName("drop"));
      const id = await saveSource(user);
      await addTestRule(server.db, rule(id));
      for (let i = 1; i <= 5; i++) await appendMessage(user, supplierMessage(user, `m${i}`));
      let claims = 0;
      const lines: string[] = [];
      const result = await pollMailbox(deps, id, {
        processRuns: true,
        log: (line) => lines.push(line),
        // Cut the session after the second claim's commit, before its mark.
        afterClaim: async () => {
          if (++claims === 2) await dropImapConnections(user);
        },
      });
      assert.equal(result.error, null);
      assert.ok(lines.some((line) => /connection lost .*reconnecting/.test(line)), lines.join());
      assert.equal(result.runs, 5);
      assert.deepEqual(await fileNamesOf(id), ["m1.csv", "m2.csv", "m3.csv", "m4.csv", "m5.csv"]);
      const seen = await seenUids(user);
      assert.deepEqual([...seen.values()], [true, true, true, true, true]);
    });

    await t.step("a refused login is reported on the source, and nothing is lost", async () => {
      const user = await addMailUser(uniqueName("badpw"));
      const id = await saveSource({ ...user, password: "wrong-password" });
      await addTestRule(server.db, rule(id));
      await appendMessage(user, supplierMessage(user, "waiting"));
      const failed = await pollMailbox(deps, id, quiet);
      assert.match(failed.error!, /refused the login/);
      assert.ok(!failed.error!.includes("wrong-password"));
      const listed = ((await admin.get("/api/email-sources/emails")).body as Record<
        string,
        unknown
      >[]).find((s) => s.id === id)!;
      assert.match(String(listed.lastPollError), /refused the login/);
      // Fixed password: the waiting message is ingested and the error clears.
      await admin.post("/api/email-sources/email/save", sourceFor(user, id));
      const fixed = await pollMailbox(deps, id, { processRuns: true, ...quiet });
      assert.equal(fixed.runs, 1);
      const after = ((await admin.get("/api/email-sources/emails")).body as Record<
        string,
        unknown
      >[]).find((s) => s.id === id)!;
      assert.equal(after.lastPollError, null);
    });
  } finally {
    await server.close();
  }

  async function saveSource(user: MailUser): Promise<number> {
    const saved = await admin.post("/api/email-sources/email/save", sourceFor(user));
    return (saved.body as { id: number }).id;
  }

  async function fileNamesOf(emailSourceId: number): Promise<string[]> {
    const rows = await server.db.query<{ fileName: string }>(
      `select f.file_name as "fileName" from test_feed_files f
         join test_feed_rules r on r.id = f.source_id where r.email_source_id = $1
        order by f.file_name`,
      [emailSourceId],
    );
    return rows.map((r) => r.fileName);
  }
});

function rule(emailSourceId: number) {
  return {
    emailSourceId,
    fromEmail: SUPPLIER,
    subjectValue: "Orders",
    containsNotExact: true,
    attachmentName: "",
    fileType: "csv",
    expectedAttachmentCount: null,
  };
}

function supplierMessage(user: MailUser, name: string): string {
  return rawMessage({
    from: SUPPLIER,
    to: user.address,
    subject: `Orders ${name}`,
    attachments: [{ name: `${name}.csv`, content: `${name}\n` }],
  });
}
