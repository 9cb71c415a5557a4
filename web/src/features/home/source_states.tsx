/**
 * The dashboard's source lines (issue 22): a table from 768 px, cards on phones; the state is a
 * badge with words (never colour alone); failing, held and stale come first (the server's order).
 */
import {
  Badge,
  Card,
  Flex,
  Grid,
  Heading,
  Link,
  Table,
  Text,
  VisuallyHidden,
} from "@radix-ui/themes";
import { Link as RouterLink } from "wouter";
import {
  AREA_LABELS,
  type DashboardLine,
  STATE_COLOURS,
  STATE_LABELS,
} from "../../../../shared/contract/dashboard.ts";
import { longDateTime } from "../../components/format_date.ts";

/** "5 minutes ago", "in 3 minutes", "2 days ago": a time relative to `now`. */
export function relativeTime(value: string | null, now = Date.now()): string {
  if (!value) return "";
  const ms = Date.parse(value) - now;
  const abs = Math.abs(ms);
  const [n, unit] = abs < 60_000
    ? [Math.round(abs / 1000), "second"]
    : abs < 3_600_000
    ? [Math.round(abs / 60_000), "minute"]
    : abs < 172_800_000
    ? [Math.round(abs / 3_600_000), "hour"]
    : [Math.round(abs / 86_400_000), "day"];
  const words = `${n} ${unit}${n === 1 ? "" : "s"}`;
  return ms >= 0 ? `in ${words}` : `${words} ago`;
}

function When({ value }: { value: string | null }) {
  if (!value) return null;
  return <time dateTime={value} title={longDateTime(value)}>{relativeTime(value)}</time>;
}

function StateBadge({ line }: { line: DashboardLine }) {
  return (
    <Badge color={STATE_COLOURS[line.state]} variant="soft" highContrast size="2">
      {STATE_LABELS[line.state]}
    </Badge>
  );
}

function LastFile({ line }: { line: DashboardLine }) {
  if (!line.lastFileName && !line.lastFileAt) return <Text color="gray">None yet</Text>;
  return (
    <Flex direction="column">
      <Text style={{ overflowWrap: "break-word" }}>{line.lastFileName ?? ""}</Text>
      <Text size="1" color="gray">
        <When value={line.lastFileAt} />
      </Text>
    </Flex>
  );
}

function NextCheck({ line }: { line: DashboardLine }) {
  return (
    <Flex direction="column">
      <Text>{line.nextCheckText}</Text>
      {line.nextCheckAt && (
        <Text size="1" color="gray">
          Next: <When value={line.nextCheckAt} />
        </Text>
      )}
    </Flex>
  );
}

function Links({ line }: { line: DashboardLine }) {
  return (
    <Flex gap="3" wrap="wrap">
      <Link asChild>
        <RouterLink href={line.sourcePath}>
          Source<VisuallyHidden>{` ${line.name}`}</VisuallyHidden>
        </RouterLink>
      </Link>
      {line.runsPath && (
        <Link asChild>
          <RouterLink href={line.runsPath}>
            Runs<VisuallyHidden>{` of ${line.name}`}</VisuallyHidden>
          </RouterLink>
        </Link>
      )}
    </Flex>
  );
}

function LinesTable({ lines }: { lines: DashboardLine[] }) {
  return (
    <Table.Root variant="surface">
      <VisuallyHidden asChild>
        <caption>Sources and their state</caption>
      </VisuallyHidden>
      <Table.Header>
        <Table.Row>
          <Table.ColumnHeaderCell>State</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Source</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Last file</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Last result</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Next check</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Links</Table.ColumnHeaderCell>
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {lines.map((line) => (
          <Table.Row key={`${line.area}-${line.sourceId}`}>
            <Table.Cell>
              <StateBadge line={line} />
            </Table.Cell>
            <Table.RowHeaderCell>
              <Flex direction="column">
                <Text weight="medium" style={{ overflowWrap: "anywhere" }}>{line.name}</Text>
                <Text size="1" color="gray">{AREA_LABELS[line.area]}</Text>
                {line.state !== "ok" && <Text size="1">{line.reason}</Text>}
              </Flex>
            </Table.RowHeaderCell>
            <Table.Cell style={{ minWidth: "10rem" }}>
              <LastFile line={line} />
            </Table.Cell>
            <Table.Cell>
              <Text style={{ overflowWrap: "anywhere" }}>{line.lastResult ?? "None yet"}</Text>
            </Table.Cell>
            <Table.Cell>
              <NextCheck line={line} />
            </Table.Cell>
            <Table.Cell>
              <Links line={line} />
            </Table.Cell>
          </Table.Row>
        ))}
      </Table.Body>
    </Table.Root>
  );
}

function LineCards({ lines }: { lines: DashboardLine[] }) {
  return (
    <Grid columns="1" gap="3">
      {lines.map((line) => (
        <Card key={`${line.area}-${line.sourceId}`} asChild>
          <article aria-label={`${line.name}: ${STATE_LABELS[line.state]}`}>
            <Flex direction="column" gap="2">
              <Flex gap="2" align="center" justify="between">
                <Heading as="h3" size="3" style={{ overflowWrap: "anywhere" }}>{line.name}</Heading>
                <StateBadge line={line} />
              </Flex>
              <Text size="1" color="gray">{AREA_LABELS[line.area]}</Text>
              {line.state !== "ok" && <Text size="2">{line.reason}</Text>}
              <Text size="2" style={{ overflowWrap: "anywhere" }}>
                Last file: {line.lastFileName ?? "none yet"} <When value={line.lastFileAt} />
              </Text>
              <Text size="2" style={{ overflowWrap: "anywhere" }}>
                Last result: {line.lastResult ?? "none yet"}
              </Text>
              <Text size="2">
                Next check: {line.nextCheckText}
                {line.nextCheckAt && (
                  <>
                    {" ("}
                    <When value={line.nextCheckAt} />)
                  </>
                )}
              </Text>
              <Links line={line} />
            </Flex>
          </article>
        </Card>
      ))}
    </Grid>
  );
}

/** The source lines: a table on wide screens, cards on phones. */
export function SourceStates({ lines, wide }: { lines: DashboardLine[]; wide: boolean }) {
  return wide ? <LinesTable lines={lines} /> : <LineCards lines={lines} />;
}
