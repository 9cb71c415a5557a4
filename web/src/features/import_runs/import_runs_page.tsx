import {
  Badge,
  Button,
  Container,
  Flex,
  Heading,
  Table,
  Text,
  VisuallyHidden,
} from "@radix-ui/themes";
import { useState } from "react";
import { useResource } from "../../components/use_resource.ts";
import { Link } from "wouter";
import { fetchImportRuns } from "./api.ts";
import { ErrorAlert } from "../../components/error_alert.tsx";
import { longDateTime } from "../../components/format_date.ts";
import { Loading } from "../../components/loading.tsx";
import { RunDetailsDialog, STATUS_COLOR } from "./run_details_dialog.tsx";

export const NO_RUNS = "No import runs yet.";

/**
 * /import-runs?feed=&sourceId=: the processed files of the feeds the user may see (newest
 * first), each with its details, file and Re-run.
 */
export default function ImportRunsPage() {
  const query = new URLSearchParams(location.search);
  const feed = query.get("feed") ?? undefined;
  const sourceId = Number(query.get("sourceId")) || undefined;
  const [open, setOpen] = useState<number | null>(null);
  const list = useResource(
    ["import-runs", feed, sourceId],
    (signal) => fetchImportRuns({ feed, sourceId }, signal),
    { keepPrevious: true },
  );
  const load = list.reload;
  const runs = list.data ?? (list.error ? [] : null);
  const problem = list.error
    ? list.error instanceof Error ? list.error.message : "Loading failed."
    : null;

  return (
    <Container size="4" p="4">
      <Flex justify="between" align="center" gap="3" mb="4" wrap="wrap">
        <Heading as="h1">Import Runs</Heading>
        <Button asChild variant="ghost">
          <Link href="/email-sources">Back to Email Sources</Link>
        </Button>
      </Flex>
      {problem && <ErrorAlert>{problem}</ErrorAlert>}
      {runs === null ? <Loading label="Loading import runs" /> : (
        <Table.Root variant="surface">
          <VisuallyHidden asChild>
            <caption>Import runs</caption>
          </VisuallyHidden>
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeaderCell>Run</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Feed</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Source</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>File</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Trigger</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Status</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Received</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Row Errors</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.ColumnHeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {runs.length === 0 && (
              <Table.Row>
                <Table.Cell colSpan={9}>{NO_RUNS}</Table.Cell>
              </Table.Row>
            )}
            {runs.map((run) => (
              <Table.Row key={run.id}>
                <Table.RowHeaderCell>{run.id}</Table.RowHeaderCell>
                <Table.Cell>{run.feed}</Table.Cell>
                <Table.Cell>{run.sourceId}</Table.Cell>
                <Table.Cell>{run.fileName || "—"}</Table.Cell>
                <Table.Cell>{run.trigger}</Table.Cell>
                <Table.Cell>
                  <Flex direction="column" gap="1">
                    <Badge color={STATUS_COLOR[run.status]}>{run.status}</Badge>
                    {run.error && <Text size="1" color="red">{run.error}</Text>}
                  </Flex>
                </Table.Cell>
                <Table.Cell>{longDateTime(run.receivedAt)}</Table.Cell>
                <Table.Cell>{run.rowErrorCount}</Table.Cell>
                <Table.Cell>
                  <Button
                    size="1"
                    variant="soft"
                    aria-label={`Details of run ${run.id}`}
                    onClick={() => setOpen(run.id)}
                  >
                    Details
                  </Button>
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      )}
      <RunDetailsDialog
        runId={open}
        onClose={() => setOpen(null)}
        onRerun={() => {
          load();
        }}
      />
    </Container>
  );
}
