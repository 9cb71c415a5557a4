import { Badge, DataList, DropdownMenu, Flex, Grid, Switch } from "@radix-ui/themes";
import { type ReactNode, useState } from "react";
import { useLocation } from "wouter";
import { type DataColumn, DataTable, SOURCE_LIST_HINTS } from "../../components/data_table.tsx";
import { ListPage } from "../../components/list_page.tsx";
import { ListCard } from "../../components/list_card.tsx";
import { RowActionsMenu } from "../../components/row_actions_menu.tsx";
import { useResource } from "../../components/use_resource.ts";
import { loggedLoader } from "../../components/logged_loader.ts";
import { removeListedRow } from "../../components/remove_listed_row.ts";
import {
  deleteInventorySource,
  fetchInventorySources,
  type InventorySourceListEntry,
} from "./api.ts";

/** Texts of spec part 2, sections 2 and 8. */
export const LIST_TEXTS = {
  heading: "Inventory Sources",
  empty: "No inventory sources found.",
  noResults: "No results.",
} as const;

const orNA = (value: number | null) => value ?? "N/A";

/**
 * The table's columns in the spec's order and their priorities (the spec leaves them open,
 * docs/inventory.md "Screens" says why): what identifies a source stays on a phone; the Active
 * switch and the actions menu always show.
 */
function columnsOf(
  { active, toggle, askDelete }: Omit<ViewProps, "sources">,
): DataColumn<InventorySourceListEntry>[] {
  return [
    {
      key: "active",
      header: "Active",
      // Local only (spec section 4, "Active flags"): nothing is sent.
      cell: (s) => (
        <Switch
          aria-label={`Active: ${s.sourceName}`}
          checked={active.get(s.id) ?? s.activeStatus}
          onCheckedChange={(on) => toggle(s.id, on)}
        />
      ),
    },
    { key: "name", header: "Source Name", rowHeader: true, cell: (s) => s.sourceName },
    { key: "fileType", header: "File Type", cell: (s) => s.fileType },
    { key: "from", header: "From Email", priority: "medium", cell: (s) => s.fromEmail },
    {
      key: "attachments",
      header: "Att. Count",
      priority: "low",
      cell: (s) => s.expectedAttachmentCount,
    },
    { key: "subject", header: "Subject Value", priority: "medium", cell: (s) => s.subjectValue },
    {
      key: "attachmentName",
      header: "Attachment Name",
      priority: "low",
      cell: (s) => s.attachmentName,
    },
    { key: "item", header: "Item Col.", priority: "low", cell: (s) => s.itemNumberColumnName },
    { key: "qty", header: "Qty Col.", priority: "low", cell: (s) => s.qtyColumnName },
    { key: "min", header: "Min Items", priority: "medium", cell: (s) => s.minItemsToBeActive },
    {
      key: "actions",
      header: null,
      headerProps: { "aria-label": "Actions" },
      cell: (s) => <ActionsMenu source={s} onDelete={() => askDelete(s)} />,
    },
  ];
}

function ActionsMenu(
  { source, onDelete }: { source: InventorySourceListEntry; onDelete(): void },
) {
  const [, navigate] = useLocation();
  return (
    <RowActionsMenu
      name={source.sourceName}
      editHref={`/inventory-sources/edit/${source.id}`}
      onDelete={onDelete}
    >
      <DropdownMenu.Item
        onSelect={() => navigate(`/inventory-sources/manually-process/${source.id}`)}
      >
        Manually Process File
      </DropdownMenu.Item>
      <DropdownMenu.Item onSelect={() => navigate(`/inventory-sources/${source.id}/items`)}>
        Items
      </DropdownMenu.Item>
    </RowActionsMenu>
  );
}

interface ViewProps {
  sources: readonly InventorySourceListEntry[];
  active: ReadonlyMap<number, boolean>;
  toggle(id: number, on: boolean): void;
  askDelete(source: InventorySourceListEntry): void;
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <DataList.Item>
      <DataList.Label minWidth="120px">{label}</DataList.Label>
      <DataList.Value>{children}</DataList.Value>
    </DataList.Item>
  );
}

function SourceCards({ sources, active, toggle, askDelete }: ViewProps) {
  return (
    <Grid columns={{ initial: "1", sm: "2", lg: "3" }} gap="3">
      {sources.map((source) => {
        const on = active.get(source.id) ?? source.activeStatus;
        return (
          <ListCard
            key={source.id}
            name={source.sourceName}
            menu={<ActionsMenu source={source} onDelete={() => askDelete(source)} />}
            headerGap="2"
          >
            <Flex gap="2" align="center" mb="2">
              <Switch
                aria-label={`Active: ${source.sourceName}`}
                checked={on}
                onCheckedChange={(next) => toggle(source.id, next)}
              />
              <Badge color={on ? "green" : "gray"}>{on ? "Active" : "Inactive"}</Badge>
            </Flex>
            <DataList.Root size="1">
              <Fact label="File Type">{source.fileType}</Fact>
              <Fact label="From Email">{source.fromEmail}</Fact>
              <Fact label="Att. Count">{orNA(source.expectedAttachmentCount)}</Fact>
              <Fact label="Subject Value">{source.subjectValue}</Fact>
              <Fact label="Attachment Name">{source.attachmentName}</Fact>
              <Fact label="Item Col.">{source.itemNumberColumnName}</Fact>
              <Fact label="Qty Col.">{source.qtyColumnName}</Fact>
              <Fact label="Min Items">{orNA(source.minItemsToBeActive)}</Fact>
            </DataList.Root>
          </ListCard>
        );
      })}
    </Grid>
  );
}

/** /inventory-sources: the sources as a table or cards; Add, Edit, Manually Process, Delete. */
export default function SourceListPage() {
  const list = useResource(
    ["inventory-sources"],
    // List load failures are only logged (spec section 8).
    loggedLoader(fetchInventorySources, "Error fetching inventory sources"),
  );
  const [active, setActive] = useState<ReadonlyMap<number, boolean>>(new Map());
  const toggle = (id: number, on: boolean) => setActive((current) => new Map(current).set(id, on));

  return (
    <ListPage
      title={LIST_TEXTS.heading}
      addHref="/inventory-sources/edit/0"
      addLabel="Add Source"
      rows={list.data ?? (list.error ? [] : undefined)}
      loadingLabel="Loading inventory sources"
      emptyCards={LIST_TEXTS.empty}
      table={(rows, { askDelete }) => (
        <DataTable
          rows={rows}
          columns={columnsOf({ active, toggle, askDelete })}
          rowKey={(source) => source.id}
          empty={LIST_TEXTS.noResults}
          hints={SOURCE_LIST_HINTS}
        />
      )}
      cards={(rows, { askDelete }) => (
        <SourceCards sources={rows} active={active} toggle={toggle} askDelete={askDelete} />
      )}
      deletion={{
        nameOf: (source) => source.sourceName,
        remove: removeListedRow(list, deleteInventorySource, "Error deleting inventory source"),
      }}
    />
  );
}
