import assert from "node:assert/strict";
import {
  escapeHtml,
  mailboxProblem,
  type MailboxState,
  MAX_ROWS,
  NO_LINKS_NOTE,
  NOTHING_HAPPENED,
  type NotificationData,
  renderConsolidated,
  type RenderInput,
  renderMailboxHealthAlert,
  renderNotification,
  type RenderSetting,
} from "./render.ts";

const setting: RenderSetting = {
  id: 12,
  name: "Acme stock",
  sourceTypeId: 1,
  sourceId: 3,
  sourceName: "Acme",
  notificationInterval: "Daily",
  includeStatusChanges: true,
  includeQuantityChanges: true,
  includeZeroQuantityAlerts: true,
  includeDailyBreakdown: true,
  includeItemDetails: true,
  includeErrorAlerts: true,
  includeSuccessAlerts: true,
  emailSubjectPrefix: "[Stock]",
};

const data: NotificationData = {
  importRuns: [
    {
      id: 1,
      sourceName: "Acme",
      status: "succeeded",
      fileName: "stock-0510.xlsx",
      finishedAt: "2026-05-10T08:00:00Z",
      counts: { processed: 120, active: 100, inactive: 20 },
      errors: [],
    },
    {
      id: 2,
      sourceName: "Acme",
      status: "failed",
      fileName: "stock-0511.xlsx",
      finishedAt: "2026-05-11T06:00:00Z",
      counts: {},
      errors: ["Column QTY not found"],
    },
  ],
  statusChanges: [
    {
      sourceName: "Acme",
      itemNumber: "A-100",
      from: "Active",
      to: "Inactive",
      at: "2026-05-10T08:00:00Z",
    },
  ],
  quantityChanges: [
    { sourceName: "Acme", itemNumber: "A-200", from: 5, to: 12, at: "2026-05-10T08:00:00Z" },
  ],
  zeroQuantityItems: [{ sourceName: "Acme", itemNumber: "A-300", since: "2026-05-09T00:00:00Z" }],
};

const input = (
  overrides: Partial<RenderSetting> = {},
  d: NotificationData = data,
): RenderInput => ({
  setting: { ...setting, ...overrides },
  window: { from: new Date("2026-05-10T07:00:00Z"), to: new Date("2026-05-11T07:00:00Z") },
  data: d,
  publicUrl: "https://app.example.com/",
  timeZone: "Europe/Berlin",
});

const SECTIONS: Array<[keyof RenderSetting, string]> = [
  ["includeErrorAlerts", "Errors"],
  ["includeSuccessAlerts", "Successful runs"],
  ["includeStatusChanges", "Status changes"],
  ["includeQuantityChanges", "Quantity changes"],
  ["includeZeroQuantityAlerts", "Zero quantity alerts"],
  ["includeDailyBreakdown", "Daily breakdown"],
];

Deno.test("each section appears only when its switch is on", () => {
  const all = renderNotification(input());
  for (const [, title] of SECTIONS) {
    assert.ok(all.text.includes(`\n${title}\n`), `${title} in text`);
    assert.ok(all.html.includes(`>${title}</h3>`), `${title} in html`);
  }
  for (const [flag, title] of SECTIONS) {
    const mail = renderNotification(input({ [flag]: false }));
    assert.ok(!mail.text.includes(`\n${title}\n`), `${title} off in text`);
    assert.ok(!mail.html.includes(`>${title}</h3>`), `${title} off in html`);
    for (const [otherFlag, other] of SECTIONS) {
      if (otherFlag !== flag) assert.ok(mail.text.includes(`\n${other}\n`), `${other} stays`);
    }
  }
});

Deno.test("item details: per-item rows only when on", () => {
  const on = renderNotification(input());
  assert.match(on.text, /- 2026-05-10 10:00 \| Acme \| A-100 \| Active → Inactive/);
  assert.match(on.text, /A-200 \| 5 → 12/);
  const off = renderNotification(input({ includeItemDetails: false }));
  assert.ok(!off.text.includes("A-100"));
  assert.ok(!off.text.includes("A-200"));
  assert.match(off.text, /1 item changed status\./);
  assert.match(off.text, /1 quantity change\./);
  // Errors and zero-quantity alerts always name what they are about.
  assert.match(off.text, /Column QTY not found/);
  assert.match(off.text, /A-300/);
});

Deno.test("subject: prefix, source, period and failures", () => {
  assert.equal(
    renderNotification(input()).subject,
    "[Stock] Inventory summary: Acme, 2026-05-10 to 2026-05-11 – 1 failure",
  );
  assert.equal(
    renderNotification(input({ emailSubjectPrefix: "", includeErrorAlerts: false, sourceName: "" }))
      .subject,
    "Inventory summary: All Inventory sources, 2026-05-10 to 2026-05-11",
  );
  assert.equal(
    renderNotification(input({ emailSubjectPrefix: "a\r\nBcc: x@y.com" })).subject.includes("\n"),
    false,
  );
});

