import assert from "node:assert/strict";
import { writeTable } from "../shared/files/mod.ts";
import { cutCsv, cutSheetXml, cutZip, withSheetXml } from "../shared/files/truncated_testing.ts";

const root = new URL("../", import.meta.url).pathname;
const fixture = (n: string) => `${root}tests/fixtures/files/${n}`;

/** Runs the real CLI as an operator would. */
async function cli(...args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${root}cli/main.ts`, ...args],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
}

Deno.test("inspect --json --all prints every row as the feeds receive it", async () => {
  const r = await cli("inspect", "--json", "--all", fixture("orders_titled.xlsx"));
  assert.equal(r.code, 0, r.stderr);
  const json = JSON.parse(r.stdout);
  assert.deepEqual(Object.keys(json), [
    "format",
    "encoding",
    "delimiter",
    "headerRow",
    "headers",
    "rows",
    "errors",
  ]);
  assert.equal(json.format, "xlsx");
  assert.equal(json.headerRow, 4);
  assert.deepEqual(json.rows[1], ["PO-1002", "004567", "1250", "0.1", "2024-02-29", "125"]);
  assert.equal(json.rows.length, 4);
});

Deno.test("inspect options: sheet, header row, no headers, leading zeros", async () => {
  const stock = JSON.parse(
    (await cli(
      "inspect",
      "--json",
      "--all",
      "--sheet",
      "Stock",
      "--strip-leading-zeros",
      fixture("orders_titled.xls"),
    )).stdout,
  );
  assert.deepEqual(stock.rows.map((r: string[]) => r[0]), ["1", "2"]);
  const raw = JSON.parse(
    (await cli("inspect", "--json", "--all", "--no-headers", fixture("inventory_pipe.txt"))).stdout,
  );
  assert.equal(raw.headerRow, null);
  assert.deepEqual(raw.rows[0], ["Item Number", "Description", "Qty", "Price", "Updated"]);
  const row2 = JSON.parse(
    (await cli("inspect", "--json", "--all", "--header-row", "2", fixture("inventory_utf8.csv")))
      .stdout,
  );
  assert.equal(row2.headers[0], "00123");
});

Deno.test("inspect prints a readable summary", async () => {
  const r = await cli("inspect", fixture("inventory_semicolon.csv"));
  assert.equal(r.code, 0);
  assert.match(r.stdout, /Format: +CSV/);
  assert.match(r.stdout, /Encoding: +UTF-8/);
  assert.match(r.stdout, /Delimiter: +semicolon/);
  assert.match(r.stdout, /Header row: +1/);
  assert.match(r.stdout, /row 2 +00123 \| Café crème/);
});

Deno.test("a refused file exits non-zero with one clear line", async () => {
  const cases: [string[], RegExp][] = [
    [[fixture("image_named.csv")], /^error: "image_named.csv" is a PNG image, not a CSV file\.$/],
    [
      ["--max-size", "100", fixture("inventory_utf8.csv")],
      /^error: "inventory_utf8.csv" is 226 bytes .*at most 100 bytes/,
    ],
    [["--sheet", "Nope", fixture("orders_titled.xlsx")], /^error: Sheet "Nope" was not found/],
    [[fixture("missing.csv")], /^error: cannot read .*missing.csv: no such file$/],
  ];
  for (const [args, message] of cases) {
    const r = await cli("inspect", "--json", ...args);
    assert.equal(r.code, 1, args.join(" "));
    assert.equal(r.stdout, "");
    assert.equal(r.stderr.trimEnd().split("\n").length, 1, r.stderr);
    assert.match(r.stderr.trimEnd(), message);
  }
});

Deno.test("a file cut off in transfer is refused with one line, not shown with a row error", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "inspect_cut_" });
  try {
    const rows = Array.from({ length: 30 }, (_, i) => [`A${i}`, `line one\nline two ${i}`, "5"]);
    const cases: [string, Uint8Array, RegExp][] = [
      [
        "stock.csv",
        cutCsv(writeTable(["Item", "Note", "Qty"], rows, "csv")),
        /^error: The file ends inside a quoted field that opens in row \d+: it was cut off .*Send the whole file again\.$/,
      ],
      [
        "stock.xlsx",
        cutZip(writeTable(["Item", "Note", "Qty"], rows, "xlsx"), 0.8),
        /^error: The workbook ends early \(.*\): it was cut off in transfer; nothing was read\. Send the whole file again\.$/,
      ],
      [
        "sheet.xlsx",
        withSheetXml(writeTable(["Item", "Note", "Qty"], rows, "xlsx"), (x) => cutSheetXml(x)),
        /^error: The workbook ends early \(the XML of xl\/worksheets\/sheet1\.xml stops before its end\)/,
      ],
    ];
    for (const [name, bytes, message] of cases) {
      Deno.writeFileSync(`${dir}/${name}`, bytes);
      for (const json of [[], ["--json", "--all"]]) {
        const r = await cli("inspect", ...json, `${dir}/${name}`);
        assert.equal(r.code, 1, `${name}: ${r.stdout}`);
        assert.equal(r.stdout, "");
        assert.equal(r.stderr.trimEnd().split("\n").length, 1, r.stderr);
        assert.match(r.stderr.trimEnd(), message);
      }
    }
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
