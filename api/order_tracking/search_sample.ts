/**
 * A sample of the searched columns of the live orders, kept in memory for a few minutes, from
 * which the search chooses the trigrams its indexes read (trigram_choice.ts).
 */
import type { Db } from "../db/client.ts";
import { logError } from "../http/log_error.ts";
import { type ColumnSample, sampleColumnInSlices } from "./trigram_choice.ts";
import type { SearchParamKey } from "../../shared/contract/order_tracking.ts";

/**
 * Which columns each search parameter of the order list looks in. The parameters are the order
 * catalog's search boxes (`shared/catalog/orders.ts`); a box without columns here does not compile.
 */
export const SEARCH_COLUMNS = {
  PoNumberParam: ["customer_po_number"],
  ItemNumberParam: ["item_number"],
  ShipToNameParam: ["customer_name", "ship_to_name"],
  SupplierNameParam: ["supplier_name"],
  BrandNameParam: ["brand_name"],
  TrackingNumberParam: ["tracking_search"],
} as const satisfies Record<SearchParamKey, readonly string[]>;

export type SearchedColumn = typeof SEARCH_COLUMNS[keyof typeof SEARCH_COLUMNS][number];

/** The columns the order search looks in, each once: the ones sampled. */
const SEARCHED_COLUMNS = [...new Set(Object.values(SEARCH_COLUMNS).flat())] as SearchedColumn[];

export type SearchSample = Record<SearchedColumn, ColumnSample>;

/** About this many orders are sampled: enough to tell a trigram in 1 % of rows from one in 0.1 %. */
const SAMPLE_ROWS = 10_000;
/** The sample is read in this many statements, each a quarter of the rows. */
const SAMPLE_PIECES = 4;
/** Orders fill about this many a page (8 kB); the sampled share of pages follows from it. */
const ROWS_PER_PAGE = 40;
/** A sample is used for this long; trigram frequencies move slowly as files arrive. */
const SAMPLE_TTL_MS = 5 * 60_000;
/**
 * A small table, read whole, is read again sooner: the first files of a new installation
 * change it completely, and reading it is cheap.
 */
const SMALL_TABLE_TTL_MS = 30_000;

interface Cached {
  sample?: SearchSample;
  /** When the sample was taken, and how long it is used. */
  at: number;
  ttl: number;
  refreshing?: Promise<SearchSample>;
}

const cache = new WeakMap<Db, Cached>();

/**
 * The sample to search `db` with now, without waiting: the one in memory, or none before the
 * first one is taken. When it is missing or old (five minutes; 30 s for a table small enough to
 * be read whole) a new one is taken in the background; searches meanwhile use the old one (or
 * read every trigram, without one).
 */
export function currentSearchSample(db: Db, now = Date.now()): SearchSample | undefined {
  const cached = cache.get(db);
  if (!cached || (now - cached.at >= cached.ttl && !cached.refreshing)) {
    // A failed sampling is logged and tried again by a later search.
    refreshSearchSample(db).catch((error) => logError("order search sample", error));
  }
  return cached?.sample;
}

/** Takes a new sample of `db` now and keeps it for the searches that follow. */
export function refreshSearchSample(db: Db): Promise<SearchSample> {
  const cached: Cached = cache.get(db) ?? { at: 0, ttl: 0 };
  if (cached.refreshing) return cached.refreshing;
  cache.set(db, cached);
  const refreshing = takeSample(db).then(
    ({ sample, whole }) => {
      cache.set(db, { sample, at: Date.now(), ttl: whole ? SMALL_TABLE_TTL_MS : SAMPLE_TTL_MS });
      return sample;
    },
    (error) => {
      cached.refreshing = undefined;
      throw error;
    },
  );
  cached.refreshing = refreshing;
  return refreshing;
}

/**
 * Reads about SAMPLE_ROWS live orders from pages picked at random (`tablesample system`), so
 * sampling costs the same at a thousand orders and at ten million.
 */
async function takeSample(db: Db): Promise<{ sample: SearchSample; whole: boolean }> {
  const [{ pages }] = await db.query<{ pages: number }>(
    "select pg_relation_size('orders') / current_setting('block_size')::int as pages",
  );
  const percent = Math.min(100, (100 * SAMPLE_ROWS) / ROWS_PER_PAGE / Math.max(1, pages));
  // In SAMPLE_PIECES background turns: read in one statement, the sample held PGlite's one
  // connection about 150 ms, and a search that came meanwhile waited for it (issue 29).
  const rows: Record<SearchedColumn, string | null>[] = [];
  for (let piece = 0; piece < SAMPLE_PIECES; piece++) {
    rows.push(
      ...await db.transaction((tx) =>
        tx.query<Record<SearchedColumn, string | null>>(
          `select ${SEARCHED_COLUMNS.join(", ")}
             from orders tablesample system (${percent.toFixed(6)})
            where not deleted_status and id % ${SAMPLE_PIECES} = ${piece}
            limit ${(SAMPLE_ROWS * 2) / SAMPLE_PIECES}`,
        ), { background: true }),
    );
  }
  // Indexed in slices: at once, this held the thread that answers requests 30–75 ms.
  const sample = {} as SearchSample;
  for (const column of SEARCHED_COLUMNS) {
    sample[column] = await sampleColumnInSlices(rows.map((row) => row[column]));
  }
  ordersOf.set(sample, Math.round((rows.length * 100) / percent));
  return { sample, whole: percent === 100 };
}

/** Each sample's estimate of the live orders: the rows it read over the share of pages read. */
const ordersOf = new WeakMap<SearchSample, number>();

/**
 * About how many live orders there were when `sample` was taken (undefined for a sample not
 * taken from a table, as tests build them). An estimate: the sample reads a share of the pages.
 */
export function sampledOrders(sample: SearchSample): number | undefined {
  return ordersOf.get(sample);
}
