/**
 * A Microsoft 365 mailbox end to end, on the real test Dovecot and Postfix with tokens from the
 * Microsoft login stand-in (tests/services/msal_login.ts): an MSAL e-mail source is saved through
 * the API, the test e-mail goes out with XOAUTH2, a supplier stock file, an order tracking file and
 * an order file are read from the mailbox with a token, the vendor e-mail goes out from it; a token
 * that expires between two polls is renewed; a wrong secret, an unknown tenant, a missing admin
 * consent and a mailbox the app was not granted are each shown on the source in words a staff
 * member can act on. Needs tests/services/up.sh.
 */
import assert from "node:assert/strict";
import {
  addMailUser,
  grantMailbox,
  type MailUser,
  msalAuthorityHost,
  msalTokenRequests,
  readServices,
  registerMsalApp,
  revokeMailbox,
  sendMail,
  waitForMessages,
} from "../services/services.ts";
import type { MsalApp } from "../services/msal.ts";
import { ADMIN_PASSWORD, startTestServer } from "../support/server.ts";
import { type TestClient, testClient } from "../support/http.ts";
import { sourcePayload as inventorySource, stockCsv } from "../support/inventory.ts";
import { createSource as createTrackingSource } from "../support/order_tracking.ts";
import { insertSource, insertVendor, settledMessages } from "../support/order_submission.ts";
import { uniqueName } from "./support.ts";
import { rawMessage } from "./messages.ts";

const info = readServices();

/** The form of an MSAL source on the test servers (the servers given, as for a sovereign cloud). */
function msalSource(mailbox: MailUser, app: MsalApp, id = 0, secret = app.clientSecret) {
  return {
    id,
    username: mailbox.address,
    email: mailbox.address,
    password: secret,
    incomingServer: info.host,
    incomingPort: info.ports.imaps,
    outgoingServer: info.host,
    outgoingPort: info.ports.submission,
    ssl: true,
    isMsal: true,
    msalClientId: app.clientId,
    msalTennentId: app.tenantId,
  };
}

interface Poll {
  polled: boolean;
  runs: number;
  failed: number;
  error: string | null;
}

/** "Check now" on the source, as staff press it. */
async function checkNow(admin: TestClient, id: number): Promise<Poll> {
  const response = await admin.post(`/api/email-sources/poll/${id}`);
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body as Poll;
}

/** The source's row of the e-mail sources list (its last poll error is shown there). */
async function listed(admin: TestClient, id: number) {
  const rows = (await admin.get("/api/email-sources/emails")).body as {
    id: number;
    lastPollError: string | null;
    lastSuccessfulPoll: string | null;
  }[];
  return rows.find((row) => row.id === id)!;
}

async function sendTest(admin: TestClient, id: number, to: string, subject: string) {
  return await admin.post("/api/email-sources/send-test-email", {
    ToEmail: to,
    SubjectLine: subject,
    MessageContent: "Sent with a Microsoft token.",
    FileData: null,
    EmailSource: { id },
  });
}

async function runsOf(admin: TestClient, feed: string, sourceId: number) {
  return (await admin.get(`/api/import-runs?feed=${feed}&sourceId=${sourceId}`)).body as {
    status: string;
    error: string | null;
    counts: Record<string, number> | null;
  }[];
}

/** Lines of the Postfix log about `address` logging in with SASL. */
async function saslLogins(address: string): Promise<string[]> {
  const log = await Deno.readTextFile(info.logs.postfix);
  return log.split("\n").filter((line) => line.includes(`sasl_username=${address}`));
}

