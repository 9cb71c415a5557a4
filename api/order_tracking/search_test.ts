/**
 * The search finds the same orders whichever trigrams the index is told to read: the conditions
 * built from a sample give exactly the rows of plain `ilike '%term%'`, on terms made from the
 * stored values and on arbitrary ones.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import type { Db } from "../db/client.ts";
import type { OrderListRequest } from "../../shared/contract/order_tracking.ts";
import { openTestDb } from "../../tests/support/db.ts";
import { insertOrderSource } from "../../tests/support/order_tracking.ts";
import {
  gathersDeep,
  sampleShare,
  searchOrders,
  searchPlan,
  searchWhere,
  sortClause,
} from "./search.ts";
import { forgetSeekPoints, knownEnd, nearestPoint } from "./page_seek.ts";
import { sampleColumn } from "./trigram_choice.ts";
import { currentSearchSample, refreshSearchSample } from "./search_sample.ts";

const SYLLABLES = ["sto", "vel", "wald", "ka", "lo", "Mü", "ran", "pen"];

/** Orders whose values share common trigrams ("po", "000", "sto") and have rare ones. */
function orderValues(count: number) {
  const pick = (i: number, n: number) => SYLLABLES[(i * n + Math.floor(i / n)) % SYLLABLES.length];
  return Array.from({ length: count }, (_, i) => ({
    key: `k${i}`,
    po: i % 50 === 0 ? null : `PO-${String(i).padStart(7, "0")}`,
    item: `SKU-${String((i * 7919) % 5000).padStart(5, "0")}${i % 9 === 0 ? "%_x" : ""}`,
    customer: `${["Ada", "Ben", "Çelik"][i % 3]} ${pick(i, 3)}${pick(i, 5)}${pick(i, 7)}`,
    shipTo: `Store #${i % 90}, ${["Springfield", "Riverside"][i % 2]}`,
    supplier: `Supplier ${i % 20}`,
    brand: i % 11 === 0 ? "" : `Brand-${i % 10}`,
    tracking: i % 3 === 0
      ? ""
      : `1Z${(i * 2654435761 % 2 ** 32).toString(16).toUpperCase()}\n9400${i}`,
    deleted: i % 97 === 0,
  }));
}

async function fill(db: Db, count: number) {
  const sourceId = await insertOrderSource(db);
  await db.query(
    `insert into orders (order_tracking_source_id, unique_key, customer_po_number, item_number,
       customer_name, ship_to_name, supplier_name, brand_name, tracking_search, deleted_status)
     select $1, key, po, item, customer, "shipTo", supplier, brand, tracking, deleted
       from json_to_recordset($2::text::json) as r(key text, po text, item text, customer text,
         "shipTo" text, supplier text, brand text, tracking text, deleted boolean)`,
    [sourceId, JSON.stringify(orderValues(count))],
  );
}

const KEYS = [
  "PoNumberParam",
  "ItemNumberParam",
  "ShipToNameParam",
  "SupplierNameParam",
  "BrandNameParam",
  "TrackingNumberParam",
] as const;

async function ids(db: Db, where: { sql: string; params: unknown[] }): Promise<number[]> {
  const rows = await db.query<{ id: number }>(
    `select id from orders o where ${where.sql} order by id`,
    where.params,
  );
  return rows.map((row) => row.id);
}

