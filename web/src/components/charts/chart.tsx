import { Box, Text, VisuallyHidden } from "@radix-ui/themes";
import { lazy, Suspense } from "react";
import type { ChartProps } from "./chart_types.ts";

export type { ChartKind, ChartMarker, ChartProps, ChartSeries } from "./chart_types.ts";

// Recharts is loaded on the first chart shown, never with the login page (DESIGN.md section 9).
const ChartPlot = lazy(() => import("./chart_plot.tsx"));

/**
 * A chart with its text alternatives: the figure is named by `title`, `summary` says in one line
 * what it shows, and the same numbers sit in a table that screen readers read instead of the
 * picture (and that people can open under "Show as table").
 *
 * @example
 * <Chart
 *   title="Runs per day"
 *   summary="30 days: 41 succeeded, 2 failed."
 *   kind="stackedBars"
 *   xKey="day"
 *   xLabel="Day"
 *   data={[{ day: "Nov 24", succeeded: 3, failed: 0 }]}
 *   series={[{ key: "succeeded", label: "Succeeded", color: "green" }, { key: "failed", label: "Failed", color: "red" }]}
 * />
 */
export function Chart(props: ChartProps) {
  const { title, summary, data, xKey, xLabel, series, height = 220 } = props;
  return (
    <figure style={{ margin: 0 }} aria-label={title}>
      <Box aria-hidden="true" style={{ height, minWidth: 0 }} data-testid="chart-plot">
        <Suspense fallback={<Text size="1" color="gray">Loading chart…</Text>}>
          <ChartPlot {...props} height={height} />
        </Suspense>
      </Box>
      <figcaption>
        <Text as="p" size="2" color="gray" mt="1">{summary}</Text>
      </figcaption>
      <details>
        <summary>
          <Text size="1">Show as table</Text>
          <VisuallyHidden>: {title}</VisuallyHidden>
        </summary>
        <Box style={{ overflowX: "auto" }}>
          <table className="chart-table">
            <caption>
              <VisuallyHidden>{title}</VisuallyHidden>
            </caption>
            <thead>
              <tr>
                <th scope="col">{xLabel}</th>
                {series.map((s) => <th key={s.key} scope="col">{s.label}</th>)}
              </tr>
            </thead>
            <tbody>
              {data.map((row, index) => (
                <tr key={`${String(row[xKey])}-${index}`}>
                  <th scope="row">{String(row[xKey])}</th>
                  {series.map((s) => <td key={s.key}>{formatValue(row[s.key])}</td>)}
                </tr>
              ))}
            </tbody>
          </table>
        </Box>
      </details>
    </figure>
  );
}

function formatValue(value: unknown): string {
  if (typeof value === "number") return value.toLocaleString("en-US");
  return value === undefined || value === null ? "" : String(value);
}
