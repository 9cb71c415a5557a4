import assert from "node:assert/strict";
import { encodeBase64 } from "../shared/base64.ts";
import { readTable, writeTable } from "../shared/files/mod.ts";
import { cutCsv, cutSheetXml, cutZip, withSheetXml } from "../shared/files/truncated_testing.ts";

const root = new URL("../", import.meta.url).pathname;
const fixture = (n: string) => `${root}tests/fixtures/files/${n}`;

/** Runs the real CLI as an operator would (stdout is a pipe: no progress line). */
async function cli(...args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${root}cli/main.ts`, "inventory", "process", ...args],
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

function setup(source: Record<string, unknown> = {}) {
  const dir = Deno.makeTempDirSync({ prefix: "inventory_cli_" });
  const config = `${dir}/source.json`;
  Deno.writeTextFileSync(
    config,
    JSON.stringify({
      id: 7,
      sourceName: "Acme",
      fileType: "csv",
      itemNumberColumnName: "Item Number",
      qtyColumnName: "Qty",
      stripLeadingZeroes: true,
      ...source,
      fileData: {
        userActivatedItemNumbers: "123, 456\nA-77, 0, 999",
        inventoryFileName: "seller.csv",
        inventoryFileData: encodeBase64(new TextEncoder().encode("Item,Status,Date\r\n")),
        itemNumberColumnName: "Item",
        itemStatusColumnName: "Status",
        itemStatusDateColumnName: "Date",
      },
    }),
  );
  return { dir, config, out: `${dir}/out.csv` };
}

Deno.test("inventory process: writes the generated file, prints counts and row errors", async () => {
  const { dir, config, out } = setup();
  try {
    const r = await cli(
      fixture("inventory_utf8.csv"),
      "--config",
      config,
      "--out",
      out,
      "--now",
      "2026-03-10T08:00:00Z",
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /^Done: Processed 5 items: 2 Active, 3 Inactive \(1 missing from the file\)\./,
    );
    assert.match(r.stdout, /Row 4, Qty: "N\/A" is not a number/);
    assert.ok(!r.stdout.includes("\x1b["), "no progress line when stdout is not a terminal");
    const t = await readTable(Deno.readFileSync(out), { name: "out.csv" });
    assert.deepEqual(t.rows, [
      ["123", "Active", "2026-03-10"],
      ["456", "Active", "2026-03-10"],
      ["A-77", "Inactive", "2026-03-10"],
      ["0", "Inactive", "2026-03-10"],
      ["999", "Inactive", "2026-03-10"],
    ]);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("inventory process --json: held by the guard exits 2, flips listed, file kept", async () => {
  const { dir, config, out } = setup();
  try {
    const previous = `${dir}/previous.json`;
    Deno.writeTextFileSync(
      previous,
      JSON.stringify(
        ["123", "456", "A-77", "0", "999"].map((itemNumber) => ({ itemNumber, status: "Active" })),
      ),
    );
    const r = await cli(
      fixture("inventory_utf8.csv"),
      "--config",
      config,
      "--out",
      out,
      "--previous",
      previous,
      "--json",
    );
    assert.equal(r.code, 2, r.stderr);
    const json = JSON.parse(r.stdout);
    assert.equal(json.status, "held");
    assert.equal(json.exitCode, 2);
    assert.equal(json.guard.held, true);
    assert.equal(json.guard.previouslyActive, 5);
    assert.equal(json.guard.turnedInactive, 3);
    assert.equal(json.guard.share, 0.6);
    assert.equal(json.guard.held, true);
    assert.deepEqual(json.flips, [
      { itemNumber: "A-77", from: "Active", to: "Inactive" },
      { itemNumber: "0", from: "Active", to: "Inactive" },
      { itemNumber: "999", from: "Active", to: "Inactive" },
    ]);
    assert.ok(Deno.statSync(out).size > 0);
    // A higher threshold releases it; a previously generated file works as --previous too.
    Deno.copyFileSync(out, `${dir}/last.csv`);
    const again = await cli(
      fixture("inventory_utf8.csv"),
      "--config",
      config,
      "--out",
      out,
      "--previous",
      `${dir}/last.csv`,
      "--json",
      "--threshold",
      "0.6",
    );
    assert.equal(again.code, 0, again.stdout);
    assert.equal(JSON.parse(again.stdout).flips.length, 0);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("inventory process: refused input exits 1, valid JSON on every error path", async () => {
  const { dir, config, out } = setup({ qtyColumnName: "Quantity" });
  try {
    const cases: [string[], number, RegExp][] = [
      [
        [fixture("inventory_utf8.csv"), "--config", config, "--out", out],
        1,
        /Column "Quantity" was not found\. Headers found: "Item Number"/,
      ],
      [
        [fixture("inventory_utf8.csv"), "--config", `${dir}/none.json`, "--out", out],
        1,
        /cannot read the config/,
      ],
      [[fixture("inventory_utf8.csv"), "--out", out], 1, /--config <source\.json> is required/],
      [
        [fixture("inventory.xlsx"), "--config", config, "--out", out],
        1,
        /Invalid file type\. Expected \.csv but got \.xlsx/,
      ],
      [
        [fixture("inventory_utf8.csv"), "--config", fixture("inventory_utf8.csv"), "--out", out],
        1,
        /not valid JSON/,
      ],
    ];
    for (const [i, [args, code, message]] of cases.entries()) {
      const r = await cli(...args, "--json");
      assert.equal(r.code, code, r.stdout + r.stderr);
      const json = JSON.parse(r.stdout);
      assert.equal(json.status, "refused");
      assert.match(json.message, message);
      if (i > 1) continue;
      const text = await cli(...args);
      assert.equal(text.code, code);
      assert.match(text.stderr, /^error: /);
    }
    const good = setup();
    const r = await cli(
      fixture("inventory_utf8.csv"),
      "--config",
      good.config,
      "--out",
      `${dir}/no/such/dir/out.csv`,
      "--json",
    );
    assert.equal(r.code, 3);
    assert.equal(JSON.parse(r.stdout).status, "failed");
    Deno.removeSync(good.dir, { recursive: true });
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("inventory process --snapshots: the prediction runs over stored quantities", async () => {
  const { dir, config, out } = setup({
    usesPredictiveAlgorithm: true,
    minDataPoints: 3,
    safetyMultiplier: 1,
    safetyPadding: 0,
    largeDropThreshold: 100000,
  });
  try {
    const snapshots = `${dir}/snapshots.json`;
    // 456 sells 1,000 a day: 1,250 left covers the 1,000 of a one-day interval, Active.
    // 123 sells 10 a day: 5 left is below the 10 required, Inactive.
    Deno.writeTextFileSync(
      snapshots,
      JSON.stringify([
        { itemNumber: "123", quantity: 25, takenAt: "2026-03-08T08:00:00Z" },
        { itemNumber: "456", quantity: 3250, takenAt: "2026-03-08T08:00:00Z" },
        { itemNumber: "123", quantity: 15, takenAt: "2026-03-09T08:00:00Z" },
        { itemNumber: "456", quantity: 2250, takenAt: "2026-03-09T08:00:00Z" },
      ]),
    );
    const next = `${dir}/next.json`;
    const r = await cli(
      fixture("inventory_utf8.csv"),
      "--config",
      config,
      "--out",
      out,
      "--snapshots",
      snapshots,
      "--snapshots-out",
      next,
      "--now",
      "2026-03-10T08:00:00Z",
      "--json",
    );
    assert.equal(r.code, 0, r.stdout);
    const json = JSON.parse(r.stdout);
    assert.equal(json.counts.predictedInactive, 1);
    assert.deepEqual(json.modifications.map((m: { itemNumber: string }) => m.itemNumber), ["123"]);
    assert.equal(JSON.parse(Deno.readTextFileSync(next)).length, 7);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("inventory process: a supplier file cut off in transfer is refused, nothing is written", async () => {
  const headers = ["Item Number", "Description", "Qty"];
  const rows = Array.from({ length: 30 }, (_, i) => [`A${i}`, `line one\nline two ${i}`, "5"]);
  const cases: [string, Record<string, unknown>, Uint8Array, RegExp][] = [
    [
      "stock.csv",
      {},
      cutCsv(writeTable(headers, rows, "csv")),
      /^The file ends inside a quoted field that opens in row \d+: it was cut off/,
    ],
    [
      "stock.xlsx",
      { fileType: "xlsx" },
      cutZip(writeTable(headers, rows, "xlsx")),
      /^The workbook ends early \(its zip directory is missing\)/,
    ],
    [
      "stock.xlsx",
      { fileType: "xlsx" },
      withSheetXml(writeTable(headers, rows, "xlsx"), (x) => cutSheetXml(x, 0.7)),
      /^The workbook ends early \(the XML of xl\/worksheets\/sheet1\.xml stops before its end\)/,
    ],
  ];
  for (const [name, source, bytes, message] of cases) {
    const { dir, config, out } = setup(source);
    try {
      const file = `${dir}/${name}`;
      Deno.writeFileSync(file, bytes);
      const json = await cli(file, "--config", config, "--out", out, "--json");
      assert.equal(json.code, 1, json.stdout + json.stderr);
      const report = JSON.parse(json.stdout);
      assert.equal(report.status, "refused");
      assert.match(report.message, message);
      const text = await cli(file, "--config", config, "--out", out);
      assert.equal(text.code, 1);
      assert.equal(text.stderr.trimEnd().split("\n").length, 1, text.stderr);
      assert.match(text.stderr, /^error: .*(cut off|ends early)/);
      assert.equal(await Deno.stat(out).then(() => true, () => false), false, "no file written");
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  }
});