Deno.test("a Microsoft 365 mailbox: saved, sending, ingesting and failing with tokens", async (t) => {
  const server = await startTestServer({
    env: { MAIL_CA_FILE: info.caPath, MSAL_AUTHORITY_HOST: msalAuthorityHost() },
  });
  const admin = testClient(server.url);
  const app = await registerMsalApp();
  const mailbox = await addMailUser(uniqueName("m365"));
  // The mailbox's own password is never given to the app: only tokens get in.
  grantMailbox(app, mailbox);
  let sourceId = 0;
  try {
    await admin.login("admin", ADMIN_PASSWORD);

    await t.step("the source is saved; its secret stays bound to tenant and client", async () => {
      const saved = await admin.post("/api/email-sources/email/save", msalSource(mailbox, app));
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      sourceId = (saved.body as { id: number }).id;
      const got = (await admin.get(`/api/email-sources/email/${sourceId}`)).body as {
        password: string;
        isMsal: boolean;
      };
      assert.equal(got.password, "********");
      assert.equal(got.isMsal, true);
      const moved = await admin.post("/api/email-sources/email/save", {
        ...msalSource(mailbox, app, sourceId, "********"),
        msalTennentId: crypto.randomUUID(),
      });
      assert.equal(moved.status, 400);
      assert.match((moved.body as { message: string }).message, /Enter the password again/);
    });

    await t.step("the test e-mail goes out through Postfix with XOAUTH2", async () => {
      const recipient = await addMailUser(uniqueName("m365rcpt"));
      const response = await sendTest(admin, sourceId, recipient.address, "From Microsoft 365");
      assert.equal(response.status, 200, JSON.stringify(response.body));
      await waitForMessages(recipient, 1);
      const [message] = await settledMessages(recipient, 1);
      assert.equal(message.subject, "From Microsoft 365");
      assert.equal(message.from?.address, mailbox.address);
      assert.ok(
        (await saslLogins(mailbox.address)).some((l) => l.includes("sasl_method=XOAUTH2")),
        "Postfix logged an XOAUTH2 login of the mailbox",
      );
    });

    await t.step(
      "supplier stock, order tracking and order files are read with a token",
      async () => {
        const inventory = await admin.post(
          "/api/inventory-sources/inventory/save",
          inventorySource(sourceId, { fromEmail: "stock@acme.example" }),
        );
        assert.equal(inventory.status, 200, JSON.stringify(inventory.body));
        const inventoryId = (inventory.body as { id: number }).id;
        const trackingId = await createTrackingSource(admin, {
          emailSourceId: sourceId,
          fromEmail: "reports@acme.example",
          subjectValue: "Daily order status",
          attachmentName: "orders",
        });
        const vendor = await addMailUser(uniqueName("m365vendor"));
        const submissionId = await insertSource(server.db, {
          sourceName: "Customer orders",
          emailSourceId: sourceId,
          fromEmail: "orders@customer.example",
          subjectValue: "order file",
          containsNotExact: true,
          fileType: "csv",
          attachmentName: "purchase",
        });
        await insertVendor(server.db, {
          sourceId: submissionId,
          name: "Acme",
          sendFrom: sourceId,
          to: vendor.address,
          subject: "Orders for Acme",
          body: "Please ship the attached orders.",
        });

        const mails = [
          {
            from: "stock@acme.example",
            subject: "Daily stock report",
            name: "stock.csv",
            content: new TextDecoder().decode(stockCsv([["A1", 4], ["A2", 0]])),
          },
          {
            from: "reports@acme.example",
            subject: "Daily order status",
            name: "orders.csv",
            content: [
              "PO #,SKU,Customer,Ship To,Vendor,Brand,Tracking,Order Date,Ship Date," +
              "Qty Ordered,Qty Shipped,Status",
              "PO-100,SKU-1,Globex,Alice,Acme,Acme,1Z999,2026-11-20,2026-11-21,2,2,Shipped",
            ].join("\r\n"),
          },
          {
            from: "orders@customer.example",
            subject: "Daily order file",
            name: "purchase_orders.csv",
            content: "PO Number,Vendor,Item Description,Qty\r\nPO-7,Acme,Hammer,2\r\n",
          },
        ];
        for (const mail of mails) {
          await sendMail({
            envelope: { from: mail.from, to: mailbox.address },
            raw: rawMessage({
              from: mail.from,
              to: mailbox.address,
              subject: mail.subject,
              attachments: [{ name: mail.name, content: mail.content }],
            }),
          });
        }
        await waitForMessages(mailbox, 3);

        const poll = await checkNow(admin, sourceId);
        assert.equal(poll.error, null);
        assert.equal(poll.runs, 3);
        assert.equal(poll.failed, 0);
        for (
          const [feed, id] of [
            ["inventory", inventoryId],
            ["order-tracking", trackingId],
            ["order-submission", submissionId],
          ] as const
        ) {
          const runs = await runsOf(admin, feed, id);
          assert.equal(runs.length, 1, feed);
          assert.equal(runs[0].status, "succeeded", `${feed}: ${JSON.stringify(runs[0])}`);
        }
        const row = await listed(admin, sourceId);
        assert.equal(row.lastPollError, null);
        assert.ok(row.lastSuccessfulPoll);
        // Dovecot logged the token logins of the mailbox (not a password login).
        const dovecot = await Deno.readTextFile(info.logs.dovecot);
        assert.match(
          dovecot,
          new RegExp(`Login: user=<${mailbox.address}>, method=(XOAUTH2|OAUTHBEARER)`),
        );

        // The vendor e-mail went out from the Microsoft 365 mailbox, with its token.
        const [toVendor, ...more] = await settledMessages(vendor, 1);
        assert.equal(more.length, 0);
        assert.equal(toVendor.subject, "Orders for Acme");
        assert.equal(toVendor.from?.address, mailbox.address);
        // One token served the test e-mail, the poll and the vendor e-mail: it lives an hour.
        assert.equal(await msalTokenRequests(app.clientId), 1);
      },
    );

    await t.step("a mailbox the app was not granted: what the Exchange admin must do", async () => {
      revokeMailbox(app, mailbox);
      try {
        const poll = await checkNow(admin, sourceId);
        assert.match(
          poll.error ?? "",
          /refused the login: Microsoft 365 did not let the application into the mailbox .*IMAP\.AccessAsApp.*Add-MailboxPermission/,
        );
        assert.equal((await listed(admin, sourceId)).lastPollError, poll.error);
        const sent = await sendTest(admin, sourceId, mailbox.address, "not granted");
        assert.equal(sent.status, 502);
        assert.match(
          (sent.body as { message: string }).message,
          /outgoing server .* refused the login: Microsoft 365 did not let the application .*SMTP\.SendAsApp/,
        );
      } finally {
        grantMailbox(app, mailbox);
      }
    });

    const failures: [string, () => Promise<MsalApp>, RegExp][] = [
      [
        "a wrong client secret",
        () => Promise.resolve({ ...app, clientSecret: "Qx8~not-the-secret" }),
        /^Could not get a Microsoft access token: Microsoft refused the client secret\. Enter the secret's Value \(not its Secret ID\)/,
      ],
      [
        "an unknown tenant",
        () => Promise.resolve({ ...app, tenantId: crypto.randomUUID() }),
        /^Could not get a Microsoft access token: Microsoft does not know the tenant "[0-9a-f-]{36}"\. Enter the Directory \(tenant\) ID/,
      ],
      [
        "no admin consent",
        () => registerMsalApp({ tenantId: app.tenantId, consented: false }),
        /^Could not get a Microsoft access token: The tenant's administrator has not consented to the application's permissions\. An administrator must .*Grant admin consent/,
      ],
    ];
    for (const [name, make, expected] of failures) {
      await t.step(`${name} is shown on the source in words staff can act on`, async () => {
        const wrong = await make();
        grantMailbox(wrong.clientId, mailbox);
        const saved = await admin.post(
          "/api/email-sources/email/save",
          msalSource(mailbox, wrong, sourceId),
        );
        assert.equal(saved.status, 200, JSON.stringify(saved.body));
        const poll = await checkNow(admin, sourceId);
        assert.match(poll.error ?? "", expected);
        assert.ok(!poll.error!.includes(wrong.clientSecret), "the secret is never shown");
        assert.doesNotMatch(poll.error!, /Trace ID|Correlation ID/);
        assert.equal((await listed(admin, sourceId)).lastPollError, poll.error);
        const sent = await sendTest(admin, sourceId, mailbox.address, name);
        assert.equal(sent.status, 502);
        assert.match((sent.body as { message: string }).message, expected);
      });
    }

    await t.step("back to the right registration, the source polls cleanly again", async () => {
      await admin.post("/api/email-sources/email/save", msalSource(mailbox, app, sourceId));
      const poll = await checkNow(admin, sourceId);
      assert.equal(poll.error, null);
      assert.equal((await listed(admin, sourceId)).lastPollError, null);
    });
  } finally {
    await server.close();
  }
});

