import assert from "node:assert/strict";
import {
  MAP_FIELDS,
  mappedColumns,
  NEW_ORDER_SUBMISSION_SOURCE_FORM,
  NEW_ORDER_VENDOR_SOURCE_FORM,
  orderSubmissionSourceForm,
  orderSubmissionSourceFormToSave,
  orderSubmissionSourceSave,
  orderVendorSourceForm,
  orderVendorSourceFormToSave,
  orderVendorSourceSave,
  TEMPLATE_TYPE_MESSAGE,
  vendorAliasSave,
  vendorSaveErrorText,
} from "../contract/order_submission.ts";

/** Field path → first message of a failed parse. */
function messages(
  result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } },
) {
  const out: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) out[issue.path.join(".")] ??= issue.message;
  return out;
}

Deno.test("order submission source save: section 5 rules and messages", () => {
  const bad = orderSubmissionSourceSave.safeParse({
    sourceName: " ",
    emailSourceId: 0,
    fromEmail: "not-an-address",
    subjectValue: "ab",
    expectedAttachmentCount: 0,
    expectedNumberOfBatchEmails: "",
  });
  assert.deepEqual(messages(bad), {
    sourceName: "Required",
    emailSourceId: "Required",
    fromEmail: "Enter a valid email address",
    subjectValue: "Enter at least 3 characters",
    expectedAttachmentCount: "Must be at least 1",
    expectedNumberOfBatchEmails: "Required",
  });
  const ok = orderSubmissionSourceSave.parse({
    Id: 0,
    sourceName: "Marketplace",
    emailSourceId: "4",
    fromEmail: "orders@market.test",
    subjectValue: "Daily orders",
    expectedAttachmentCount: "1",
    expectedNumberOfBatchEmails: 2,
    linkClickPreceededByText: null,
  });
  assert.equal(ok.emailSourceId, 4);
  assert.equal(ok.linkClickPreceededByText, "");
  assert.equal(ok.activeStatus, true);
  assert.equal(ok.noAttachmentsNeedsLinkClick, false);
});

Deno.test("order submission source form converts to a valid save request", () => {
  const form = {
    ...NEW_ORDER_SUBMISSION_SOURCE_FORM,
    sourceName: "S",
    emailSourceId: "3",
    fromEmail: "a@b.test",
    subjectValue: "Orders",
  };
  assert.ok(orderSubmissionSourceForm.safeParse(form).success);
  assert.deepEqual(
    messages(orderSubmissionSourceForm.safeParse({ ...form, expectedAttachmentCount: "0" })),
    { expectedAttachmentCount: "Must be at least 1" },
  );
  const save = orderSubmissionSourceSave.parse(orderSubmissionSourceFormToSave(9, form));
  assert.equal(save.id, 9);
  assert.equal(save.expectedNumberOfBatchEmails, 1);
});

const vendorBase = {
  orderSubmissionSourceId: 1,
  vendorNameFromFile: "Acme",
  sendFromEmailSourceModelId: 2,
  submitEmails: "orders@acme.test, backup@acme.test",
  submitEmailSubjectLine: "Orders",
  submitFileHeaderRowIndex: 1,
};

