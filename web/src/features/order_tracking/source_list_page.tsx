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
import { useEffect, useState } from "react";
import { Link, useLocation } from "wouter";
import { deleteSource, fetchSources, type OrderTrackingSource } from "./api.ts";
import { isSuccess } from "../../api/http.ts";
import { DeleteDialog } from "../../components/delete_dialog.tsx";
import { ListViewToggle, useListView } from "../../components/list_view.tsx";
import { TABLET_MIN_WIDTH } from "../../components/use_min_width.ts";

function ActionsMenu(
  { source, onDelete }: { source: OrderTrackingSource; onDelete(): void },
) {
  const [, navigate] = useLocation();
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger>
        <IconButton variant="ghost" aria-label={`Actions for ${source.sourceName}`}>⋯</IconButton>
      </DropdownMenu.Trigger>
      <DropdownMenu.Content>
        <DropdownMenu.Item onSelect={() => navigate(`/order-tracking-sources/edit/${source.id}`)}>
          Edit
        </DropdownMenu.Item>
        <DropdownMenu.Item color="red" onSelect={onDelete}>Delete</DropdownMenu.Item>
      </DropdownMenu.Content>
    </DropdownMenu.Root>
  );
}

interface ViewProps {
  sources: OrderTrackingSource[];
  selected: Set<number>;
  toggle(id: number): void;
  askDelete(source: OrderTrackingSource): void;
}

function SourcesTable({ sources, selected, toggle, askDelete }: ViewProps) {
  return (
    <Table.Root variant="surface">
      <Table.Header>
        <Table.Row>
          <Table.ColumnHeaderCell>Active</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Source Name</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>File Type</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>From Email</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Expected Attachment Count</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Expected Subject</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Attachment Name</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell aria-label="Actions" />
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {sources.length === 0 && (
          <Table.Row>
            <Table.Cell colSpan={8}>No results.</Table.Cell>
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
            <Table.RowHeaderCell>{source.sourceName}</Table.RowHeaderCell>
            <Table.Cell>{source.fileType}</Table.Cell>
            <Table.Cell>{source.fromEmail}</Table.Cell>
            <Table.Cell>{source.expectedAttachmentCount ?? ""}</Table.Cell>
            <Table.Cell>{source.subjectValue}</Table.Cell>
            <Table.Cell>{source.attachmentName}</Table.Cell>
            <Table.Cell>
              <ActionsMenu source={source} onDelete={() => askDelete(source)} />
            </Table.Cell>
          </Table.Row>
        ))}
      </Table.Body>
    </Table.Root>
  );
}

function SourceCards({ sources, selected, toggle, askDelete }: ViewProps) {
  if (sources.length === 0) return <Text as="p">No order tracking sources found.</Text>;
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
  const { view, chosen, setChosen, canChoose } = useListView(TABLET_MIN_WIDTH);
  const [sources, setSources] = useState<OrderTrackingSource[]>([]);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [deleting, setDeleting] = useState<OrderTrackingSource | null>(null);

  useEffect(() => {
    fetchSources().then(setSources).catch((error) =>
      console.error("Error fetching order tracking sources", error)
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
      const response = await deleteSource(deleting.id);
      if (!isSuccess(response)) {
        console.error("Error deleting order tracking source", response.status);
        return false;
      }
      setSources((current) => current.filter((source) => source.id !== deleting.id));
      return true;
    } catch (error) {
      console.error("Error deleting order tracking source", error);
      return false;
    }
  };

  const props = { sources, selected, toggle, askDelete: setDeleting };
  return (
    <Container size="4" p="4">
      <Flex justify="between" align="center" wrap="wrap" gap="3" mb="4">
        <Heading as="h1">Order Tracking Sources</Heading>
        <Flex gap="3" align="center">
          {canChoose && <ListViewToggle value={chosen} onChange={setChosen} />}
          <Button asChild>
            <Link href="/order-tracking-sources/edit/0">Add Source</Link>
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
