import {
  Badge,
  Button,
  Card,
  Checkbox,
  Container,
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
  deleteSubmissionSource,
  fetchSubmissionSources,
  type OrderSubmissionSource,
} from "./api.ts";
import { type Priority, useColumnPriority } from "./column_priority.ts";

const yesNo = (on: boolean) => on ? "Yes" : "No";

interface Column {
  header: string;
  priority: Priority;
  cell(source: OrderSubmissionSource): ReactNode;
}

/** The table's data columns and their priorities (the spec leaves them open; docs say why). */
const COLUMNS: readonly Column[] = [
  { header: "Source Name", priority: "high", cell: (s) => s.sourceName },
  { header: "From Email", priority: "high", cell: (s) => s.fromEmail },
  { header: "Subject Value", priority: "medium", cell: (s) => s.subjectValue },
  { header: "Att. Count", priority: "medium", cell: (s) => s.expectedAttachmentCount },
  { header: "Batch Emails", priority: "medium", cell: (s) => s.expectedNumberOfBatchEmails },
  { header: "File Type", priority: "low", cell: (s) => s.fileType },
  { header: "Attachment Name", priority: "low", cell: (s) => s.attachmentName },
  { header: "Link Click", priority: "low", cell: (s) => yesNo(s.noAttachmentsNeedsLinkClick) },
];

function ActionsMenu(
  { source, onDelete }: { source: OrderSubmissionSource; onDelete(): void },
) {
  const [, navigate] = useLocation();
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger>
        <IconButton variant="ghost" aria-label={`Actions for ${source.sourceName}`}>⋯</IconButton>
      </DropdownMenu.Trigger>
      <DropdownMenu.Content>
        <DropdownMenu.Item onSelect={() => navigate(`/order-submission/sources/edit/${source.id}`)}>
          Edit
        </DropdownMenu.Item>
        <DropdownMenu.Item color="red" onSelect={onDelete}>Delete</DropdownMenu.Item>
      </DropdownMenu.Content>
    </DropdownMenu.Root>
  );
}

interface ViewProps {
  sources: OrderSubmissionSource[];
  selected: Set<number>;
  toggle(id: number): void;
  askDelete(source: OrderSubmissionSource): void;
}

function SourcesTable({ sources, selected, toggle, askDelete }: ViewProps) {
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
              <Table.Cell colSpan={columns.length + 2}>No results.</Table.Cell>
            </Table.Row>
          )}
          {sources.map((source) => (
            <Table.Row key={source.id}>
              <Table.Cell>
                {/* Row selection only: the spec's checkbox changes nothing on the server. */}
                <Checkbox
                  aria-label={`Select ${source.sourceName}`}
                  checked={selected.has(source.id)}
                  onCheckedChange={() => toggle(source.id)}
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

function SourceCards({ sources, selected, toggle, askDelete }: ViewProps) {
  if (sources.length === 0) return <Text as="p">No order submission sources found.</Text>;
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
              <Text size="2">
                Status:{" "}
                <Badge color={source.activeStatus ? "green" : "gray"}>
                  {source.activeStatus ? "Active" : "Inactive"}
                </Badge>
              </Text>
              <Text size="2">From Email: {source.fromEmail}</Text>
              <Text size="2">Subject: {source.subjectValue}</Text>
              <Text size="2">File Type: {source.fileType || "N/A"}</Text>
              <Text size="2">Att. Count: {source.expectedAttachmentCount}</Text>
              <Text size="2">Batch Emails: {source.expectedNumberOfBatchEmails}</Text>
            </Flex>
          </section>
        </Card>
      ))}
    </Grid>
  );
}

/** /order-submission/sources: the sources as a table or cards, Add, Edit and Delete. */
export default function SourceListPage() {
  const { view, chosen, setChosen, canChoose } = useListView(TABLET_MIN_WIDTH);
  const [sources, setSources] = useState<OrderSubmissionSource[]>([]);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [deleting, setDeleting] = useState<OrderSubmissionSource | null>(null);

  useEffect(() => {
    fetchSubmissionSources().then(setSources).catch((error) =>
      console.error("Error fetching order submission sources", error)
    );
  }, []);

  const toggle = (id: number) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const confirmDelete = async () => {
    if (!deleting) return false;
    try {
      const response = await deleteSubmissionSource(deleting.id);
      if (!isSuccess(response)) {
        console.error("Error deleting order submission source", response.status);
        return false;
      }
      setSources((current) => current.filter((source) => source.id !== deleting.id));
      return true;
    } catch (error) {
      console.error("Error deleting order submission source", error);
      return false;
    }
  };

  const props = { sources, selected, toggle, askDelete: setDeleting };
  return (
    <Container size="4" p="4">
      <Flex justify="between" align="center" wrap="wrap" gap="3" mb="4">
        <Heading as="h1">Order Submission Sources</Heading>
        <Flex gap="3" align="center">
          {canChoose && <ListViewToggle value={chosen} onChange={setChosen} />}
          <Button asChild>
            <Link href="/order-submission/sources/edit/0">Add Source</Link>
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