Deno.test("a token that expires between two polls is renewed without a failed run", async () => {
  const server = await startTestServer({
    env: { MAIL_CA_FILE: info.caPath, MSAL_AUTHORITY_HOST: msalAuthorityHost() },
  });
  try {
    const admin = testClient(server.url);
    await admin.login("admin", ADMIN_PASSWORD);
    // Tokens live 3 s at Dovecot; msal-node renews any token that expires within 5 minutes, so
    // the second poll must come with a new one or Dovecot refuses it.
    const app = await registerMsalApp({ tokenLifetimeSeconds: 3 });
    const mailbox = await addMailUser(uniqueName("m365renew"));
    grantMailbox(app, mailbox);
    const saved = await admin.post("/api/email-sources/email/save", msalSource(mailbox, app));
    const sourceId = (saved.body as { id: number }).id;
    const trackingId = await createTrackingSource(admin, {
      emailSourceId: sourceId,
      fromEmail: "reports@acme.example",
      subjectValue: "Daily order status",
      attachmentName: "orders",
    });
    const deliver = async (po: string) => {
      await sendMail({
        envelope: { from: "reports@acme.example", to: mailbox.address },
        raw: rawMessage({
          from: "reports@acme.example",
          to: mailbox.address,
          subject: "Daily order status",
          attachments: [{
            name: "orders.csv",
            content: "PO #,SKU,Customer,Vendor,Qty Ordered,Status\r\n" +
              `${po},SKU-1,Globex,Acme,1,Open\r\n`,
          }],
        }),
      });
    };

    await deliver("PO-1");
    await waitForMessages(mailbox, 1);
    const first = await checkNow(admin, sourceId);
    assert.equal(first.error, null);
    assert.equal(first.runs, 1);
    const requestsAfterFirst = await msalTokenRequests(app.clientId);

    // Let the first token expire at the server.
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    await deliver("PO-2");
    await waitForMessages(mailbox, 2);
    const second = await checkNow(admin, sourceId);
    assert.equal(second.error, null, "the poll after the expiry logs in with a new token");
    assert.equal(second.runs, 1);
    assert.ok(await msalTokenRequests(app.clientId) > requestsAfterFirst, "a new token was asked");
    const runs = await runsOf(admin, "order-tracking", trackingId);
    assert.deepEqual(runs.map((r) => r.status), ["succeeded", "succeeded"]);
    assert.equal((await listed(admin, sourceId)).lastPollError, null);

    // The way it goes with Microsoft's hour-long tokens: msal-node holds the token and renews it
    // once it is within 5 minutes of its end. A 303 s token is held for 3 to 4 s.
    const held = await registerMsalApp({ tokenLifetimeSeconds: 303 });
    grantMailbox(held, mailbox);
    const moved = await admin.post(
      "/api/email-sources/email/save",
      msalSource(mailbox, held, sourceId),
    );
    assert.equal(moved.status, 200);
    assert.equal((await checkNow(admin, sourceId)).error, null);
    const heldRequests = await msalTokenRequests(held.clientId);
    // msal-node counts in whole seconds: after 5 s the token is within 300 s of its end for sure.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    assert.equal((await checkNow(admin, sourceId)).error, null);
    assert.ok(await msalTokenRequests(held.clientId) > heldRequests, "the held token was renewed");
  } finally {
    await server.close();
  }
});
