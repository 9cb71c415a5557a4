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
import { fetchUpdateStats, type UpdateStatsRow } from "./api.ts";
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

/** /home: orders updated and deleted per order tracking source in the past 24 hours. */
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
    <Container size="3" p="4">
      <Heading as="h1" mb="2">Welcome to the Home Page</Heading>
      <Text as="p" mb="4">Here are the stats for the past 24 hours:</Text>
      {rows === null
        ? <Loading label="Loading stats" />
        : rows.length === 0
        ? <Text as="p" color="gray">{NO_STATS}</Text>
        : wide
        ? <StatsTable rows={rows} />
        : <StatsCards rows={rows} />}
    </Container>
  );
}
