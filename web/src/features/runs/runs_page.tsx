import { Badge, Button, Card, Container, Flex, Grid, Heading, Text } from "@radix-ui/themes";
import { useAtomValue } from "jotai";

import { Link, useSearchParams } from "wouter";
import {
  RUN_AREA_KEYS,
  RUN_STATE_KEYS,
  type RunArea,
  type RunListItem,
  type RunsQuery,
  type RunState,
} from "../../../../shared/contract/runs.ts";
import { type DataColumn, DataTable } from "../../components/data_table.tsx";
import { ErrorAlert } from "../../components/error_alert.tsx";
import { longDateTime } from "../../components/format_date.ts";
import { ListViewToggle, useListView } from "../../components/list_view.tsx";
import { TextField } from "../../components/text_field.tsx";
import { ALL, SelectFilter } from "../../components/select_filter.tsx";
import { useResource } from "../../components/use_resource.ts";
import { TABLET_MIN_WIDTH } from "../../components/use_min_width.ts";
import { messageOr } from "../../api/call.ts";
import { currentUserAtom, permissionsOf } from "../../state/session.ts";
import { fetchRuns, fetchRunSources } from "./api.ts";
import { areaLabel, areasFor, sourceHref, STATE_COLOR, stateLabel } from "./run_labels.ts";

export const NO_RUNS = "No runs match these filters.";

/** The filters as the address carries them (`/runs?area=inventory&sourceId=12&state=failed`). */
function queryOf(params: URLSearchParams): RunsQuery {
  const area = params.get("area");
  const state = params.get("state");
  const sourceId = Number(params.get("sourceId"));
  return {
    area: RUN_AREA_KEYS.includes(area as RunArea) ? area as RunArea : undefined,
    sourceId: Number.isInteger(sourceId) && sourceId > 0 ? sourceId : undefined,
    state: RUN_STATE_KEYS.includes(state as RunState) ? state as RunState : undefined,
    from: params.get("from") ?? undefined,
    to: params.get("to") ?? undefined,
  };
}

/** Where a line of the history leads: the run's page, or a vendor e-mail's vendor. */
const hrefOf = (run: RunListItem) =>
  run.kind === "run" ? `/runs/${run.id}` : sourceHref(run.area, run.sourceId);

const linkName = (run: RunListItem) =>
  run.kind === "run" ? `Run ${run.id}` : `E-mail ${run.id} to ${run.sourceName}`;

function StateBadge({ run }: { run: RunListItem }) {
  return <Badge color={STATE_COLOR[run.state]}>{stateLabel(run.state)}</Badge>;
}

const COLUMNS: DataColumn<RunListItem>[] = [
  {
    key: "run",
    header: "Run",
    rowHeader: true,
    cell: (run) => <Link href={hrefOf(run)}>{linkName(run)}</Link>,
  },
  { key: "when", header: "When", cell: (run) => longDateTime(run.createdAt) },
  { key: "area", header: "Area", priority: "medium", cell: (run) => areaLabel(run.area) },
  { key: "source", header: "Source", cell: (run) => run.sourceName },
  { key: "state", header: "State", cell: (run) => <StateBadge run={run} /> },
  {
    key: "result",
    header: "Result",
    priority: "medium",
    cell: (run) => <Text size="2" style={{ overflowWrap: "anywhere" }}>{run.result}</Text>,
  },
  { key: "file", header: "File", priority: "low", cell: (run) => run.fileName || "—" },
  { key: "trigger", header: "Trigger", priority: "low", cell: (run) => run.trigger },
];

function RunCards({ runs }: { runs: readonly RunListItem[] }) {
  if (!runs.length) return <Text as="p" size="2">{NO_RUNS}</Text>;
  return (
    <Grid columns="1" gap="3">
      {runs.map((run) => (
        <Card key={`${run.kind}-${run.id}`} asChild>
          <article aria-label={`${linkName(run)}, ${run.sourceName}`}>
            <Flex direction="column" gap="2">
              <Flex justify="between" align="start" gap="2">
                <Heading as="h2" size="3" style={{ overflowWrap: "anywhere" }}>
                  <Link href={hrefOf(run)}>{linkName(run)}</Link> · {run.sourceName}
                </Heading>
                <StateBadge run={run} />
              </Flex>
              <Text size="2" color="gray">
                {areaLabel(run.area)} · {longDateTime(run.createdAt)}
              </Text>
              <Text size="2" style={{ overflowWrap: "anywhere" }}>{run.result}</Text>
              {run.fileName && (
                <Text size="1" color="gray" style={{ overflowWrap: "anywhere" }}>
                  {run.fileName}
                </Text>
              )}
            </Flex>
          </article>
        </Card>
      ))}
    </Grid>
  );
}

