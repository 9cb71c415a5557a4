import { countsText } from "../../../../shared/catalog/display_names.ts";
import {
  Badge,
  Box,
  Button,
  Code,
  DataList,
  Dialog,
  Flex,
  Heading,
  Table,
  Text,
} from "@radix-ui/themes";
import { useState } from "react";
import { useResource } from "../../components/use_resource.ts";
import { fetchImportRun, type ImportRunDetails, rerunImportRun } from "./api.ts";
import { ErrorAlert } from "../../components/error_alert.tsx";
import { longDateTime } from "../../components/format_date.ts";
import { Loading } from "../../components/loading.tsx";

/** Badge colour per run status. */
export const STATUS_COLOR = {
  queued: "gray",
  succeeded: "green",
  failed: "red",
  held: "amber",
} as const;

interface Props {
  runId: number | null;
  onClose: () => void;
  /** After a re-run: the new run, so the list can show it. */
  onRerun: (run: ImportRunDetails) => void;
}

interface After {
  runId: number | null;
  run?: ImportRunDetails;
  problem?: string | null;
}

/** One run: counts, warnings, row errors, log, its file, and Re-run. */
export function RunDetailsDialog({ runId, onClose, onRerun }: Props) {
  const [busy, setBusy] = useState(false);
  // What happened after the run opened (a re-run's new run, its failure), for that run only.
  const [after, setAfter] = useState<After>({ runId: null });
  const loaded = useResource(runId, (signal) => fetchImportRun(runId!, signal));
  const mine: After = after.runId === runId ? after : { runId };
  const run = mine.run ?? loaded.data ?? null;
  const problem = mine.problem !== undefined
    ? mine.problem
    : loaded.error instanceof Error
    ? loaded.error.message
    : null;
  const setRun = (fresh: ImportRunDetails) => setAfter((old) => ({ ...old, runId, run: fresh }));
  const setProblem = (text: string | null) =>
    setAfter((old) => ({ ...(old.runId === runId ? old : {}), runId, problem: text }));

  const rerun = async () => {
    if (!run) return;
    setBusy(true);
    setProblem(null);
    try {
      const fresh = await rerunImportRun(run.id);
      setRun(fresh);
      onRerun(fresh);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : "The re-run failed.");
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog.Root open={runId !== null} onOpenChange={(open) => !open && onClose()}>
      <Dialog.Content maxWidth="720px">
        <Dialog.Title>Import Run {run?.id ?? runId}</Dialog.Title>
        <Dialog.Description size="2" mb="3">
          {run ? `${run.fileName || "(no file)"} — ${run.feed}, source ${run.sourceId}` : ""}
        </Dialog.Description>
        {problem && <ErrorAlert>{problem}</ErrorAlert>}
        {!run
          ? (!problem && <Loading label="Loading import run" />)
          : (
            <Flex direction="column" gap="3">
              <DataList.Root size="2">
                <DataList.Item>
                  <DataList.Label>Status</DataList.Label>
                  <DataList.Value>
                    <Badge color={STATUS_COLOR[run.status]}>{run.status}</Badge>
                  </DataList.Value>
                </DataList.Item>
                <DataList.Item>
                  <DataList.Label>Trigger</DataList.Label>
                  <DataList.Value>
                    {run.trigger}
                    {run.rerunOf ? ` of run ${run.rerunOf}` : ""}
                  </DataList.Value>
                </DataList.Item>
                <DataList.Item>
                  <DataList.Label>Received</DataList.Label>
                  <DataList.Value>{longDateTime(run.receivedAt)}</DataList.Value>
                </DataList.Item>
                <DataList.Item>
                  <DataList.Label>Finished</DataList.Label>
                  <DataList.Value>
                    {run.finishedAt ? longDateTime(run.finishedAt) : "—"}
                  </DataList.Value>
                </DataList.Item>
                <DataList.Item>
                  <DataList.Label>Counts</DataList.Label>
                  <DataList.Value>
                    {countsText(run.counts) || "—"}
                  </DataList.Value>
                </DataList.Item>
                {run.sha256 && (
                  <DataList.Item>
                    <DataList.Label>SHA-256</DataList.Label>
                    <DataList.Value>
                      <Code size="1">{run.sha256}</Code>
                    </DataList.Value>
                  </DataList.Item>
                )}
              </DataList.Root>
              {run.error && <ErrorAlert>{run.error}</ErrorAlert>}
              {run.warnings.map((w) => <Text key={w} size="2" color="amber">Warning: {w}</Text>)}
              {run.rowErrors.length > 0 && (
                <Box>
                  <Heading as="h3" size="3" mb="2">Row errors</Heading>
                  <Table.Root size="1">
                    <Table.Header>
                      <Table.Row>
                        <Table.ColumnHeaderCell>Row</Table.ColumnHeaderCell>
                        <Table.ColumnHeaderCell>Column</Table.ColumnHeaderCell>
                        <Table.ColumnHeaderCell>Message</Table.ColumnHeaderCell>
                      </Table.Row>
                    </Table.Header>
                    <Table.Body>
                      {run.rowErrors.map((e, i) => (
                        <Table.Row key={i}>
                          <Table.Cell>{e.row}</Table.Cell>
                          <Table.Cell>{e.column ?? ""}</Table.Cell>
                          <Table.Cell>{e.message}</Table.Cell>
                        </Table.Row>
                      ))}
                    </Table.Body>
                  </Table.Root>
                </Box>
              )}
              <Box>
                <Heading as="h3" size="3" mb="2">Log</Heading>
                <Box asChild>
                  <ol aria-label="Log">
                    {run.log.map((line, i) => (
                      <li key={i}>
                        <Text size="2">{line}</Text>
                      </li>
                    ))}
                  </ol>
                </Box>
              </Box>
            </Flex>
          )}
        <Flex justify="end" gap="3" mt="4">
          {run?.fileSize != null && (
            <>
              <Button asChild variant="soft">
                <a href={`/api/import-runs/${run.id}/file`} download>Download File</a>
              </Button>
              <Button loading={busy} onClick={rerun}>Re-run</Button>
            </>
          )}
          <Dialog.Close>
            <Button variant="soft" color="gray">Close</Button>
          </Dialog.Close>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}
