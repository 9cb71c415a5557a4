import assert from "node:assert/strict";
import { forwardedBody, replaceWildcards, vendorMailText } from "./forwarding.ts";

const facts = {
  poNumbers: ["PO-1", "PO-2"],
  originalSubject: "Orders for\r\n today",
  originalBody: "Hello,\nplease see {poNumbers} attached.",
};

Deno.test("forwarded: wildcards replaced in subject and body, once, any case", () => {
  const out = vendorMailText(
    "Fwd: {originalSubject} ({PONumbers})",
    "POs: {poNumbers}\n\n{originalBody}\n{unknown}",
    true,
    facts,
  );
  assert.equal(out.subject, "Fwd: Orders for today (PO-1, PO-2)");
  assert.equal(
    out.body,
    "POs: PO-1, PO-2\n\nHello,\nplease see {poNumbers} attached.\n{unknown}",
  );
});

Deno.test("not forwarded: wildcards left as typed", () => {
  const out = vendorMailText("Orders {poNumbers}", "{originalBody}", false, facts);
  assert.deepEqual(out, { subject: "Orders {poNumbers}", body: "{originalBody}" });
});

Deno.test("replaceWildcards with no PO numbers, and forwardedBody", () => {
  assert.equal(
    replaceWildcards("[{poNumbers}]", { ...facts, poNumbers: [] }),
    "[]",
  );
  const body = forwardedBody("See below.\n", {
    from: "a@b.test",
    to: "c@d.test",
    date: "Mon, 23 Nov 2026 10:00:00 +0000",
    subject: "Orders",
    text: "rows",
  });
  assert.ok(
    body.startsWith("See below.\n\n---------- Forwarded message ---------\nFrom: a@b.test"),
  );
  assert.ok(body.endsWith("\n\nrows"));
});