Deno.test("order search: sampled trigram choice finds exactly what plain ilike finds", async (t) => {
  const { db, close } = await openTestDb();
  try {
    await fill(db, 3000);
    assert.equal(currentSearchSample(db), undefined, "no sample before the first one is taken");
    const sample = await refreshSearchSample(db);
    assert.ok(sample.customer_po_number.size > 1000, `sampled ${sample.customer_po_number.size}`);
    assert.equal(currentSearchSample(db), sample);
    // Old: the search goes on with it while a new one is taken in the background.
    assert.equal(currentSearchSample(db, Date.now() + 60_000), sample);
    const next = await refreshSearchSample(db);
    assert.notEqual(next, sample);
    assert.equal(currentSearchSample(db), next);

    await t.step("the sample changes the conditions the index reads", () => {
      const request = { PageSize: 10, PageIndex: 1, PoNumberParam: "PO-00012" };
      assert.match(searchWhere(request, sample).sql, /strpos\(lower\(o\.customer_po_number\)/);
      assert.doesNotMatch(searchWhere(request).sql, /strpos/);
      const short = { PageSize: 10, PageIndex: 1, TrackingNumberParam: "Q7" };
      assert.match(searchWhere(short, sample).sql, /order_search_spread\(o\.tracking_search\)/);
    });

    await t.step(
      "one- and two-character terms, any case, find what plain ilike finds",
      async () => {
        for (const term of ["Ç", "çE", "z", "1Z", "7", "0", "00", "#9", "Q7", "ü", "-"]) {
          for (const key of KEYS) {
            const request = { PageSize: 10, PageIndex: 1, [key]: term };
            const found = await ids(db, searchWhere(request, sample));
            const plain = await ids(db, searchWhere(request));
            assert.deepEqual(found, plain, `${key} "${term}"`);
            // the broad search's filter form
            const filtered = await ids(db, searchWhere(request, null, { filter: true }));
            assert.deepEqual(filtered, plain, `${key} "${term}" as a filter`);
          }
        }
      },
    );

    const values = orderValues(3000).flatMap((row) =>
      [row.po, row.item, row.customer, row.shipTo, row.supplier, row.brand, row.tracking]
        .filter((value): value is string => !!value)
    );
    // a piece of a stored value, in any case, or arbitrary text with wildcards and non-ASCII
    const term = fc.oneof(
      fc.tuple(fc.constantFrom(...values), fc.nat(), fc.integer({ min: 1, max: 12 }), fc.boolean())
        .map(([value, start, length, upper]) => {
          const from = start % value.length;
          const piece = value.slice(from, from + length);
          return upper ? piece.toUpperCase() : piece.toLowerCase();
        }),
      fc.string({ unit: fc.constantFrom(..."ab0-1%_ zü\nSTOvel#9"), maxLength: 8 }),
      fc.constant(""),
    );
    const request = fc.record({
      terms: fc.dictionary(fc.constantFrom(...KEYS), term, { maxKeys: 4 }),
      and: fc.boolean(),
    }).map(({ terms, and }): OrderListRequest => ({
      PageSize: 10,
      PageIndex: 1,
      AndOrParam: and,
      ...terms,
    }));

    await t.step("random searches", async () => {
      await fc.assert(
        fc.asyncProperty(request, async (request) => {
          const plain = await ids(db, searchWhere(request));
          assert.deepEqual(await ids(db, searchWhere(request, sample)), plain);
          // the broad search's filter form
          assert.deepEqual(await ids(db, searchWhere(request, null, { filter: true })), plain);
        }),
        { numRuns: 200 },
      );
    });

    // The list as it answers (index-ordered halves for descending sorts, strpos filters for
    // broad terms, bounded count) against the plain query: every match counted, one sort, offset.
    const sortColumn = fc.constantFrom(
      "customerPoNumber",
      "brandName",
      "qty",
      "orderDate",
      "notes",
      "trackingNumbers",
      "id",
      "shipToName",
    );
    const listed = fc.record({
      terms: fc.dictionary(fc.constantFrom(...KEYS), term, { maxKeys: 3 }),
      and: fc.boolean(),
      sort: fc.array(fc.tuple(sortColumn, fc.boolean()), { maxLength: 2 }),
      page: fc.integer({ min: 1, max: 12 }),
      size: fc.constantFrom(10, 25, 250),
    }).map(({ terms, and, sort, page, size }): OrderListRequest => ({
      PageSize: size,
      PageIndex: page,
      AndOrParam: and,
      SortParams: Object.fromEntries(sort),
      ...terms,
    }));

    await t.step("pages and counts are those of the plain search", async () => {
      await fc.assert(
        fc.asyncProperty(listed, async (request) => {
          const where = searchWhere(request);
          const expected = await db.query<{ id: number }>(
            `select o.id from orders o where ${where.sql} order by ${
              sortClause(request.SortParams)
            } limit ${request.PageSize} offset ${(request.PageIndex - 1) * request.PageSize}`,
            where.params,
          );
          const [{ n }] = await db.query<{ n: number }>(
            `select count(*)::int as n from orders o where ${where.sql}`,
            where.params,
          );
          const answer = await searchOrders(db, request, sample);
          assert.deepEqual(answer.orders.map((o) => o.id), expected.map((r) => r.id));
          if (answer.countCapped) assert.ok(answer.totalRecordCount < n);
          else assert.equal(answer.totalRecordCount, n);
        }),
        { numRuns: 150 },
      );
    });

    // A broad search's deep page with no seek point before it is read through the trigram
    // indexes when its matches are few against the orders the walk would read.
    await t.step("a deep page gathered instead of walked is the plain search's page", async () => {
      const searches: [string, Partial<OrderListRequest>][] = [
        ['Ship To "Store #12" (1 %)', { ShipToNameParam: "Store #12" }],
        ['Supplier "Supplier 3" (5 %)', { SupplierNameParam: "Supplier 3" }],
        ['"Brand-3" AND "Supplier 3"', {
          BrandNameParam: "Brand-3",
          SupplierNameParam: "Supplier 3",
          AndOrParam: true,
        }],
      ];
      const sorts: Record<string, boolean>[] = [
        {},
        { customerName: true },
        { brandName: false },
        { qty: false },
      ];
      const gathered = new Map<string, number>();
      let cases = 0;
      let pointsLeft = 0;
      let pastEnd = 0;
      let strideSeeks = 0;
      for (const [what, terms] of searches) {
        for (const SortParams of sorts) {
          for (const [PageIndex, PageSize] of [[2, 10], [4, 10], [3, 25], [8, 15], [30, 10]]) {
            const request = { PageIndex, PageSize, AndOrParam: false, SortParams, ...terms };
            const label = `${what}, ${
              JSON.stringify(SortParams)
            }, page ${PageIndex} of ${PageSize}`;
            forgetSeekPoints();
            cases++;
            const plan = searchPlan(request, sample);
            const gathers = gathersDeep(plan, 0);
            if (gathers) gathered.set(what, (gathered.get(what) ?? 0) + 1);
            const where = searchWhere(request);
            const plainPage = (size: number, offset: number) =>
              db.query<{ id: number }>(
                `select o.id from orders o where ${where.sql} order by ${
                  sortClause(SortParams)
                } limit ${size} offset ${offset}`,
                where.params,
              ).then((rows) => rows.map((r) => r.id));
            const expected = await plainPage(PageSize, plan.offset);
            const [{ n }] = await db.query<{ n: number }>(
              `select count(*)::int as n from orders o where ${where.sql}`,
              where.params,
            );
            const answer = await searchOrders(db, request, sample);
            assert.deepEqual(answer.orders.map((o) => o.id), expected, label);
            if (answer.countCapped) assert.ok(answer.totalRecordCount < n, label);
            else assert.equal(answer.totalRecordCount, n, label);
            if (!gathers) continue;
            if (n <= plan.offset) {
              // Past the matches' end: the gathering found it, and the page again reads nothing.
              pastEnd++;
              assert.equal(knownEnd(db, plan.seek), n, label);
              assert.deepEqual(await searchOrders(db, request, sample), answer, `${label}, again`);
              continue;
            }
            pointsLeft++;
            // The gathering left seek points as a walk does: the page again, and a page of 50
            // starting at a 50th match before it, are read from a point, with the same rows.
            assert.equal(nearestPoint(db, plan.seek, plan.offset).position, plan.offset, label);
            assert.equal(gathersDeep(plan, plan.offset), false, label);
            const again = await searchOrders(db, request, sample);
            assert.deepEqual(again.orders.map((o) => o.id), expected, `${label}, again`);
            const stride = Math.floor(plan.offset / 50) * 50;
            if (stride === 0 || stride === plan.offset) continue;
            const before = { ...request, PageSize: 50, PageIndex: stride / 50 + 1 };
            assert.equal(nearestPoint(db, plan.seek, stride).position, stride, label);
            strideSeeks++;
            const earlier = await searchOrders(db, before, sample);
            assert.deepEqual(
              earlier.orders.map((o) => o.id),
              await plainPage(50, stride),
              `${label}, the page of 50 from ${stride}`,
            );
          }
        }
      }
      // Both ways are compared: the 1 % search gathers every deep page of every sort; the 5 %
      // ones gather pages 8 of 15 and 30 of 10 (about 2,100 and 5,800 orders walked against 150
      // matches) and walk the rest.
      const total = [...gathered.values()].reduce((a, b) => a + b, 0);
      assert.equal(gathered.get(searches[0][0]), sorts.length * 5);
      for (const [what] of searches) assert.ok(gathered.get(what), `${what} never gathered`);
      assert.ok(total < cases, `${total} of ${cases} gathered`);
      assert.ok(
        pointsLeft > 10 && strideSeeks > 0 && pastEnd > 0,
        `${pointsLeft}, ${strideSeeks}, ${pastEnd} checked`,
      );
    });
  } finally {
    await close();
  }
});

Deno.test("order search: one letter as a filter finds what ilike finds, whatever lower-cases into it", async () => {
  const { db, close } = await openTestDb();
  try {
    const sourceId = await insertOrderSource(db);
    // Characters other than a letter's two ASCII cases that the database may lower-case into it
    // (a Kelvin sign, a dotted capital I), and others that look alike but do not.
    const names = [
      "\u212aelvin",
      "İstanbul",
      "ıslak",
      "Straße",
      "STRASSE",
      "ſtar",
      "ǅemal",
      "Kay",
      "kay",
      "Ada",
      "",
      null,
    ];
    await db.query(
      `insert into orders (order_tracking_source_id, unique_key, customer_name, ship_to_name)
       select $1, 'k' || n, name, 'Store' from unnest($2::text[]) with ordinality as t(name, n)`,
      [sourceId, names],
    );
    for (const letter of "kKiIsSdDzZaA") {
      const request = { PageSize: 10, PageIndex: 1, ShipToNameParam: letter };
      assert.deepEqual(
        await ids(db, searchWhere(request, null, { filter: true })),
        await ids(db, searchWhere(request)),
        letter,
      );
    }
  } finally {
    await close();
  }
});

Deno.test("order search: a sample's share of matches, for AND and OR of terms", () => {
  const values = orderValues(600);
  const sample = {
    customer_po_number: sampleColumn(values.map((v) => v.po)),
    item_number: sampleColumn(values.map((v) => v.item)),
    customer_name: sampleColumn(values.map((v) => v.customer)),
    ship_to_name: sampleColumn(values.map((v) => v.shipTo)),
    supplier_name: sampleColumn(values.map((v) => v.supplier)),
    brand_name: sampleColumn(values.map((v) => v.brand)),
    tracking_search: sampleColumn(values.map((v) => v.tracking)),
  };
  const has = (value: string | null, term: string) =>
    (value ?? "").toLowerCase().includes(term.toLowerCase());
  const share = (match: (v: typeof values[number]) => boolean) =>
    values.filter(match).length / values.length;
  const cases: [string, Partial<OrderListRequest>, number][] = [
    ["no terms", {}, 1],
    ["one term", { SupplierNameParam: "supplier 1" }, share((v) => has(v.supplier, "Supplier 1"))],
    [
      "a term in two columns",
      { ShipToNameParam: "sto" },
      share((v) => has(v.customer, "sto") || has(v.shipTo, "sto")),
    ],
    [
      "AND",
      { SupplierNameParam: "Supplier 1", BrandNameParam: "brand-1", AndOrParam: true },
      share((v) => has(v.supplier, "Supplier 1") && has(v.brand, "Brand-1")),
    ],
    [
      "OR",
      { SupplierNameParam: "Supplier 1", BrandNameParam: "brand-1", AndOrParam: false },
      share((v) => has(v.supplier, "Supplier 1") || has(v.brand, "Brand-1")),
    ],
    ["nothing matches", { ItemNumberParam: "zzz", PoNumberParam: "qqq", AndOrParam: false }, 0],
    // The values are scanned joined by NUL: a term holding one never joins two of them.
    [
      "a term across two neighbouring values",
      { PoNumberParam: `${values[1].po!.slice(-2)}\u0000${values[2].po!.slice(0, 2)}` },
      0,
    ],
    [
      "the last value's end",
      { PoNumberParam: values.at(-1)!.po!.slice(-4) },
      share((v) => has(v.po, values.at(-1)!.po!.slice(-4))),
    ],
  ];
  for (const [name, terms, expected] of cases) {
    const request = { PageIndex: 1, PageSize: 50, AndOrParam: false, ...terms } as OrderListRequest;
    const found = sampleShare(request, sample);
    assert.equal(found, expected, name);
    // Asked again, the remembered share is the same.
    assert.equal(sampleShare(request, sample), expected, `${name}, again`);
  }
  // Between 0 and 1 for the mixed cases, so the table tells AND from OR.
  assert.ok(cases[3][2] > 0 && cases[3][2] < cases[4][2] && cases[4][2] < 1);
});
