/**
 * Which trigrams of a search term the GIN index should read.
 *
 * A trigram GIN scan costs about one step per posting of every trigram it reads, and the
 * postings of a common trigram ("po-" of every PO number, "sto" of every "Store #") run to
 * most of the table: a term made of common trigrams spends most of its time walking them, even
 * when one rare trigram alone narrows the matches to a few hundred orders. So the index is
 * given only the term's rarer trigrams, chosen from a sample of the column, and the whole term
 * is then checked on the few candidate rows. The choice changes speed, never results.
 */

/**
 * A sample of one column: for each trigram piece, the sample values (by position) that contain
 * it. Built once per sample, read by every search.
 */
export interface ColumnSample {
  /** Number of sampled values. */
  size: number;
  /** The sampled values, lower case (by position; null for empty), to estimate a term's share. */
  values: (string | null)[];
  /** Trigram piece (as `pieceCode`) → ascending positions of the sampled values containing it. */
  postings: Map<number, number[]>;
  /**
   * Positions of the values holding a character beyond ASCII: lower-casing one may make an ASCII
   * letter (the Kelvin sign makes "k") or move the characters after it, so their lower case may
   * hold pieces the value's own were not read as (`mayContain`).
   */
  beyondAscii: number[];
}

/** Letters and digits → 0..35 (either case), anything else → -1. */
const ALNUM = new Int8Array(128).fill(-1);
for (let i = 0; i < 10; i++) ALNUM[48 + i] = i;
for (let i = 0; i < 26; i++) ALNUM[65 + i] = ALNUM[97 + i] = 10 + i;

const alnum = (text: string, i: number) => {
  const c = text.charCodeAt(i);
  return c < 128 ? ALNUM[c] : -1;
};

/** Codes of word-start pieces follow those of the 36³ three-character ones, then word ends. */
const WORD_START = 36 * 36 * 36;
const WORD_END = WORD_START + 36 + 36 * 36;

/** LIKE's wildcards and escape: a piece holding one would not be read literally. */
const LIKE_SPECIAL = new Set(["%", "_", "\\"]);

/**
 * Calls `visit` for every piece of `text`, with the piece as a number (case ignored) and where
 * it starts and ends. The one definition of a piece, for the sampled values and for the terms:
 *
 * - three ASCII letters or digits in a row (a trigram inside a word);
 * - the first one or two letters or digits of a word, with the character before it, and the last
 *   two with the character after it. pg_trgm pads each word with spaces, so "Brand 42" has the
 *   trigrams "  4", " 42" and "42 ", which the index reads for `ilike '% 42%'` (the orders with a
 *   word starting with "42") and `ilike '%42,%'` (ending with it): a number of one or two digits
 *   in a term ("Brand 42", "Store #12") is often its only rare part (measured at 1M orders:
 *   "Brand 42" matches 1 % of them, and its pieces "bra", "ran", "and" all of them).
 *
 * A word's edge needs the character beyond it: in a sampled value (`inValue`) the value's start
 * and end count too, but a term's edges do not (the value may go on there). That character must
 * be ASCII (beyond it a letter may follow, which pg_trgm counts in the word) and, in a term, not
 * a LIKE wildcard (the piece is read as `ilike '%piece%'`).
 */
function eachPiece(
  text: string,
  visit: (code: number, start: number, end: number) => void,
  inValue = true,
): void {
  const edge = (at: number) =>
    at < 0 || at >= text.length
      ? inValue
      : text.charCodeAt(at) < 128 && (inValue || !LIKE_SPECIAL.has(text[at]));
  let a = -1, b = -1;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? alnum(text, i) : -1;
    if (a >= 0 && b >= 0 && c >= 0) visit((a * 36 + b) * 36 + c, i - 2, i + 1);
    if (c >= 0 && b < 0 && edge(i - 1)) {
      visit(WORD_START + c, i - 1, i + 1);
      const next = i + 1 < text.length ? alnum(text, i + 1) : -1;
      if (next >= 0) visit(WORD_START + 36 + c * 36 + next, i - 1, i + 2);
    }
    if (c < 0 && a >= 0 && b >= 0 && edge(i)) visit(WORD_END + a * 36 + b, i - 2, i + 1);
    a = b;
    b = c;
  }
}

/**
 * A piece as a number, so that sampling thousands of values makes no strings: three letters or
 * digits, a word's start (a character that is neither, then one or two that are) or its end (two
 * that are, then one that is not).
 */
export function pieceCode(piece: string): number {
  const first = alnum(piece, 0);
  if (first < 0) {
    const a = alnum(piece, 1);
    return piece.length === 2 ? WORD_START + a : WORD_START + 36 + a * 36 + alnum(piece, 2);
  }
  const last = alnum(piece, 2);
  return last < 0
    ? WORD_END + first * 36 + alnum(piece, 1)
    : (first * 36 + alnum(piece, 1)) * 36 + last;
}

/** The term's distinct pieces (`eachPiece`), lower case, in the order they occur. */
export function trigramPieces(term: string): string[] {
  const pieces = new Map<number, string>();
  eachPiece(term, (code, start, end) => {
    if (!pieces.has(code)) pieces.set(code, term.slice(start, end).toLowerCase());
  }, false);
  return [...pieces.values()];
}

/** The pieces and the positions beyond ASCII of sampled values, as they are indexed. */
interface Index {
  postings: Map<number, number[]>;
  beyondAscii: number[];
}

