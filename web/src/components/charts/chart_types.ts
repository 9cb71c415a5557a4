/** Radix Themes colour names a series may use; the chart reads them as `var(--<color>-9)`. */
export type ChartColor =
  | "green"
  | "amber"
  | "red"
  | "blue"
  | "gray"
  | "violet"
  | "cyan"
  | "orange";

export interface ChartSeries {
  /** The field of each data row holding this series' number. */
  key: string;
  /** The series' name in the legend, the tooltip and the table. */
  label: string;
  color: ChartColor;
}

/** A marked point on the x axis (a status change, say), drawn as a dashed vertical line. */
export interface ChartMarker {
  x: string;
  label: string;
  color?: ChartColor;
}

export type ChartKind = "stackedBars" | "bars" | "line";

export interface ChartProps {
  /** Names the figure for screen readers and the table. */
  title: string;
  /** One line in words of what the chart shows (always visible under it). */
  summary: string;
  kind: ChartKind;
  /** One row per point on the x axis. */
  data: readonly Record<string, string | number | null>[];
  /** The field holding the x axis label (a day, a time). */
  xKey: string;
  /** The x axis' name, as the table's first column header. */
  xLabel: string;
  series: readonly ChartSeries[];
  /** A horizontal line (required stock, a minimum quantity). */
  referenceLine?: { y: number; label: string };
  markers?: readonly ChartMarker[];
  /** Pixels; 220 unless told. */
  height?: number;
}