Deno.test("vendor save: required fields, regex, every-X-days, template type, aliases", () => {
  assert.deepEqual(messages(orderVendorSourceSave.safeParse({})), {
    orderSubmissionSourceId: "Required",
    vendorNameFromFile: "Required",
    sendFromEmailSourceModelId: "Required",
    submitEmails: "Required",
    submitEmailSubjectLine: "Required",
    submitFileHeaderRowIndex: "Required",
  });
  const regex = messages(orderVendorSourceSave.safeParse({
    ...vendorBase,
    vendorRegexForItemDescription: "([a-z]",
  }));
  assert.match(regex.vendorRegexForItemDescription, /^Invalid regular expression: /);
  assert.deepEqual(
    messages(orderVendorSourceSave.safeParse({
      ...vendorBase,
      submitFileTemplate: "UEsDBA==",
      submitFileTemplateFileName: "t.csv",
      vendorSourceAliases: [{ id: 0, vendorAliasNameFromFile: "" }],
      submitCcEmails: "x@y.test; nope",
    })),
    {
      submitFileTemplateFileName: TEMPLATE_TYPE_MESSAGE,
      "vendorSourceAliases.0.vendorAliasNameFromFile": "Required",
      submitCcEmails: "Enter valid email addresses separated by commas",
    },
  );
  const ok = orderVendorSourceSave.parse({
    ...vendorBase,
    vendorCustomSubmitEveryXDay: "",
    submitFileHeaderRowIndex: "3",
    mapShipTo: " Ship To, Name ",
    vendorSourceAliases: [{ vendorAliasNameFromFile: "ACME Inc." }],
  });
  assert.equal(ok.vendorCustomSubmitEveryXDay, null);
  assert.equal(ok.submitFileHeaderRowIndex, 3);
  assert.equal(ok.mapShipTo, "Ship To, Name");
  assert.equal(ok.mapQty, "");
  assert.equal(ok.staticFileData5, "");
  assert.equal(ok.vendorSourceAliases[0].id, 0);
  assert.deepEqual(mappedColumns(ok.mapShipTo), ["Ship To", "Name"]);
  assert.equal(MAP_FIELDS.length, 24);
  assert.equal(
    orderVendorSourceSave.parse({ ...vendorBase, vendorCustomSubmitEveryXDay: "5" })
      .vendorCustomSubmitEveryXDay,
    5,
  );
  assert.ok(
    !orderVendorSourceSave.safeParse({ ...vendorBase, submitFileHeaderRowIndex: 0 }).success,
  );
  assert.ok(!vendorAliasSave.safeParse({ vendorAliasNameFromFile: "a\u0000b" }).success);
});

Deno.test("vendor form: defaults invalid until filled; converts to a valid save", () => {
  assert.deepEqual(
    Object.keys(messages(orderVendorSourceForm.safeParse(NEW_ORDER_VENDOR_SOURCE_FORM))).sort(),
    [
      "orderSubmissionSourceId",
      "sendFromEmailSourceModelId",
      "submitEmailSubjectLine",
      "submitEmails",
      "vendorNameFromFile",
    ],
  );
  const form = {
    ...NEW_ORDER_VENDOR_SOURCE_FORM,
    orderSubmissionSourceId: "1",
    vendorNameFromFile: "Acme",
    sendFromEmailSourceModelId: "2",
    submitEmails: "a@b.test",
    submitEmailSubjectLine: "Orders",
    submitFileTemplateFileName: "t.xlsx",
  };
  assert.ok(orderVendorSourceForm.safeParse(form).success);
  assert.deepEqual(
    messages(orderVendorSourceForm.safeParse({ ...form, submitFileTemplateFileName: "t.pdf" })),
    { submitFileTemplateFileName: TEMPLATE_TYPE_MESSAGE },
  );
  const save = orderVendorSourceSave.parse(
    orderVendorSourceFormToSave(0, form, [{ vendorAliasNameFromFile: "A2" }], {
      fileName: "t.xlsx",
      base64: "UEsDBA==",
    }),
  );
  assert.equal(save.submitFileTemplateFileName, "t.xlsx");
  assert.equal(save.vendorCustomSubmitEveryXDay, null);
});

Deno.test("vendorSaveErrorText: section 8 banner texts", () => {
  assert.equal(
    vendorSaveErrorText(
      409,
      '{"message":"duplicate key value violates unique constraint \\"vendor_sources_vendor_name_unique\\": Key (vendor_name_from_file)=(Acme Tools) already exists."}',
    ),
    'A vendor with the name "Acme Tools" already exists. Please use a different vendor name.',
  );
  assert.equal(
    vendorSaveErrorText(409, "vendor_sources_vendor_name_unique"),
    'A vendor with the name "this value" already exists. Please use a different vendor name.',
  );
  assert.equal(
    vendorSaveErrorText(409, 'duplicate key value violates unique constraint "other"'),
    "This vendor name already exists. Please use a different name.",
  );
  assert.equal(vendorSaveErrorText(400, '{"message":"Bad template"}'), "Bad template");
  assert.equal(vendorSaveErrorText(null, ""), "An error occurred while saving. Please try again.");
});
