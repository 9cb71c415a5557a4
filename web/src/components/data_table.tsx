import { Table, Text, VisuallyHidden } from "@radix-ui/themes";
import type { ComponentProps, Key, ReactNode } from "react";
import { DESKTOP_MIN_WIDTH, MOBILE_MIN_WIDTH, useMinWidth } from "./use_min_width.ts";

/**
 * How important a column is (spec part 2, sections 2 and 9): below 640 px only `high` columns
 * show, below 1024 px `high` and `medium`, from 1024 px all.
 */
export type Priority = "high" | "medium" | "low";

/** One column of a {@link DataTable}. */
export interface DataColumn<T> {
  key: string;
  /** The header cell's content; wrap it in VisuallyHidden for an unlabelled actions column. */
  header: ReactNode;
  cell(row: T): ReactNode;
  /** Default `high`: always shown. */
  priority?: Priority;
  /** Render the cells as row headers (the row's name). */
  rowHeader?: boolean;
  /** Extra props of the header cell (aria-sort, aria-label). */
  headerProps?: ComponentProps<typeof Table.ColumnHeaderCell>;
}

/** Hint under a table whose low-priority columns are hidden on a phone. */
export const MOBILE_TABLE_HINT = "Some columns are hidden; swipe horizontally to see the rest.";
/** Hint under a table whose low-priority columns are hidden on a tablet. */
export const TABLET_TABLE_HINT = "Some columns are hidden at this screen size.";

/**
 * The hints of the source lists (order submission, inventory): their own wording, which their
 * browser tests read (docs/inventory.md, "Screens").
 */
export const SOURCE_LIST_HINTS = {
  mobile: "Swipe horizontally to see more of each row.",
  tablet: "Some columns are hidden on this screen size. Widen the window to see all columns.",
} as const;

/** The columns shown at a width, by the priority rule. */
export function columnsForWidth<T>(
  columns: readonly DataColumn<T>[],
  width: "mobile" | "tablet" | "desktop",
): DataColumn<T>[] {
  const allowed: Priority[] = width === "mobile"
    ? ["high"]
    : width === "tablet"
    ? ["high", "medium"]
    : ["high", "medium", "low"];
  return columns.filter((column) => allowed.includes(column.priority ?? "high"));
}

/** The width class of the window for the column-priority rule. */
export function useTableWidth(): "mobile" | "tablet" | "desktop" {
  const tablet = useMinWidth(MOBILE_MIN_WIDTH);
  const desktop = useMinWidth(DESKTOP_MIN_WIDTH);
  return desktop ? "desktop" : tablet ? "tablet" : "mobile";
}

interface Props<T> {
  rows: readonly T[];
  columns: readonly DataColumn<T>[];
  rowKey(row: T): Key;
  /** Names the table for screen readers (a visually hidden caption). */
  caption?: string;
  /** Shown in a single row when there are no rows. */
  empty?: ReactNode;
  size?: ComponentProps<typeof Table.Root>["size"];
  /** The hidden-columns hints, when a list has its own wording. */
  hints?: { mobile: string; tablet: string };
}

/**
 * The app's table: columns by priority for the window's width (with a hint when some are
 * hidden), "No results." when empty.
 */
export function DataTable<T>(
  { rows, columns, rowKey, caption, empty = "No results.", size, hints }: Props<T>,
) {
  const width = useTableWidth();
  const shown = columnsForWidth(columns, width);
  const hidden = shown.length < columns.length;
  return (
    <>
      <Table.Root variant="surface" size={size}>
        {caption && (
          <VisuallyHidden asChild>
            <caption>{caption}</caption>
          </VisuallyHidden>
        )}
        <Table.Header>
          <Table.Row>
            {shown.map((column) => (
              <Table.ColumnHeaderCell key={column.key} {...column.headerProps}>
                {column.header}
              </Table.ColumnHeaderCell>
            ))}
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {rows.length === 0 && (
            <Table.Row>
              <Table.Cell colSpan={shown.length}>{empty}</Table.Cell>
            </Table.Row>
          )}
          {rows.map((row) => (
            <Table.Row key={rowKey(row)}>
              {shown.map((column) =>
                column.rowHeader
                  ? <Table.RowHeaderCell key={column.key}>{column.cell(row)}</Table.RowHeaderCell>
                  : <Table.Cell key={column.key}>{column.cell(row)}</Table.Cell>
              )}
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
      {hidden && (
        <Text as="p" size="1" color="gray" mt="2">
          {width === "mobile"
            ? hints?.mobile ?? MOBILE_TABLE_HINT
            : hints?.tablet ?? TABLET_TABLE_HINT}
        </Text>
      )}
    </>
  );
}