Deno.test("links back to the app use the public URL", () => {
  const mail = renderNotification(input());
  assert.match(mail.text, /Open Acme: https:\/\/app\.example\.com\/inventory-sources\/edit\/3/);
  assert.match(mail.text, /https:\/\/app\.example\.com\/notification-settings\/edit\/12/);
  assert.match(mail.html, /href="https:\/\/app\.example\.com\/inventory-sources\/edit\/3"/);
  const vendor = renderNotification(input({ sourceTypeId: 4, sourceId: null }));
  assert.match(vendor.text, /https:\/\/app\.example\.com\/order-submission\/vendor\n/);
});

Deno.test("without a public URL: no link at all, and whom to ask", () => {
  const mail = renderNotification({ ...input(), publicUrl: null });
  assert.doesNotMatch(mail.text, /https?:/);
  assert.doesNotMatch(mail.html, /href=/);
  assert.ok(mail.text.includes(NO_LINKS_NOTE));
  assert.ok(mail.html.includes("ask your administrator"));
  assert.match(NO_LINKS_NOTE, /ask your administrator/);
  const alert = renderMailboxHealthAlert({
    mailbox,
    problem: mailboxProblem(mailbox, new Date("2026-05-12T09:00:00Z"), limits)!,
    now: new Date("2026-05-12T09:00:00Z"),
    publicUrl: null,
    timeZone: "UTC",
  });
  assert.doesNotMatch(alert.text, /https?:/);
  assert.ok(alert.text.includes(NO_LINKS_NOTE));
});

Deno.test("hostile names are escaped in the HTML part", () => {
  const hostile = `<script>alert("x")</script>`;
  const mail = renderNotification(input({ name: hostile, sourceName: hostile }, {
    importRuns: [{
      id: 1,
      sourceName: hostile,
      status: "failed",
      fileName: `"><img src=x onerror=alert(1)>.xlsx`,
      finishedAt: "2026-05-10T08:00:00Z",
      counts: {},
      errors: [hostile],
    }],
    statusChanges: [{
      sourceName: "S",
      itemNumber: hostile,
      from: "&",
      to: "'",
      at: "2026-05-10T08:00:00Z",
    }],
  }));
  assert.ok(!mail.html.includes("<script>"));
  assert.ok(!mail.html.includes("<img"));
  assert.ok(mail.html.includes("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"));
  assert.ok(mail.html.includes("&amp; → &#39;"));
  assert.ok(mail.text.includes(hostile)); // the text part is plain text
  assert.equal(escapeHtml(`<a href='x'>&</a>`), "&lt;a href=&#39;x&#39;&gt;&amp;&lt;/a&gt;");
});

Deno.test("empty data: 'nothing happened', no empty sections", () => {
  const mail = renderNotification(input({}, {}));
  assert.ok(mail.text.includes(NOTHING_HAPPENED));
  assert.ok(mail.html.includes(NOTHING_HAPPENED));
  for (const [, title] of SECTIONS) assert.ok(!mail.text.includes(`\n${title}\n`), title);
  assert.equal(mail.subject, "[Stock] Inventory summary: Acme, 2026-05-10 to 2026-05-11");
});

Deno.test("the HTML part is a phone-friendly single column", () => {
  const { html } = renderNotification(input());
  assert.match(html, /<meta name="viewport" content="width=device-width,initial-scale=1">/);
  assert.match(html, /max-width:640px/);
  assert.ok(!html.includes("<style"), "inline styles only");
  assert.ok(!html.includes("<script"));
});

Deno.test("daily breakdown counts per local day", () => {
  const { text } = renderNotification(input());
  // Berlin: the succeeded run and both changes on the 10th, the failed run on the 11th (08:00).
  assert.match(text, /- 2026-05-10 \| 1 \| 0 \| 2 \| 0/);
  assert.match(text, /- 2026-05-11 \| 0 \| 1 \| 0 \| 0/);
  // The plain-text table has its column headings above the rows (issue 24).
  assert.match(text, /\nDay \| Succeeded \| Failed \| Item changes \| Order changes\n- 2026-05-10/);
});

Deno.test("long lists are cut with '... and N more'", () => {
  const many = Array.from({ length: MAX_ROWS + 5 }, (_, i) => ({
    sourceName: "Acme",
    itemNumber: `Z-${i}`,
    since: null,
  }));
  const mail = renderNotification(input({}, { zeroQuantityItems: many }));
  assert.match(mail.text, /\.\.\. and 5 more/);
  assert.match(mail.html, /… and 5 more/);
});

