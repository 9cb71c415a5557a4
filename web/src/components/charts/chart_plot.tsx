import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { ChartColor, ChartProps } from "./chart_types.ts";

// Radix Themes' variables follow the light and dark theme, so the chart needs no theme of its own.
const color = (name: ChartColor) => `var(--${name}-9)`;
const AXIS = { stroke: "var(--gray-8)", tick: { fill: "var(--gray-11)", fontSize: 12 } };
const TOOLTIP = {
  contentStyle: {
    background: "var(--color-panel-solid)",
    border: "1px solid var(--gray-a6)",
    borderRadius: "var(--radius-2)",
    color: "var(--gray-12)",
  },
  cursor: { fill: "var(--gray-a3)" },
};

/** The drawing itself (Recharts); loaded lazily by chart.tsx, which adds the text alternatives. */
export default function ChartPlot(props: ChartProps & { height: number }) {
  const { kind, data, xKey, series, referenceLine, markers = [], height } = props;
  const rows = data as Record<string, string | number | null>[];
  const common = (
    <>
      <CartesianGrid stroke="var(--gray-a5)" vertical={false} />
      <XAxis dataKey={xKey} {...AXIS} minTickGap={16} />
      <YAxis {...AXIS} allowDecimals={false} width={48} />
      <Tooltip {...TOOLTIP} />
      {series.length > 1 && <Legend wrapperStyle={{ fontSize: 12, color: "var(--gray-11)" }} />}
      {referenceLine && (
        <ReferenceLine
          y={referenceLine.y}
          stroke="var(--orange-9)"
          strokeDasharray="4 4"
          label={{ value: referenceLine.label, fill: "var(--gray-11)", fontSize: 12 }}
        />
      )}
      {markers.map((marker) => (
        <ReferenceLine
          key={`${marker.x}-${marker.label}`}
          x={marker.x}
          stroke={color(marker.color ?? "gray")}
          strokeDasharray="2 3"
          label={{ value: marker.label, fill: "var(--gray-11)", fontSize: 11, position: "top" }}
        />
      ))}
    </>
  );
  return (
    <ResponsiveContainer width="100%" height={height}>
      {kind === "line"
        ? (
          // No keyboard layer: the plot is aria-hidden (the table is its alternative), and a
          // focusable element inside aria-hidden fails axe's aria-hidden-focus.
          <LineChart
            data={rows}
            margin={{ top: 16, right: 8, bottom: 0, left: 0 }}
            accessibilityLayer={false}
          >
            {common}
            {series.map((s) => (
              <Line
                key={s.key}
                dataKey={s.key}
                name={s.label}
                stroke={color(s.color)}
                strokeWidth={2}
                dot={false}
                isAnimationActive={false}
                type="stepAfter"
              />
            ))}
          </LineChart>
        )
        : (
          <BarChart
            data={rows}
            margin={{ top: 16, right: 8, bottom: 0, left: 0 }}
            accessibilityLayer={false}
          >
            {common}
            {series.map((s) => (
              <Bar
                key={s.key}
                dataKey={s.key}
                name={s.label}
                fill={color(s.color)}
                stackId={kind === "stackedBars" ? "stack" : undefined}
                isAnimationActive={false}
              />
            ))}
          </BarChart>
        )}
    </ResponsiveContainer>
  );
}
