import {
  Badge,
  Button,
  Card,
  Container,
  DataList,
  DropdownMenu,
  Flex,
  Grid,
  Heading,
  IconButton,
  Switch,
  Table,
  Text,
} from "@radix-ui/themes";
import { type ReactNode, useEffect, useState } from "react";
import { Link, useLocation } from "wouter";
import { isSuccess } from "../../api/http.ts";
import { DeleteDialog } from "../../components/delete_dialog.tsx";
import { ListViewToggle, useListView } from "../../components/list_view.tsx";
import { TABLET_MIN_WIDTH } from "../../components/use_min_width.ts";
import {
  deleteInventorySource,
  fetchInventorySources,
  type InventorySourceListEntry,
} from "./api.ts";
import { type Priority, useColumnPriority } from "./column_priority.ts";

/** Texts of spec part 2, sections 2 and 8. */
export const LIST_TEXTS = {
  heading: "Inventory Sources",
  empty: "No inventory sources found.",
  noResults: "No results.",
} as const;

const orNA = (value: number | null) => value ?? "N/A";

interface Column {
  header: string;
  /** The card's label for the same fact. */
  priority: Priority;
  cell(source: InventorySourceListEntry): ReactNode;
}

/**
 * The table's data columns in the spec's order and their priorities (the spec leaves them open,
 * docs/inventory.md "Screens" says why): what identifies a source stays on a phone.
 */
const COLUMNS: readonly Column[] = [
  { header: "Source Name", priority: "high", cell: (s) => s.sourceName },
  { header: "File Type", priority: "high", cell: (s) => s.fileType },
  { header: "From Email", priority: "medium", cell: (s) => s.fromEmail },
  { header: "Att. Count", priority: "low", cell: (s) => s.expectedAttachmentCount },
  { header: "Subject Value", priority: "medium", cell: (s) => s.subjectValue },
  { header: "Attachment Name", priority: "low", cell: (s) => s.attachmentName },
  { header: "Item Col.", priority: "low", cell: (s) => s.itemNumberColumnName },
  { header: "Qty Col.", priority: "low", cell: (s) => s.qtyColumnName },
  { header: "Min Items", priority: "medium", cell: (s) => s.minItemsToBeActive },
];

function ActionsMenu(
  { source, onDelete }: { source: InventorySourceListEntry; onDelete(): void },
) {
  const [, navigate] = useLocation();
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger>
        <IconButton variant="ghost" aria-label={`Actions for ${source.sourceName}`}>⋯</IconButton>
      </DropdownMenu.Trigger>
      <DropdownMenu.Content>
        <DropdownMenu.Item onSelect={() => navigate(`/inventory-sources/edit/${source.id}`)}>
          Edit
        </DropdownMenu.Item>
        <DropdownMenu.Item
          onSelect={() => navigate(`/inventory-sources/manually-process/${source.id}`)}
        >
          Manually Process File
        </DropdownMenu.Item>
        <DropdownMenu.Item color="red" onSelect={onDelete}>Delete</DropdownMenu.Item>
      </DropdownMenu.Content>
    </DropdownMenu.Root>
  );
}

interface ViewProps {
  sources: InventorySourceListEntry[];
  active: Map<number, boolean>;
  toggle(id: number, on: boolean): void;
  askDelete(source: InventorySourceListEntry): void;
}

function SourcesTable({ sources, active, toggle, askDelete }: ViewProps) {
  const { shows, hint } = useColumnPriority();
  const columns = COLUMNS.filter((column) => shows(column.priority));
  return (
    <Flex direction="column" gap="2">
      {hint && <Text as="p" size="2" color="gray">{hint}</Text>}
      <Table.Root variant="surface" style={{ overflowX: "auto" }}>
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeaderCell>Active</Table.ColumnHeaderCell>
            {columns.map((column) => (
              <Table.ColumnHeaderCell key={column.header}>{column.header}</Table.ColumnHeaderCell>
            ))}
            <Table.ColumnHeaderCell aria-label="Actions" />
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {sources.length === 0 && (
            <Table.Row>
              <Table.Cell colSpan={columns.length + 2}>{LIST_TEXTS.noResults}</Table.Cell>
            </Table.Row>
          )}
          {sources.map((source) => (
            <Table.Row key={source.id}>
              <Table.Cell>
                {/* Local only (spec section 4, "Active flags"): nothing is sent. */}
                <Switch
                  aria-label={`Active: ${source.sourceName}`}
                  checked={active.get(source.id) ?? source.activeStatus}
                  onCheckedChange={(on) => toggle(source.id, on)}
                />
              </Table.Cell>
              {columns.map((column, i) =>
                i === 0
                  ? (
                    <Table.RowHeaderCell key={column.header}>
                      {column.cell(source)}
                    </Table.RowHeaderCell>
                  )
                  : <Table.Cell key={column.header}>{column.cell(source)}</Table.Cell>
              )}
              <Table.Cell>
                <ActionsMenu source={source} onDelete={() => askDelete(source)} />
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Flex>
  );
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
  if (sources.length === 0) return <Text as="p">{LIST_TEXTS.empty}</Text>;
  return (
    <Grid columns={{ initial: "1", sm: "2", lg: "3" }} gap="3">
      {sources.map((source) => {
        const on = active.get(source.id) ?? source.activeStatus;
        return (
          <Card key={source.id} asChild>
            <section aria-label={source.sourceName}>
              <Flex justify="between" align="center" mb="2" gap="2">
                <Heading as="h2" size="4">{source.sourceName}</Heading>
                <ActionsMenu source={source} onDelete={() => askDelete(source)} />
              </Flex>
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
            </section>
          </Card>
        );
      })}
    </Grid>
  );
}

/** /inventory-sources: the sources as a table or cards; Add, Edit, Manually Process, Delete. */
export default function SourceListPage() {
  const { view, chosen, setChosen, canChoose } = useListView(TABLET_MIN_WIDTH);
  const [sources, setSources] = useState<InventorySourceListEntry[]>([]);
  const [active, setActive] = useState<Map<number, boolean>>(new Map());
  const [deleting, setDeleting] = useState<InventorySourceListEntry | null>(null);

  useEffect(() => {
    // List load failures are only logged (spec section 8).
    fetchInventorySources().then(setSources).catch((error) =>
      console.error("Error fetching inventory sources", error)
    );
  }, []);

  const toggle = (id: number, on: boolean) => setActive((current) => new Map(current).set(id, on));

  const confirmDelete = async () => {
    if (!deleting) return false;
    try {
      const response = await deleteInventorySource(deleting.id);
      if (!isSuccess(response)) {
        console.error("Error deleting inventory source", response.status);
        return false;
      }
      setSources((current) => current.filter((source) => source.id !== deleting.id));
      return true;
    } catch (error) {
      console.error("Error deleting inventory source", error);
      return false;
    }
  };

  const props = { sources, active, toggle, askDelete: setDeleting };
  return (
    <Container size="4" p="4">
      <Flex justify="between" align="center" wrap="wrap" gap="3" mb="4">
        <Heading as="h1">{LIST_TEXTS.heading}</Heading>
        <Flex gap="3" align="center">
          {canChoose && <ListViewToggle value={chosen} onChange={setChosen} />}
          <Button asChild>
            <Link href="/inventory-sources/edit/0">Add Source</Link>
          </Button>
        </Flex>
      </Flex>
      {view === "table" ? <SourcesTable {...props} /> : <SourceCards {...props} />}
      <DeleteDialog
        name={deleting?.sourceName ?? null}
        onCancel={() => setDeleting(null)}
        onConfirm={confirmDelete}
      />
    </Container>
  );
}
