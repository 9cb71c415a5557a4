import { Badge, Card, Checkbox, Flex, Grid, Heading, Switch, Text } from "@radix-ui/themes";
import { useState } from "react";
import { deleteSource, fetchSources, type OrderTrackingSource } from "./api.ts";
import { type DataColumn, DataTable } from "../../components/data_table.tsx";
import { ListPage } from "../../components/list_page.tsx";
import { RowActionsMenu } from "../../components/row_actions_menu.tsx";
import { useResource } from "../../components/use_resource.ts";
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
  selected: Set<number>;
  toggle(id: number): void;
  askDelete(source: OrderTrackingSource): void;
}

function SourcesTable({ sources, selected, toggle, askDelete }: ViewProps) {
  const columns: DataColumn<OrderTrackingSource>[] = [
    {
      key: "active",
      header: "Active",
      // Row selection only: the spec's checkbox changes nothing on the server.
      cell: (source) => (
        <Checkbox
          aria-label={`Select ${source.sourceName}`}
          checked={selected.has(source.id)}
          onCheckedChange={() => toggle(source.id)}
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

function SourceCards({ sources, selected, toggle, askDelete }: ViewProps) {
  return (
    <Grid columns={{ initial: "1", sm: "2", lg: "3" }} gap="3">
      {sources.map((source) => (
        <Card key={source.id} asChild>
          <section aria-label={source.sourceName}>
            <Flex justify="between" align="center" mb="2">
              <Heading as="h2" size="4">{source.sourceName}</Heading>
              <ActionsMenu source={source} onDelete={() => askDelete(source)} />
            </Flex>
            <Flex direction="column" gap="1">
              <Text as="label" size="2">
                <Flex gap="2" align="center">
                  <Switch
                    checked={selected.has(source.id)}
                    onCheckedChange={() => toggle(source.id)}
                  />
                  Active
                </Flex>
              </Text>
              <Text size="2">File Type: {source.fileType}</Text>
              <Text size="2">
                Active:{" "}
                <Badge color={source.activeStatus ? "green" : "gray"}>
                  {source.activeStatus ? "Yes" : "No"}
                </Badge>
              </Text>
              <Text size="2">From Email: {source.fromEmail}</Text>
              <Text size="2">Subject: {source.subjectValue}</Text>
            </Flex>
          </section>
        </Card>
      ))}
    </Grid>
  );
}

/** /order-tracking-sources: the sources as a table or cards, Add, Edit and Delete. */
export default function SourceListPage() {
  const list = useResource(["order-tracking-sources"], async (signal) => {
    try {
      return await fetchSources(signal);
    } catch (error) {
      if (!signal.aborted) console.error("Error fetching order tracking sources", error);
      throw error;
    }
  });
  const sources = list.data ?? (list.error ? [] : undefined);
  const [selected, setSelected] = useState<Set<number>>(new Set());

  const toggle = (id: number) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const remove = removeListedRow(list, deleteSource, "Error deleting order tracking source");

  return (
    <ListPage
      title="Order Tracking Sources"
      addHref="/order-tracking-sources/edit/0"
      addLabel="Add Source"
      rows={sources}
      loadingLabel="Loading order tracking sources"
      table={(rows, { askDelete }) => (
        <SourcesTable sources={rows} selected={selected} toggle={toggle} askDelete={askDelete} />
      )}
      cards={(rows, { askDelete }) => (
        <SourceCards sources={rows} selected={selected} toggle={toggle} askDelete={askDelete} />
      )}
      emptyCards="No order tracking sources found."
      deletion={{ nameOf: (source) => source.sourceName, remove }}
    />
  );
}
