import assert from "node:assert/strict";
import {
  areaFlag,
  emailInfoRecipients,
  planMails,
  recipientsFor,
  type RecipientUser,
} from "./recipients.ts";

const user = (email: string, flags: Partial<RecipientUser> = {}): RecipientUser => ({
  email,
  activeStatus: true,
  sendNotificationsToEmail: true,
  inventoryUser: false,
  orderUser: false,
  submissionUser: false,
  ...flags,
});

const users: RecipientUser[] = [
  user("inv@example.com", { inventoryUser: true }),
  user("sub@example.com", { submissionUser: true }),
  user("ord@example.com", { orderUser: true }),
  user("all@example.com", { inventoryUser: true, submissionUser: true, orderUser: true }),
  user("ALL@example.com", { inventoryUser: true }), // same address, other case: once
  user("quiet@example.com", { inventoryUser: true, sendNotificationsToEmail: false }),
  user("gone@example.com", { inventoryUser: true, activeStatus: false }),
  user("", { inventoryUser: true }),
  user("not-an-address", { inventoryUser: true }),
];

Deno.test("areaFlag maps each source type to its area's flag", () => {
  assert.equal(areaFlag(1), "inventoryUser");
  assert.equal(areaFlag(2), "submissionUser");
  assert.equal(areaFlag(3), "orderUser");
  assert.equal(areaFlag(4), "submissionUser");
});

Deno.test("recipientsFor: the area's active users who want mail, unless overridden", () => {
  const cases: Array<[1 | 2 | 3 | 4, string, string[], "override" | "users"]> = [
    [1, "", ["all@example.com", "inv@example.com"], "users"],
    [2, "", ["all@example.com", "sub@example.com"], "users"],
    [3, "", ["all@example.com", "ord@example.com"], "users"],
    [4, "", ["all@example.com", "sub@example.com"], "users"],
    [1, "a@x.com, b@y.com;a@X.com", ["a@x.com", "b@y.com"], "override"],
    [3, " , ", ["all@example.com", "ord@example.com"], "users"],
    [2, "broken, c@z.com", ["c@z.com"], "override"],
  ];
  for (const [type, override, addresses, from] of cases) {
    assert.deepEqual(
      recipientsFor(type, override, users),
      { addresses, from },
      `${type} ${override}`,
    );
  }
  assert.deepEqual(recipientsFor(1, null, []), { addresses: [], from: "users" });
});

Deno.test("emailInfoRecipients lists exactly the per-area lists", () => {
  assert.deepEqual(emailInfoRecipients(users), {
    inventory: ["all@example.com", "inv@example.com"],
    submission: ["all@example.com", "sub@example.com"],
    order: ["all@example.com", "ord@example.com"],
  });
});

Deno.test("planMails: separate mails, and one consolidated mail per recipient", () => {
  const plan = planMails([
    { settingId: 1, consolidatedEmail: false, recipients: ["a@x.com", "b@x.com"] },
    { settingId: 2, consolidatedEmail: true, recipients: ["a@x.com", "b@x.com"] },
    { settingId: 3, consolidatedEmail: true, recipients: ["A@x.com", "c@x.com"] },
    { settingId: 4, consolidatedEmail: true, recipients: [] },
  ]);
  assert.deepEqual(plan, [
    { recipients: ["a@x.com", "b@x.com"], settingIds: [1], consolidated: false },
    { recipients: ["a@x.com"], settingIds: [2, 3], consolidated: true },
    { recipients: ["b@x.com"], settingIds: [2], consolidated: true },
    { recipients: ["c@x.com"], settingIds: [3], consolidated: true },
  ]);
});
