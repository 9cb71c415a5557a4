/**
 * Field catalogs: one declaration per record type (orders now, inventory items next) from which
 * the columns, labels, kinds, unique-column choices, search fields and the zod schema of a record
 * are derived, on the server and in the web app (docs/conventions.md, "Field catalogs").
 */
import { z } from "zod";

/** How a field's value is stored and shown: dates are ISO text (`YYYY-MM-DDTHH:MM:SS`). */
export type FieldKind = "text" | "date" | "number" | "trackingNumbers";

/** One field of a record type. */
export interface FieldSpec {
  label: string;
  kind: FieldKind;
  /** False for fields only people write (order notes); a source column cannot feed them. */
  fromFile?: boolean;
  /** The spelling of this field among a source's unique-column choices, if it may be one. */
  unique?: string;
  /** A search box of the list: its request key, its label and its place in the filter bar. */
  search?: { key: string; label: string; position: number };
}

/** A record type's fields, in the order the spec lists its columns. */
export type Catalog = Record<string, FieldSpec>;

/** Declares a catalog, keeping its literal types. */
export function defineCatalog<const C extends Catalog>(catalog: C): C {
  return catalog;
}

/** The column names, in declaration order. */
export function columnsOf<C extends Catalog>(catalog: C): (keyof C & string)[] {
  return Object.keys(catalog) as (keyof C & string)[];
}

/** The names of the fields of one kind. */
export type FieldsOfKind<C extends Catalog, K extends FieldKind> = {
  [F in keyof C & string]: C[F]["kind"] extends K ? F : never;
}[keyof C & string];

/**
 * The fields of one kind, in declaration order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defineCatalog, fieldsOfKind } from "./catalog.ts";
 * const catalog = defineCatalog({
 *   name: { label: "Name", kind: "text" },
 *   shippedDate: { label: "Shipped Date", kind: "date" },
 * });
 * assert.deepEqual(fieldsOfKind(catalog, "date"), ["shippedDate"]);
 * ```
 */
export function fieldsOfKind<C extends Catalog, K extends FieldKind>(
  catalog: C,
  kind: K,
): FieldsOfKind<C, K>[] {
  return columnsOf(catalog).filter((field) => catalog[field].kind === kind) as FieldsOfKind<C, K>[];
}

/** The fields a source column can feed (every field but those only people write). */
export type FileFields<C extends Catalog> = {
  [F in keyof C & string]: C[F] extends { fromFile: false } ? never : F;
}[keyof C & string];

/** The fields a source column can feed, in declaration order. */
export function fileFieldsOf<C extends Catalog>(catalog: C): FileFields<C>[] {
  return columnsOf(catalog).filter((field) => catalog[field].fromFile !== false) as FileFields<
    C
  >[];
}

/** Field → label. */
export function labelsOf<C extends Catalog>(catalog: C): Record<keyof C & string, string> {
  return Object.fromEntries(columnsOf(catalog).map((f) => [f, catalog[f].label])) as Record<
    keyof C & string,
    string
  >;
}

/** The unique-column choices of a catalog, as a union. */
export type UniqueChoice<C extends Catalog> = {
  [F in keyof C]: C[F] extends { unique: infer U extends string } ? U : never;
}[keyof C];

/** The unique-column choices, in declaration order. */
export function uniqueChoicesOf<C extends Catalog>(catalog: C): UniqueChoice<C>[] {
  return columnsOf(catalog).flatMap((f) => catalog[f].unique ?? []) as UniqueChoice<C>[];
}

/** The search request keys of a catalog, as a union. */
export type SearchKey<C extends Catalog> = {
  [F in keyof C]: C[F] extends { search: { key: infer K extends string } } ? K : never;
}[keyof C];

/** A search box: its request key, label and the field it searches. */
export interface SearchField<C extends Catalog> {
  key: SearchKey<C>;
  label: string;
  field: keyof C & string;
}

/** The search boxes, in filter-bar order. */
export function searchFieldsOf<C extends Catalog>(catalog: C): SearchField<C>[] {
  return columnsOf(catalog)
    .flatMap((field) => {
      const search = catalog[field].search;
      return search ? [{ ...search, key: search.key as SearchKey<C>, field }] : [];
    })
    .sort((a, b) => a.position - b.position)
    .map(({ key, label, field }) => ({ key, label, field }));
}

const trackingNumber = z.object({ id: z.number(), trackingNumber: z.string() });

const kindSchemas = {
  text: z.string().nullable(),
  date: z.string().nullable(),
  number: z.number().nullable(),
  trackingNumbers: z.array(trackingNumber),
} as const;

/** The zod shape of a catalog's fields. */
export type CatalogShape<C extends Catalog> = {
  [F in keyof C & string]: (typeof kindSchemas)[C[F]["kind"]];
};

/**
 * The zod schema of a record: `id`, then every field in declaration order (text and dates are
 * `string | null`, numbers `number | null`); parsing puts the keys in that order.
 */
export function recordSchema<C extends Catalog>(
  catalog: C,
): z.ZodObject<{ id: z.ZodNumber } & CatalogShape<C>> {
  const shape: Record<string, z.ZodType> = { id: z.number() };
  for (const field of columnsOf(catalog)) shape[field] = kindSchemas[catalog[field].kind];
  return z.object(shape) as z.ZodObject<{ id: z.ZodNumber } & CatalogShape<C>>;
}
