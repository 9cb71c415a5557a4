import { stripZeros } from "../files/mod.ts";

/**
 * The item numbers of a catalogue text (the seller's user-activated items): split on commas and
 * line breaks, trimmed, empty entries dropped, duplicates (by {@link itemKey}) kept once, first
 * spelling wins.
 *
 * @example parseItemList("A1, 002\nA1\n\n") // ["A1", "002"]
 */
export function parseItemList(text: string, stripLeadingZeros = false): string[] {
  return parseCatalogue(text, stripLeadingZeros).items;
}

/** A catalogue: its item numbers as written, their keys, and the position of each key. */
export interface Catalogue {
  items: string[];
  keys: string[];
  indexOf: Map<string, number>;
}

/**
 * The catalogue of {@link parseItemList} with each item's key and a key-to-position map, built
 * in one pass (the map is the duplicate check, so no second set of 100,000 keys is made).
 *
 * @example parseCatalogue("A1, 002\nA1", true).indexOf.get("2") // 1
 */
export function parseCatalogue(text: string, stripLeadingZeros = false): Catalogue {
  const items: string[] = [];
  const keys: string[] = [];
  const indexOf = new Map<string, number>();
  for (const part of text.split(/[,\r\n]+/)) {
    const item = part.trim();
    if (item === "") continue;
    const key = itemKey(item, stripLeadingZeros);
    if (indexOf.has(key)) continue;
    indexOf.set(key, items.length);
    items.push(item);
    keys.push(key);
  }
  return { items, keys, indexOf };
}

/**
 * The key an item number is matched by: trimmed first, then leading zeros removed when the
 * source strips them (`00A7` → `A7`, `0000` → `0`). Matching is otherwise exact (case kept).
 *
 * @example itemKey(" 00A7 ", true) // "A7"
 */
export function itemKey(text: string, stripLeadingZeros: boolean): string {
  const trimmed = text.trim();
  return stripLeadingZeros ? stripZeros(trimmed) : trimmed;
}

/**
 * A comma-separated list of status values as a set of trimmed, lower-cased values.
 *
 * @example parseStatusList(" In Stock, available ,") // Set {"in stock", "available"}
 */
export function parseStatusList(text: string | null | undefined): Set<string> {
  const out = new Set<string>();
  for (const part of (text ?? "").split(",")) {
    const value = part.trim().toLowerCase();
    if (value !== "") out.add(value);
  }
  return out;
}