const newIndex = (): Index => ({ postings: new Map(), beyondAscii: [] });

/**
 * Adds the pieces of `values[from..to)` to `index.postings` (positions ascending, each once), and
 * the positions of those beyond ASCII to `index.beyondAscii`.
 */
function indexValues(
  { postings, beyondAscii }: Index,
  values: readonly (string | null)[],
  from: number,
  to: number,
): void {
  for (let position = from; position < to; position++) {
    const value = values[position];
    if (!value) continue;
    if (/[^\0-\x7f]/.test(value)) beyondAscii.push(position);
    eachPiece(value, (code) => {
      const list = postings.get(code);
      if (!list) postings.set(code, [position]);
      else if (list[list.length - 1] !== position) list.push(position);
    });
  }
}

/** The sample of `values` once `index` holds all of them. */
function columnSample(values: readonly (string | null)[], index: Index): ColumnSample {
  return { size: values.length, ...index, values: values.map((v) => v ? v.toLowerCase() : null) };
}

/** Indexes sampled values of one column by their trigram pieces. */
export function sampleColumn(values: readonly (string | null)[]): ColumnSample {
  const index = newIndex();
  indexValues(index, values, 0, values.length);
  return columnSample(values, index);
}

/** Values indexed between two turns of the event loop by {@link sampleColumnInSlices}. */
export const SAMPLE_SLICE = 500;

/**
 * {@link sampleColumn} in slices of `slice` values, each followed by a timer turn. The server
 * samples 10,000 orders of seven columns: indexed at once, that held the thread that answers
 * requests 30–75 ms (issue 29: a search during a 40,000-row import waited for it).
 *
 * @example
 * const sample = await sampleColumnInSlices(["PO-0001200", "PO-0012000"]);
 */
export async function sampleColumnInSlices(
  values: readonly (string | null)[],
  slice = SAMPLE_SLICE,
): Promise<ColumnSample> {
  const index = newIndex();
  for (let from = 0; from < values.length; from += slice) {
    indexValues(index, values, from, Math.min(values.length, from + slice));
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return columnSample(values, index);
}

/**
 * A term's rarest piece is in more than this share of the sampled values: checking each of them
 * costs about what one scan of all the values does (`mayContain` answers null).
 */
const CANDIDATE_SHARE = 0.25;

/**
 * The positions of the sampled values that may contain `term` (lower case), as lists whose union
 * holds every value that does: the values holding the term's rarest piece (a value containing the
 * term holds each of its pieces), and those beyond ASCII (`ColumnSample.beyondAscii`). Null when
 * the term has no piece, or its rarest piece is common (`CANDIDATE_SHARE`), so that the caller
 * reads every value. A new search's share is worked out from the sample on the thread that
 * answers requests: for a PO number, reading the few values with its rarest piece instead of
 * scanning all 20,000 (docs/benchmarks.md, session 31).
 *
 * @example
 * ```ts
 * mayContain(sampleColumn(["PO-0001200", "PO-0034000", "PO-0056000", "PO-0078000"]), "001200"); // [[0], []]
 * ```
 */
export function mayContain(sample: ColumnSample, term: string): number[][] | null {
  let rarest: number[] | null = null;
  eachPiece(term, (code) => {
    const list = sample.postings.get(code) ?? [];
    if (rarest === null || list.length < rarest.length) rarest = list;
  }, false);
  if (rarest === null || (rarest as number[]).length > sample.size * CANDIDATE_SHARE) return null;
  return [rarest, sample.beyondAscii];
}

/**
 * How much more a candidate row costs than one posting read: the row is fetched from the heap
 * and the whole term checked on it. Measured on PostgreSQL 15 over 1M orders: about 3 µs a
 * candidate row against about 4 ns a posting.
 */
const CANDIDATE_COST = 700;

/**
 * The pieces of `term` (`eachPiece`) that the index should read, rarest first; empty when the
 * term has none (no three letters or digits in a row, no word after another character), or
 * when nothing is known of the column, so that the index reads the whole pattern as it would
 * without this choice.
 *
 * Starting from the rarest piece, the next rarer one is added while the candidate rows it rules
 * out (counted in the sample) cost more than reading its postings.
 *
 * @example
 * ```ts
 * choosePieces("PO-00012", sampleColumn(["PO-0001200", "PO-0012000", "PO-0100000"]));
 * ```
 */
export function choosePieces(term: string, sample: ColumnSample): string[] {
  const pieces = trigramPieces(term);
  if (pieces.length === 0 || sample.size === 0) return [];
  const postings = (piece: string) => sample.postings.get(pieceCode(piece)) ?? [];
  pieces.sort((a, b) => postings(a).length - postings(b).length);
  const chosen = [pieces[0]];
  let candidates = postings(pieces[0]);
  for (const piece of pieces.slice(1)) {
    if (candidates.length === 0) break;
    const list = postings(piece);
    const kept = intersect(candidates, list);
    const saved = (candidates.length - kept.length) * CANDIDATE_COST;
    if (saved > list.length) {
      chosen.push(piece);
      candidates = kept;
    }
  }
  return chosen;
}

/** The common elements of two ascending lists. */
function intersect(a: number[], b: number[]): number[] {
  const out: number[] = [];
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (a[i] === b[j]) {
      out.push(a[i]);
      i++;
      j++;
    } else if (a[i] < b[j]) i++;
    else j++;
  }
  return out;
}
