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
import { isSuccess } from "../../api/http.ts";
import { DeleteDialog } from "../../components/delete_dialog.tsx";
import { ListViewToggle, useListView } from "../../components/list_view.tsx";
import { TABLET_MIN_WIDTH } from "../../components/use_min_width.ts";
import { deleteVendor, fetchVendors, type OrderVendorSourceListEntry } from "./api.ts";

type Vendor = OrderVendorSourceListEntry;

function YesNo({ on }: { on: boolean }) {
  return <Badge color={on ? "green" : "gray"}>{on ? "Yes" : "No"}</Badge>;
}

function ActionsMenu({ vendor, onDelete }: { vendor: Vendor; onDelete(): void }) {
  const [, navigate] = useLocation();
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger>
        <IconButton variant="ghost" aria-label={`Actions for ${vendor.vendorNameFromFile}`}>
          ⋯
        </IconButton>
      </DropdownMenu.Trigger>
      <DropdownMenu.Content>
        <DropdownMenu.Item onSelect={() => navigate(`/order-submission/vendor/edit/${vendor.id}`)}>
          Edit
        </DropdownMenu.Item>
        <DropdownMenu.Item color="red" onSelect={onDelete}>Delete</DropdownMenu.Item>
      </DropdownMenu.Content>
    </DropdownMenu.Root>
  );
}

interface ViewProps {
  vendors: Vendor[];
  selected: Set<number>;
  toggle(id: number): void;
  askDelete(vendor: Vendor): void;
}

function VendorsTable({ vendors, selected, toggle, askDelete }: ViewProps) {
  return (
    <Table.Root variant="surface">
      <Table.Header>
        <Table.Row>
          <Table.ColumnHeaderCell>Active</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Vendor Name</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Emails to</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Trimmed Details</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Non Daily Submission</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Wants PDF</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Wants all data</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell aria-label="Actions" />
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {vendors.length === 0 && (
          <Table.Row>
            <Table.Cell colSpan={8}>No order vendor sources found.</Table.Cell>
          </Table.Row>
        )}
        {vendors.map((vendor) => (
          <Table.Row key={vendor.id}>
            <Table.Cell>
              {/* Row selection only: the spec's checkbox changes nothing on the server. */}
              <Checkbox
                aria-label={`Select ${vendor.vendorNameFromFile}`}
                checked={selected.has(vendor.id)}
                onCheckedChange={() => toggle(vendor.id)}
              />
            </Table.Cell>
            <Table.RowHeaderCell>{vendor.vendorNameFromFile}</Table.RowHeaderCell>
            <Table.Cell>{vendor.submitEmails}</Table.Cell>
            <Table.Cell>
              <YesNo on={vendor.vendorWantsTrimmedItemDescription} />
            </Table.Cell>
            <Table.Cell>
              <YesNo on={vendor.vendorWantsNonDailySubmission} />
            </Table.Cell>
            <Table.Cell>
              <YesNo on={vendor.vendorWantsPDF} />
            </Table.Cell>
            <Table.Cell>
              <YesNo on={vendor.vendorWantsAllData} />
            </Table.Cell>
            <Table.Cell>
              <ActionsMenu vendor={vendor} onDelete={() => askDelete(vendor)} />
            </Table.Cell>
          </Table.Row>
        ))}
      </Table.Body>
    </Table.Root>
  );
}

function VendorCards({ vendors, selected, toggle, askDelete }: ViewProps) {
  if (vendors.length === 0) return <Text as="p">No order vendor sources found.</Text>;
  return (
    <Grid columns={{ initial: "1", sm: "2", lg: "3" }} gap="3">
      {vendors.map((vendor) => (
        <Card key={vendor.id} asChild>
          <section aria-label={vendor.vendorNameFromFile}>
            <Flex justify="between" align="center" mb="2">
              <Heading as="h2" size="4">{vendor.vendorNameFromFile}</Heading>
              <ActionsMenu vendor={vendor} onDelete={() => askDelete(vendor)} />
            </Flex>
            <Flex direction="column" gap="1">
              <Text as="label" size="2">
                <Flex gap="2" align="center">
                  <Switch
                    checked={selected.has(vendor.id)}
                    onCheckedChange={() => toggle(vendor.id)}
                  />
                  Active
                </Flex>
              </Text>
              <Text size="2">Emails to: {vendor.submitEmails}</Text>
              <Text size="2">
                Trimmed Details: <YesNo on={vendor.vendorWantsTrimmedItemDescription} />
              </Text>
              <Text size="2">
                Non Daily Submission: <YesNo on={vendor.vendorWantsNonDailySubmission} />
              </Text>
              <Text size="2">
                Wants PDF: <YesNo on={vendor.vendorWantsPDF} />
              </Text>
              <Text size="2">
                Wants all data: <YesNo on={vendor.vendorWantsAllData} />
              </Text>
            </Flex>
          </section>
        </Card>
      ))}
    </Grid>
  );
}

/** /order-submission/vendor: the vendors as a table or cards, Add, Edit and Delete. */
export default function VendorListPage() {
  const { view, chosen, setChosen, canChoose } = useListView(TABLET_MIN_WIDTH);
  const [vendors, setVendors] = useState<Vendor[]>([]);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [deleting, setDeleting] = useState<Vendor | null>(null);

  useEffect(() => {
    fetchVendors().then(setVendors).catch((error) =>
      console.error("Error fetching order vendor sources", error)
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
      const response = await deleteVendor(deleting.id);
      if (!isSuccess(response)) {
        console.error("Error deleting order vendor source", response.status);
        return false;
      }
      setVendors((current) => current.filter((vendor) => vendor.id !== deleting.id));
      return true;
    } catch (error) {
      console.error("Error deleting order vendor source", error);
      return false;
    }
  };

  const props = { vendors, selected, toggle, askDelete: setDeleting };
  return (
    <Container size="4" p="4">
      <Flex justify="between" align="center" wrap="wrap" gap="3" mb="4">
        <Heading as="h1">Order Submission Vendor Sources</Heading>
        <Flex gap="3" align="center">
          {canChoose && <ListViewToggle value={chosen} onChange={setChosen} />}
          <Button asChild>
            <Link href="/order-submission/vendor/edit/0">Add Source</Link>
          </Button>
        </Flex>
      </Flex>
      {view === "table" ? <VendorsTable {...props} /> : <VendorCards {...props} />}
      <DeleteDialog
        name={deleting?.vendorNameFromFile ?? null}
        onCancel={() => setDeleting(null)}
        onConfirm={confirmDelete}
      />
    </Container>
  );
}
