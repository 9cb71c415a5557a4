import { RunItemChanges } from "../inventory/run_item_changes.tsx";
import {
  Badge,
  Box,
  Button,
  Callout,
  Card,
  Container,
  DataList,
  Flex,
  Grid,
  Heading,
  Text,
} from "@radix-ui/themes";
import { useState } from "react";
import { Link, useParams } from "wouter";
import { navigate } from "wouter/use-browser-location";
import { ErrorAlert } from "../../components/error_alert.tsx";
import { longDateTime } from "../../components/format_date.ts";
import { Loading } from "../../components/loading.tsx";
import { useResource } from "../../components/use_resource.ts";
import { messageOr } from "../../api/call.ts";
import {
  fetchInventoryRun,
  fetchRun,
  type HeldInventoryRun,
  releaseInventoryRun,
  rerunRun,
  type RunDetails,
} from "./api.ts";
import { areaLabel, runsHref, sourceHref, STATE_COLOR, stateLabel } from "./run_labels.ts";

const percent = (share: number) => `${Math.round(share * 100)}%`;

function ItemList({ title, items }: { title: string; items: string[] }) {
  return (
    <Box>
      <Heading as="h3" size="2" mb="1">{title}</Heading>
      {items.length === 0
        ? <Text size="2" color="gray">None</Text>
        : (
          <Box asChild style={{ maxHeight: 240, overflowY: "auto" }} m="0" pl="4">
            <ul aria-label={title}>
              {items.map((item) => (
                <li key={item}>
                  <Text size="2" style={{ overflowWrap: "anywhere" }}>{item}</Text>
                </li>
              ))}
            </ul>
          </Box>
        )}
    </Box>
  );
}

/** What releasing a held inventory run would change: its stored flips and the guard's numbers. */
function ReleasePreview({ held }: { held: HeldInventoryRun }) {
  const off = held.flips.filter((flip) => flip.to === "Inactive").map((flip) => flip.itemNumber);
  const on = held.flips.filter((flip) => flip.to === "Active").map((flip) => flip.itemNumber);
  const g = held.guard;
  return (
    <Flex direction="column" gap="3">
      <Callout.Root color="amber" highContrast role="note">
        <Callout.Text>
          This run is held, not delivered: it turns {g.turnedInactive ?? off.length} of{" "}
          {g.previouslyActive ?? "the"} previously active items inactive, more than the threshold of
          {" "}
          {percent(g.threshold ?? 0.5)}. Releasing it delivers its file with these changes.
        </Callout.Text>
      </Callout.Root>
      <Grid columns={{ initial: "1", sm: "2" }} gap="3">
        <ItemList title={`Active → Inactive (${off.length})`} items={off} />
        <ItemList title={`Inactive → Active (${on.length})`} items={on} />
      </Grid>
    </Flex>
  );
}

function RowErrors({ run }: { run: RunDetails }) {
  if (!run.rowErrorGroups.length) return null;
  return (
    <Card asChild>
      <section aria-labelledby="row-errors">
        <Heading as="h2" size="4" mb="3" id="row-errors">
          Row errors ({run.rowErrorCount})
        </Heading>
        <Flex direction="column" gap="3">
          {run.rowErrorGroups.map((group) => (
            <Box key={`${group.column}-${group.reason}`}>
              <Heading as="h3" size="2" style={{ overflowWrap: "anywhere" }}>
                {group.count} × {group.column ? `${group.column}: ` : ""}
                {group.reason}
              </Heading>
              <Box asChild m="0" pl="4">
                <ul>
                  {group.rows.map((row) => (
                    <li key={row.row}>
                      <Text size="2" style={{ overflowWrap: "anywhere" }}>
                        Row {row.row}: {row.message}
                      </Text>
                    </li>
                  ))}
                </ul>
              </Box>
              {group.count > group.rows.length && (
                <Text size="1" color="gray">
                  … and {group.count - group.rows.length} more (Download the file to see every row)
                </Text>
              )}
            </Box>
          ))}
        </Flex>
      </section>
    </Card>
  );
}

/**
 * /runs/{id}: one run in words — its result, row errors grouped by reason, Download, Re-run,
 * and for a held inventory run what it would change with Release (inventory users).
 */
