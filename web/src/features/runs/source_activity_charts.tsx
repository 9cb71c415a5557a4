import { Box, Button, Card, Flex, Grid, Heading, Text } from "@radix-ui/themes";
import { Link } from "wouter";
import type { ReactNode } from "react";
import type { RunArea, RunSeries, RunSeriesDay } from "../../../../shared/contract/runs.ts";
import { Chart } from "../../components/charts/chart.tsx";
import { useResource } from "../../components/use_resource.ts";
import { messageOr } from "../../api/call.ts";
import { ErrorAlert } from "../../components/error_alert.tsx";
import { fetchRunSeries } from "./api.ts";
import { runsHref } from "./run_labels.ts";
import { countText } from "../../../../shared/count_text.ts";

const n = (value: number) => value.toLocaleString("en-US");

/** "Nov 24" for "2026-11-24" (UTC days, as the series counts them). */
function dayLabel(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString("en-US", {
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  });
}

const sum = (days: readonly RunSeriesDay[], key: keyof RunSeriesDay) =>
  days.reduce((total, day) => total + (Number(day[key]) || 0), 0);

/** The busiest day of a series in words, or "". */
function busiest(days: readonly RunSeriesDay[], key: keyof RunSeriesDay): string {
  let best: RunSeriesDay | null = null;
  for (const day of days) {
    if (Number(day[key]) > 0 && (!best || Number(day[key]) > Number(best[key]))) best = day;
  }
  return best ? `, most on ${dayLabel(best.day)} (${n(Number(best[key]))})` : "";
}

/** A chart with its title shown above it (the figure is named by the same words). */
function ChartBox({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box>
      <Text as="p" size="2" weight="medium" mb="1">{title}</Text>
      {children}
    </Box>
  );
}

/** The one-line summaries of the charts (exported for their tests). */
export function summaries(series: RunSeries, noun: [string, string] = ["run", "runs"]) {
  const days = series.days;
  const span = `${days.length} days`;
  const runs = sum(days, "succeeded") + sum(days, "rowErrors") + sum(days, "failed") +
    sum(days, "held");
  return {
    runs: runs === 0
      ? `${span}: no ${noun[1]}.`
      : `${span}: ${countText(runs, ...noun)} — ${n(sum(days, "succeeded"))} succeeded, ${
        n(sum(days, "rowErrors"))
      } with row errors, ${n(sum(days, "failed"))} failed, ${n(sum(days, "held"))} held.`,
    rows: `${span}: ${countText(sum(days, "rows"), "row", "rows")} processed${
      busiest(days, "rows")
    }.`,
    orders: `${span}: ${countText(sum(days, "newOrders"), "new order", "new orders")} and ${
      countText(sum(days, "updatedOrders"), "order updated", "orders updated")
    }${busiest(days, "newOrders")}.`,
    emails: `${span}: ${countText(sum(days, "emailsSent"), "e-mail", "e-mails")} sent to vendors${
      busiest(days, "emailsSent")
    }.`,
  };
}

/**
 * The last 30 days of a source (or of every area the user has, without one) as pictures: runs
 * per day by state, rows per day, and orders (order tracking) or e-mails (vendors) per day where
 * they apply, each with its one-line summary and table (docs/runs.md). The home dashboard uses it
 * without a source.
 */
export function SourceActivityCharts(
  { area, sourceId, days = 30 }: { area?: RunArea; sourceId?: number; days?: number },
) {
  const series = useResource(
    ["run-series", area, sourceId, days],
    (signal) => fetchRunSeries({ area, sourceId: area ? sourceId : undefined, days }, signal),
  );
  if (series.error !== undefined) {
    return (
      <ErrorAlert>{messageOr(series.error, "Could not load the activity charts.")}</ErrorAlert>
    );
  }
  if (!series.data) return <Text size="2" color="gray">Loading activity…</Text>;
  const data = series.data.days.map((day) => ({ ...day, day: dayLabel(day.day) }));
  const text = summaries(
    series.data,
    area === "vendor-sends" ? ["e-mail", "e-mails"] : ["run", "runs"],
  );
  const first = series.data.days[0];
  const withOrders = first?.newOrders !== undefined;
  // Vendor e-mails get their own chart unless they are the runs themselves (a vendor's page).
  const withEmails = first?.emailsSent !== undefined && area !== "vendor-sends";
  return (
    <Box asChild>
      <section aria-labelledby="activity-charts">
        <Heading as="h2" size="4" mb="3" id="activity-charts">
          Last {series.data.days.length} days
        </Heading>
        <Grid columns={{ initial: "1", md: "2" }} gap="4">
          <ChartBox title={area === "vendor-sends" ? "E-mails per day" : "Runs per day"}>
            <Chart
              title={area === "vendor-sends" ? "E-mails per day" : "Runs per day"}
              summary={text.runs}
              kind="stackedBars"
              xKey="day"
              xLabel="Day"
              data={data}
              series={[
                { key: "succeeded", label: "Succeeded", color: "green" },
                { key: "rowErrors", label: "With row errors", color: "orange" },
                { key: "failed", label: "Failed", color: "red" },
                { key: "held", label: "Held", color: "amber" },
              ]}
            />
          </ChartBox>
          <ChartBox title="Rows per day">
            <Chart
              title="Rows per day"
              summary={text.rows}
              kind="bars"
              xKey="day"
              xLabel="Day"
              data={data}
              series={[{ key: "rows", label: "Rows", color: "blue" }]}
            />
          </ChartBox>
          {withOrders && (
            <ChartBox title="Orders imported per day">
              <Chart
                title="Orders imported per day"
                summary={text.orders}
                kind="stackedBars"
                xKey="day"
                xLabel="Day"
                data={data}
                series={[
                  { key: "newOrders", label: "New orders", color: "cyan" },
                  { key: "updatedOrders", label: "Orders updated", color: "violet" },
                ]}
              />
            </ChartBox>
          )}
          {withEmails && (
            <ChartBox title="E-mails sent per day">
              <Chart
                title="E-mails sent per day"
                summary={text.emails}
                kind="bars"
                xKey="day"
                xLabel="Day"
                data={data}
                series={[{ key: "emailsSent", label: "E-mails sent", color: "violet" }]}
              />
            </ChartBox>
          )}
        </Grid>
      </section>
    </Box>
  );
}

/**
 * The activity card of a source's edit page: its last 30 days as charts and a link to its runs.
 * Nothing for a source not saved yet (`sourceId` 0).
 */
export function SourceActivitySection({ area, sourceId }: { area: RunArea; sourceId: number }) {
  if (!sourceId) return null;
  return (
    <Card mt="4">
      <SourceActivityCharts area={area} sourceId={sourceId} />
      <Flex mt="3">
        <Button asChild variant="soft">
          <Link href={runsHref(area, sourceId)}>
            {area === "vendor-sends" ? "See its e-mails" : "See its runs"}
          </Link>
        </Button>
      </Flex>
    </Card>
  );
}
