import assert from "node:assert/strict";
import { chooseDownloadLinks, decodeEntities, extractAnchors, httpUrl } from "./link_click.ts";

const fixture = (name: string) =>
  Deno.readTextFile(new URL(`../../tests/fixtures/submission/${name}`, import.meta.url));

Deno.test("anchors: scripts, styles and comments skipped, entities decoded, text collapsed", async () => {
  const anchors = extractAnchors(await fixture("report_ready_body.html.txt"));
  assert.deepEqual(anchors.map((a) => a.text), [
    "Download Excel",
    "Download PDF",
    "help@portal.example.com",
    "Download Excel (old)",
    "https://files.example.net/dl/9918/orders.csv",
    "Unsubscribe",
  ]);
  assert.equal(
    anchors[0].href,
    "https://portal.example.com/track?u=1&t=abc&dest=reports%2F9918.xlsx",
  );
});

Deno.test("button text: the spreadsheet button; javascript: and mailto: never chosen", async () => {
  const html = await fixture("report_ready_body.html.txt");
  const links = chooseDownloadLinks({ html }, {
    downloadSpreadsheet: true,
    spreadsheetDownloadButtonText: "download excel",
    pdfDownloadButtonText: "Download PDF",
  });
  assert.deepEqual(links, [{
    url: "https://portal.example.com/track?u=1&t=abc&dest=reports%2F9918.xlsx",
    kind: "spreadsheet",
    reason: "button_text",
  }]);
  const pdf = chooseDownloadLinks({ html }, {
    downloadPdf: true,
    spreadsheetDownloadButtonText: "Download Excel",
    pdfDownloadButtonText: "Download PDF",
  });
  assert.deepEqual(pdf.map((l) => [l.kind, l.url.slice(-8)]), [["pdf", "9918.pdf"]]);
});

Deno.test("preceded by text: the URL following it, across tags", async () => {
  const html = await fixture("report_ready_body.html.txt");
  assert.deepEqual(
    chooseDownloadLinks({ html }, { linkClickPreceededByText: "Report link:" }),
    [{
      url: "https://files.example.net/dl/9918/orders.csv?sig=Zm9v",
      kind: "file",
      reason: "preceded_by_text",
    }],
  );
  const outlook = await fixture("outlook_link_body.html.txt");
  const links = chooseDownloadLinks({ html: outlook }, {
    linkClickPreceededByText: "orders file:",
    downloadSpreadsheet: true,
  });
  assert.equal(links.length, 1);
  assert.ok(links[0].url.startsWith("https://nam12.safelinks.protection.outlook.com/?url="));
  assert.equal(links[0].kind, "spreadsheet");
});

Deno.test("always contains text: anchors then text URLs; combined with preceded-by", async () => {
  const outlook = await fixture("outlook_link_body.html.txt");
  assert.deepEqual(
    chooseDownloadLinks({ html: outlook }, { linkClickAlwaysContainsText: "share.example.org" })
      .map((l) => l.url),
    [
      "https://nam12.safelinks.protection.outlook.com/?url=https%3A%2F%2Fshare.example.org%2Fs%2FAbC123%3Fdownload%3D1&data=05%7C02",
      "https://share.example.org/s/Old999",
    ],
  );
  // With both: the first URL after the text that contains the always text.
  assert.deepEqual(
    chooseDownloadLinks({ html: outlook }, {
      linkClickPreceededByText: "Hi team",
      linkClickAlwaysContainsText: "Old999",
    }).map((l) => [l.reason, l.url]),
    [["preceded_by_text", "https://share.example.org/s/Old999"]],
  );
});

Deno.test("text-only e-mails: preceded-by and button text find bare URLs", () => {
  const text =
    "Hello,\r\nYour orders are ready.\r\nDownload spreadsheet: https://dl.example.com/a.xlsx.\r\n" +
    "Download PDF: https://dl.example.com/a.pdf\r\nftp://old.example.com/x";
  assert.deepEqual(
    chooseDownloadLinks({ text }, { linkClickPreceededByText: "Download PDF:" }).map((l) => l.url),
    ["https://dl.example.com/a.pdf"],
  );
  assert.deepEqual(
    chooseDownloadLinks({ text }, {
      downloadSpreadsheet: true,
      spreadsheetDownloadButtonText: "Download spreadsheet",
    }).map((l) => l.url),
    ["https://dl.example.com/a.xlsx"],
  );
  assert.deepEqual(
    chooseDownloadLinks({ text }, { linkClickAlwaysContainsText: "old.example" }),
    [],
  );
});

Deno.test("nothing configured or nothing found gives no link", async () => {
  const html = await fixture("report_ready_body.html.txt");
  assert.deepEqual(chooseDownloadLinks({ html }, {}), []);
  assert.deepEqual(
    chooseDownloadLinks({ html }, {
      downloadSpreadsheet: true,
      spreadsheetDownloadButtonText: "Get CSV",
    }),
    [],
  );
});

Deno.test("httpUrl and decodeEntities", () => {
  assert.equal(httpUrl("javascript:alert(1)"), null);
  assert.equal(httpUrl("/relative/path"), null);
  assert.equal(httpUrl("https://user:pw@host.test/x"), null);
  assert.equal(httpUrl(" https://host.test/a b "), "https://host.test/ab");
  assert.equal(httpUrl("HTTP://Host.Test/x"), "http://host.test/x");
  assert.equal(decodeEntities("a&amp;b&#x41;&#66;&nbsp;&bogus;"), "a&bAB &bogus;");
});

Deno.test("a hostile body (tags that never close, many anchors) is read at once", () => {
  const settings = {
    linkClickPreceededByText: "your file",
    linkClickAlwaysContainsText: "files.example",
  };
  const link = 'Your file: <a href="https://files.example/o.csv">here</a>';
  for (
    const html of [
      link + "<a".repeat(40_000), // was 24 s: every `<a` rescanned the rest for a `>`
      link + "<".repeat(80_000),
      link + '<a href="https://x.example/">'.repeat(20_000),
      `<p>${"your ".repeat(20_000)}file</p>` + link,
    ]
  ) {
    const started = performance.now();
    const links = chooseDownloadLinks({ html }, settings);
    const ms = performance.now() - started;
    assert.equal(links[0]?.url, "https://files.example/o.csv");
    assert.ok(ms < 2_000, `${html.slice(-20)}: ${ms.toFixed(0)} ms`);
  }
});
