import { SourceActivityCharts } from "../runs/source_activity_charts.tsx";
import {
  Card,
  Container,
  Flex,
  Grid,
  Heading,
  Table,
  Text,
  VisuallyHidden,
} from "@radix-ui/themes";
import { useAtomValue } from "jotai";
import { useId } from "react";
import { fetchDashboard, fetchUpdateStats, type UpdateStatsRow } from "./api.ts";
import { SourceStates } from "./source_states.tsx";
import { ErrorAlert } from "../../components/error_alert.tsx";
import { currentUserAtom, permissionsOf } from "../../state/session.ts";
import { type DashboardAnswer, STATE_LABELS } from "../../../../shared/contract/dashboard.ts";
import { Loading } from "../../components/loading.tsx";
import { useResource } from "../../components/use_resource.ts";
import { TABLET_MIN_WIDTH, useMinWidth } from "../../components/use_min_width.ts";

export const NO_STATS = "No stats available for the past 24 hours.";

function StatsTable({ rows }: { rows: UpdateStatsRow[] }) {
  return (
    <Table.Root variant="surface">
      {/* Names the table itself (Table.Root's props land on its wrapper). */}
      <VisuallyHidden asChild>
        <caption>Stats for the past 24 hours</caption>
      </VisuallyHidden>
      <Table.Header>
        <Table.Row>
          <Table.ColumnHeaderCell>Source Name</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Orders Updated</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Orders Deleted</Table.ColumnHeaderCell>
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {rows.map((row, index) => (
          <Table.Row key={`${row.orderTrackingSourceName}-${index}`}>
            <Table.RowHeaderCell>{row.orderTrackingSourceName}</Table.RowHeaderCell>
            <Table.Cell>{row.ordersUpdated}</Table.Cell>
            <Table.Cell>{row.ordersDeleted}</Table.Cell>
          </Table.Row>
        ))}
      </Table.Body>
    </Table.Root>
  );
}

function StatsCards({ rows }: { rows: UpdateStatsRow[] }) {
  return (
    <Grid columns="1" gap="3">
      {rows.map((row, index) => (
        <Card key={`${row.orderTrackingSourceName}-${index}`} asChild>
          <article aria-label={row.orderTrackingSourceName}>
            <Flex direction="column" gap="1">
              <Heading as="h2" size="3">{row.orderTrackingSourceName}</Heading>
              <Text>Orders Updated: {row.ordersUpdated}</Text>
              <Text>Orders Deleted: {row.ordersDeleted}</Text>
            </Flex>
          </article>
        </Card>
      ))}
    </Grid>
  );
}

/** "2 failing, 1 held": the states that need someone, in words; null when none does. */
function attentionText(counts: DashboardAnswer["counts"]): string | null {
  const parts = (["failing", "held", "stale"] as const)
    .filter((state) => counts[state] > 0)
    .map((state) => `${counts[state]} ${STATE_LABELS[state].toLowerCase()}`);
  return parts.length ? `Needs attention: ${parts.join(", ")}.` : null;
}

/** The dashboard's source lines, with its empty states in words. */
function SourcesSection({ wide }: { wide: boolean }) {
  const headingId = useId();
  const permissions = permissionsOf(useAtomValue(currentUserAtom));
  // Users without a source flag have no lines: no call.
  const dashboard = useResource(
    permissions.anySourceUser ? ["dashboard"] : null,
    (signal) => fetchDashboard(signal),
  );
  const answer = dashboard.data ?? null;
  if (!permissions.anySourceUser) return null;
  const attention = answer ? attentionText(answer.counts) : null;
  return (
    <section aria-labelledby={headingId}>
      <Heading as="h2" size="5" mb="2" id={headingId}>Sources</Heading>
      {dashboard.error
        ? (
          <ErrorAlert>
            The sources could not be loaded:{" "}
            {dashboard.error instanceof Error ? dashboard.error.message : "unknown error"}
          </ErrorAlert>
        )
        : answer === null
        ? <Loading label="Loading sources" />
        : answer.lines.length === 0
        ? (
          <Text as="p" color="gray">
            No sources yet. Add a mailbox and a source under Sources; each one then shows here with
            its state, its last file and when it is next checked.
          </Text>
        )
        : (
          <Flex direction="column" gap="3">
            <Text as="p" weight={attention ? "medium" : "regular"}>
              {attention ?? "Every active source is working."}
            </Text>
            <SourceStates lines={answer.lines} wide={wide} />
          </Flex>
        )}
    </section>
  );
}

/** The last 30 days of every area the user has, as pictures (docs/runs.md). */
function ActivityCard() {
  const permissions = permissionsOf(useAtomValue(currentUserAtom));
  if (!permissions.anySourceUser && !permissions.isAdmin) return null;
  return (
    <Card size="2">
      <SourceActivityCharts />
    </Card>
  );
}

/**
 * /home, the dashboard: every source's state (failing, held and stale first), then the orders
 * updated and deleted per order tracking source in the past 24 hours (spec part 1, section 7),
 * as its own card.
 */
export default function HomePage() {
  const wide = useMinWidth(TABLET_MIN_WIDTH);
  // Loaded once when the page opens; a failure is only logged (spec part 1, section 8).
  const stats = useResource(["update-stats"], async (signal) => {
    try {
      const rows = await fetchUpdateStats(signal);
      return Array.isArray(rows) ? rows : [];
    } catch (error) {
      if (signal.aborted) throw error;
      console.error("Error fetching data", error);
      return [];
    }
  });
  const rows = stats.data ?? null;

  return (
    <Container size="4" p="4">
      <Heading as="h1" mb="4">Welcome to the Home Page</Heading>
      <Flex direction="column" gap="5">
        <SourcesSection wide={wide} />
        <ActivityCard />
        <Card size="2">
          <Text as="p" mb="3">Here are the stats for the past 24 hours:</Text>
          {rows === null
            ? <Loading label="Loading stats" />
            : rows.length === 0
            ? <Text as="p" color="gray">{NO_STATS}</Text>
            : wide
            ? <StatsTable rows={rows} />
            : <StatsCards rows={rows} />}
        </Card>
      </Flex>
    </Container>
  );
}