Deno.test("order tracking and vendor content", () => {
  const mail = renderNotification(input({ sourceTypeId: 4, sourceName: "Vendor X", sourceId: 9 }, {
    orderChanges: [{
      sourceName: "Sub",
      orderNumber: "PO-1",
      change: "New order",
      at: "2026-05-10T09:00:00Z",
    }],
    vendorSendings: [
      {
        vendorName: "Vendor X",
        sentAt: "2026-05-10T10:00:00Z",
        status: "sent",
        orderCount: 3,
        recipients: "v@x.com",
        error: null,
      },
      {
        vendorName: "Vendor X",
        sentAt: "2026-05-10T11:00:00Z",
        status: "failed",
        orderCount: 1,
        recipients: "v@x.com",
        error: "550 mailbox full",
      },
    ],
  }));
  assert.match(mail.subject, /Submission Vendor summary: Vendor X, .* – 1 failure/);
  assert.match(mail.text, /PO-1 \| New order/);
  assert.match(mail.text, /Vendor Vendor X \| 3 orders to v@x.com/);
  assert.match(mail.text, /550 mailbox full/);
});

Deno.test("consolidated: several settings in one message", () => {
  const mail = renderConsolidated([
    input(),
    input({
      id: 13,
      name: "Tracking",
      sourceTypeId: 3,
      sourceName: "Orders",
      emailSubjectPrefix: "",
    }, {}),
  ]);
  assert.equal(mail.subject, "[Stock] Notification summary: 2 settings – 1 failure");
  assert.ok(mail.text.includes("Acme stock\n"));
  assert.ok(mail.text.includes("Tracking\n"));
  assert.ok(mail.text.includes("Order Tracking summary for Orders"));
  assert.equal(mail.html.match(/<h2 /g)?.length, 2);
  assert.equal(mail.html.match(/<html>/g)?.length, 1);
  assert.deepEqual(renderConsolidated([input()]), renderNotification(input()));
});

const mailbox: MailboxState = {
  id: 4,
  email: "orders@example.com",
  activeStatus: true,
  lastSuccessfulPoll: "2026-05-10T06:00:00Z",
  lastPollError: null,
  lastPollErrorAt: null,
  createdAt: "2026-01-01T00:00:00Z",
};
const limits = { maxAgeMs: 2 * 3_600_000, maxFailures: 3 };

Deno.test("mailbox health: stale or failing, once per incident", () => {
  const now = new Date("2026-05-10T09:00:00Z");
  assert.equal(
    mailboxProblem({ ...mailbox, lastSuccessfulPoll: "2026-05-10T08:00:00Z" }, now, limits),
    null,
  );
  assert.equal(mailboxProblem({ ...mailbox, activeStatus: false }, now, limits), null);
  const stale = mailboxProblem(mailbox, now, limits)!;
  assert.equal(stale.kind, "stale");
  assert.equal(stale.incidentKey, "mailbox-health:4:2026-05-10T06:00:00.000Z");
  // Later ticks of the same incident have the same key; a new success starts a new one.
  const later = mailboxProblem(mailbox, new Date("2026-05-11T09:00:00Z"), limits)!;
  assert.equal(later.incidentKey, stale.incidentKey);
  const failing = mailboxProblem(
    { ...mailbox, lastSuccessfulPoll: "2026-05-10T08:50:00Z", consecutiveFailures: 3 },
    now,
    limits,
  )!;
  assert.equal(failing.kind, "failing");
  assert.notEqual(failing.incidentKey, stale.incidentKey);
  const never = mailboxProblem({ ...mailbox, lastSuccessfulPoll: null }, now, limits)!;
  assert.equal(never.incidentKey, "mailbox-health:4:never");
});

Deno.test("mailbox health alert content", () => {
  const now = new Date("2026-05-10T09:00:00Z");
  const box = {
    ...mailbox,
    lastPollError: "<b>AUTHENTICATIONFAILED</b>",
    lastPollErrorAt: "2026-05-10T08:55:00Z",
    consecutiveFailures: 4,
  };
  const mail = renderMailboxHealthAlert({
    mailbox: box,
    problem: mailboxProblem(box, now, limits)!,
    now,
    publicUrl: "https://app.example.com",
    timeZone: "UTC",
    subjectPrefix: "[Ops]",
  });
  assert.equal(mail.subject, "[Ops] Mailbox orders@example.com keeps failing");
  assert.match(mail.text, /Last successful poll: 2026-05-10 06:00 \(UTC\), 3 hours ago\./);
  assert.match(mail.text, /4 polls failed in a row\./);
  assert.match(mail.text, /Last error \(2026-05-10 08:55\): <b>AUTHENTICATIONFAILED<\/b>/);
  assert.ok(mail.html.includes("&lt;b&gt;AUTHENTICATIONFAILED"));
  assert.match(mail.text, /https:\/\/app\.example\.com\/email-sources\/edit\/4/);
});