const STATE_OPTIONS = RUN_STATE_KEYS.map((state) => ({ value: state, label: stateLabel(state) }));

/**
 * /runs: every run of the user's areas, newest first, filtered by area, source, state and dates
 * (all in the address, so a link can open it filtered); a table, cards under 768 px.
 */
export default function RunsPage() {
  const [params, setParams] = useSearchParams();
  const query = queryOf(params);
  const areas = areasFor(permissionsOf(useAtomValue(currentUserAtom)));
  const { view, chosen, setChosen, canChoose } = useListView(TABLET_MIN_WIDTH);
  const list = useResource(["runs", query], (signal) => fetchRuns(query, signal), {
    keepPrevious: true,
  });
  const sources = useResource(["run-sources"], (signal) => fetchRunSources(signal));
  const set = (patch: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(patch)) {
      if (value === undefined || value === "" || value === ALL) next.delete(key);
      else next.set(key, value);
    }
    setParams(next, { replace: true });
  };
  const sourceOptions = (sources.data ?? [])
    .filter((source) => !query.area || source.area === query.area)
    .map((source) => ({
      value: `${source.area}:${source.id}`,
      label: query.area ? source.name : `${source.name} (${areaLabel(source.area)})`,
    }));
  const sourceValue = query.area && query.sourceId ? `${query.area}:${query.sourceId}` : ALL;
  // A source of a filter that is no longer listed (deleted) still shows as its id.
  if (sourceValue !== ALL && !sourceOptions.some((o) => o.value === sourceValue)) {
    sourceOptions.push({ value: sourceValue, label: `Source ${query.sourceId}` });
  }
  const runs = list.data?.runs;

  return (
    <Container size="4" p="4">
      <Flex justify="between" align="center" gap="3" mb="4" wrap="wrap">
        <Heading as="h1">Runs</Heading>
        {canChoose && <ListViewToggle value={chosen} onChange={setChosen} />}
      </Flex>
      <Card asChild mb="3">
        <section aria-label="Filters">
          <Grid columns={{ initial: "1", xs: "2", md: "3" }} gap="3">
            <SelectFilter
              label="Area"
              value={query.area ?? ALL}
              onChange={(area) => set({ area, sourceId: undefined })}
              options={areas.map((area) => ({ value: area, label: areaLabel(area) }))}
            />
            <SelectFilter
              label="Source"
              value={sourceValue}
              onChange={(value) => {
                if (value === ALL) return set({ sourceId: undefined });
                const [area, id] = value.split(":");
                set({ area, sourceId: id });
              }}
              options={sourceOptions}
            />
            <SelectFilter
              label="State"
              value={query.state ?? ALL}
              onChange={(state) => set({ state })}
              options={STATE_OPTIONS}
            />
            <TextField
              label="From"
              type="date"
              value={query.from ?? ""}
              onChange={(e) => set({ from: e.target.value })}
            />
            <TextField
              label="To"
              type="date"
              value={query.to ?? ""}
              onChange={(e) => set({ to: e.target.value })}
            />
          </Grid>
          <Flex mt="3">
            <Button variant="soft" color="gray" onClick={() => setParams("", { replace: true })}>
              Clear filters
            </Button>
          </Flex>
        </section>
      </Card>
      {list.error !== undefined && (
        <ErrorAlert>{messageOr(list.error, "Could not load the runs.")}</ErrorAlert>
      )}
      <Text as="p" size="2" color="gray" mb="3" role="status">
        {runs === undefined
          ? "Loading …"
          : `${runs.length}${runs.length === 100 ? " (the newest)" : ""} ${
            runs.length === 1 ? "run" : "runs"
          }`}
      </Text>
      {runs !== undefined && (view === "table"
        ? (
          <DataTable
            rows={runs}
            columns={COLUMNS}
            rowKey={(run) => `${run.kind}-${run.id}`}
            caption="Runs"
            empty={NO_RUNS}
          />
        )
        : <RunCards runs={runs} />)}
    </Container>
  );
}
