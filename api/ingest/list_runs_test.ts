/**
 * The runs list answers each shape of filter (feeds or all, a source or all) with the right runs,
 * newest first, up to its limit; asked again, the kept statements answer the same.
 */
import assert from "node:assert/strict";
import { openTestDb } from "../../tests/support/db.ts";
import { listRuns } from "./import_runs.ts";

/** Run n: feed and source by n, created n minutes ago (so run 1 is the newest). */
const RUNS = Array.from({ length: 12 }, (_, i) => ({
  n: i + 1,
  feed: ["order-tracking", "inventory", "order-submission"][i % 3],
  sourceId: 1 + (i % 2),
}));

const cases: {
  name: string;
  filter: Parameters<typeof listRuns>[1];
  expected: (run: (typeof RUNS)[number]) => boolean;
}[] = [
  { name: "every feed and source", filter: { feeds: null }, expected: () => true },
  {
    name: "two feeds",
    filter: { feeds: ["order-tracking", "inventory"] },
    expected: (run) => run.feed !== "order-submission",
  },
  {
    name: "one feed, one source",
    filter: { feeds: ["inventory"], sourceId: 2 },
    expected: (run) => run.feed === "inventory" && run.sourceId === 2,
  },
  {
    name: "one source, every feed",
    filter: { feeds: null, sourceId: 1 },
    expected: (run) => run.sourceId === 1,
  },
  { name: "a limit", filter: { feeds: null, limit: 5 }, expected: (run) => run.n <= 5 },
  { name: "a feed without runs", filter: { feeds: ["nothing"] }, expected: () => false },
];

Deno.test("the runs list: each shape of filter, newest first, twice alike", async (t) => {
  const { db, close } = await openTestDb();
  try {
    const ids = new Map<number, number>();
    for (const run of RUNS) {
      const [row] = await db.query<{ id: number }>(
        `insert into import_runs (feed, source_id, trigger, status, file_name, received_at,
           created_at)
         values ($1, $2, 'mail', 'succeeded', $3, now(), now() - make_interval(mins => $4::int))
         returning id`,
        [run.feed, run.sourceId, `run-${run.n}.csv`, run.n],
      );
      ids.set(run.n, row.id);
    }
    for (const { name, filter, expected } of cases) {
      await t.step(name, async () => {
        const want = RUNS.filter(expected).map((run) => ids.get(run.n));
        for (let time = 0; time < 2; time++) {
          const got = await listRuns(db, filter);
          assert.deepEqual(got.map((run) => run.id), want);
        }
      });
    }
  } finally {
    await close();
  }
});
