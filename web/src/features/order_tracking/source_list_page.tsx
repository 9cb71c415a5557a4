import { Badge, Flex, Grid, Text } from "@radix-ui/themes";
import { deleteSource, fetchSources, type OrderTrackingSource } from "./api.ts";
import { type DataColumn, DataTable } from "../../components/data_table.tsx";
import { ListPage } from "../../components/list_page.tsx";
import { ListCard } from "../../components/list_card.tsx";
import { ActiveCheckbox, ActiveSwitch } from "../../components/active_controls.tsx";
import { RowActionsMenu } from "../../components/row_actions_menu.tsx";
import { useResource } from "../../components/use_resource.ts";
import { loggedLoader } from "../../components/logged_loader.ts";
import { useActiveToggles } from "../../components/use_active_toggles.ts";
import { removeListedRow } from "../../components/remove_listed_row.ts";

function ActionsMenu(
  { source, onDelete }: { source: OrderTrackingSource; onDelete(): void },
) {
  return (
    <RowActionsMenu
      name={source.sourceName}
      editHref={`/order-tracking-sources/edit/${source.id}`}
      onDelete={onDelete}
    />
  );
}

interface ViewProps {
  sources: readonly OrderTrackingSource[];
  isActive(row: { id: number; activeStatus: boolean }): boolean;
  setActive(id: number, on: boolean): void;
  askDelete(source: OrderTrackingSource): void;
}

function SourcesTable({ sources, isActive, setActive, askDelete }: ViewProps) {
  const columns: DataColumn<OrderTrackingSource>[] = [
    {
      key: "active",
      header: "Active",
      // The stored state; a click changes it on this page only (spec part 2 section 4).
      cell: (source) => (
        <ActiveCheckbox
          name={source.sourceName}
          checked={isActive(source)}
          onChange={(on) => setActive(source.id, on)}
        />
      ),
    },
    { key: "name", header: "Source Name", rowHeader: true, cell: (source) => source.sourceName },
    { key: "fileType", header: "File Type", cell: (source) => source.fileType },
    { key: "fromEmail", header: "From Email", cell: (source) => source.fromEmail },
    {
      key: "count",
      header: "Expected Attachment Count",
      cell: (source) => source.expectedAttachmentCount ?? "",
    },
    { key: "subject", header: "Expected Subject", cell: (source) => source.subjectValue },
    { key: "attachment", header: "Attachment Name", cell: (source) => source.attachmentName },
    {
      key: "actions",
      header: null,
      headerProps: { "aria-label": "Actions" },
      cell: (source) => <ActionsMenu source={source} onDelete={() => askDelete(source)} />,
    },
  ];
  return <DataTable rows={sources} columns={columns} rowKey={(source) => source.id} />;
}

function SourceCards({ sources, isActive, setActive, askDelete }: ViewProps) {
  return (
    <Grid columns={{ initial: "1", sm: "2", lg: "3" }} gap="3">
      {sources.map((source) => (
        <ListCard
          key={source.id}
          name={source.sourceName}
          menu={<ActionsMenu source={source} onDelete={() => askDelete(source)} />}
        >
          <Flex direction="column" gap="1">
            <ActiveSwitch
              badge={false}
              name={source.sourceName}
              checked={isActive(source)}
              onChange={(on) => setActive(source.id, on)}
            />
            <Text size="2">File Type: {source.fileType}</Text>
            <Text size="2">
              Active:{" "}
              <Badge color={isActive(source) ? "green" : "gray"}>
                {isActive(source) ? "Yes" : "No"}
              </Badge>
            </Text>
            <Text size="2">From Email: {source.fromEmail}</Text>
            <Text size="2">Subject: {source.subjectValue}</Text>
          </Flex>
        </ListCard>
      ))}
    </Grid>
  );
}

/** /order-tracking-sources: the sources as a table or cards, Add, Edit and Delete. */
export default function SourceListPage() {
  const list = useResource(
    ["order-tracking-sources"],
    loggedLoader(fetchSources, "Error fetching order tracking sources"),
  );
  const sources = list.data ?? (list.error ? [] : undefined);
  const { isActive, setActive } = useActiveToggles();

  const remove = removeListedRow(list, deleteSource, "Error deleting order tracking source");

  return (
    <ListPage
      title="Order Tracking Sources"
      addHref="/order-tracking-sources/edit/0"
      addLabel="Add Source"
      rows={sources}
      loadingLabel="Loading order tracking sources"
      table={(rows, { askDelete }) => (
        <SourcesTable
          sources={rows}
          isActive={isActive}
          setActive={setActive}
          askDelete={askDelete}
        />
      )}
      cards={(rows, { askDelete }) => (
        <SourceCards
          sources={rows}
          isActive={isActive}
          setActive={setActive}
          askDelete={askDelete}
        />
      )}
      emptyCards="No order tracking sources found."
      deletion={{ nameOf: (source) => source.sourceName, remove }}
    />
  );
}