export default function RunPage() {
  const params = useParams<{ runId: string }>();
  const runId = Number(params.runId) || 0;
  const loaded = useResource(["run", runId], (signal) => fetchRun(runId, signal));
  const run = loaded.data;
  const held = useResource(
    run?.canRelease ? ["held-inventory-run", runId] : null,
    (signal) => fetchInventoryRun(runId, signal),
  );
  const [busy, setBusy] = useState<"rerun" | "release" | null>(null);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);

  const rerun = async () => {
    setBusy("rerun");
    setOutcome(null);
    try {
      navigate(`/runs/${await rerunRun(runId)}`);
    } catch (error) {
      setOutcome({ ok: false, text: messageOr(error, "The re-run failed.") });
    } finally {
      setBusy(null);
    }
  };
  const release = async () => {
    setBusy("release");
    setOutcome(null);
    try {
      const { delivery } = await releaseInventoryRun(runId);
      setOutcome(
        delivery.error
          ? { ok: false, text: `Released, but the delivery failed: ${delivery.error}` }
          : { ok: true, text: ["Released and delivered.", ...delivery.log].join(" ") },
      );
      loaded.reload();
    } catch (error) {
      setOutcome({ ok: false, text: messageOr(error, "The release failed.") });
    } finally {
      setBusy(null);
    }
  };

  return (
    <Container size="3" p="4">
      <Flex justify="between" align="center" gap="3" mb="4" wrap="wrap">
        <Heading as="h1">Run {runId}</Heading>
        <Button asChild variant="soft">
          <Link href={run ? runsHref(run.area, run.sourceId) : "/runs"}>Back to Runs</Link>
        </Button>
      </Flex>
      {loaded.error !== undefined && (
        <ErrorAlert>{messageOr(loaded.error, "Could not load the run.")}</ErrorAlert>
      )}
      {!run
        ? (loaded.error === undefined && <Loading label="Loading run" />)
        : (
          <Flex direction="column" gap="4">
            <Card asChild>
              <section aria-label="Result">
                <Flex direction="column" gap="3">
                  <Flex gap="2" align="center" wrap="wrap">
                    <Badge size="2" color={STATE_COLOR[run.state]}>{stateLabel(run.state)}</Badge>
                    <Text size="3" weight="medium" style={{ overflowWrap: "anywhere" }}>
                      {run.result}
                    </Text>
                  </Flex>
                  <DataList.Root size="2" orientation={{ initial: "vertical", sm: "horizontal" }}>
                    <DataList.Item>
                      <DataList.Label>Source</DataList.Label>
                      <DataList.Value>
                        <Link href={sourceHref(run.area, run.sourceId)}>{run.sourceName}</Link>
                        &nbsp;({areaLabel(run.area)})
                      </DataList.Value>
                    </DataList.Item>
                    <DataList.Item>
                      <DataList.Label>File</DataList.Label>
                      <DataList.Value style={{ overflowWrap: "anywhere" }}>
                        {run.fileName || "—"}
                      </DataList.Value>
                    </DataList.Item>
                    <DataList.Item>
                      <DataList.Label>Trigger</DataList.Label>
                      <DataList.Value>
                        {run.trigger}
                        {run.rerunOf && (
                          <>
                            {" of "}
                            <Link href={`/runs/${run.rerunOf}`}>
                              run {run.rerunOf}
                            </Link>
                          </>
                        )}
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
                  </DataList.Root>
                  {run.error && <ErrorAlert>{run.error}</ErrorAlert>}
                  {run.warnings.map((w) => (
                    <Callout.Root key={w} color="amber" highContrast>
                      <Callout.Text>Warning: {w}</Callout.Text>
                    </Callout.Root>
                  ))}
                  <Flex gap="3" wrap="wrap">
                    {run.hasFile && (
                      <>
                        <Button asChild variant="soft">
                          <a href={`/api/import-runs/${run.id}/file`} download>Download</a>
                        </Button>
                        <Button variant="soft" loading={busy === "rerun"} onClick={rerun}>
                          Re-run
                        </Button>
                      </>
                    )}
                    {run.canRelease && (
                      <Button color="amber" loading={busy === "release"} onClick={release}>
                        Release
                      </Button>
                    )}
                  </Flex>
                  {outcome && (
                    <Callout.Root color={outcome.ok ? "green" : "red"} highContrast role="status">
                      <Callout.Text>{outcome.text}</Callout.Text>
                    </Callout.Root>
                  )}
                </Flex>
              </section>
            </Card>
            {run.canRelease && (
              <Card asChild>
                <section aria-labelledby="release-preview">
                  <Heading as="h2" size="4" mb="3" id="release-preview">
                    What Release would change
                  </Heading>
                  {held.error !== undefined && (
                    <ErrorAlert>{messageOr(held.error, "Could not load the preview.")}</ErrorAlert>
                  )}
                  {held.data
                    ? <ReleasePreview held={held.data} />
                    : held.error === undefined && <Loading label="Loading the preview" />}
                </section>
              </Card>
            )}
            {run.area === "inventory" && (
              <Card>
                <RunItemChanges runId={run.id} />
              </Card>
            )}
            <RowErrors run={run} />
            <Card asChild>
              <section aria-labelledby="run-log">
                <Heading as="h2" size="4" mb="2" id="run-log">Log</Heading>
                <Box asChild m="0" pl="4">
                  <ol aria-labelledby="run-log">
                    {run.log.map((line, i) => (
                      <li key={i}>
                        <Text size="2" style={{ overflowWrap: "anywhere" }}>{line}</Text>
                      </li>
                    ))}
                  </ol>
                </Box>
              </section>
            </Card>
          </Flex>
        )}
    </Container>
  );
}
