import {
  Button,
  Card,
  Checkbox,
  Container,
  DropdownMenu,
  Flex,
  Grid,
  Heading,
  Switch,
  Table,
  Text,
  VisuallyHidden,
} from "@radix-ui/themes";
import { useEffect, useState } from "react";
import { toast } from "sonner";
import { Link, useLocation } from "wouter";
import {
  deleteEmailSource,
  type EmailSource,
  fetchEmailSources,
  pollEmailSource,
  type PollResult,
} from "./api.ts";
import { longDateTime } from "../../components/format_date.ts";
import { Loading } from "../../components/loading.tsx";
import { ListViewToggle, useListView } from "../../components/list_view.tsx";
import { TABLET_MIN_WIDTH } from "../../components/use_min_width.ts";
import { DeleteDialog } from "../../components/delete_dialog.tsx";
import { SendTestEmailDialog } from "./send_test_email_dialog.tsx";

export const NO_SOURCES_CARDS = "No email sources found.";
export const NO_SOURCES_TABLE = "No results.";

interface Actions {
  onDelete: (source: EmailSource) => void;
  onTest: (source: EmailSource) => void;
  onCheck: (source: EmailSource) => void;
  /** Local only: the spec's active switches select, they do not save. */
  active: Record<number, boolean>;
  onActive: (source: EmailSource, on: boolean) => void;
  checking: number | null;
}

const yesNo = (on: boolean) => (on ? "Yes" : "No");

/** What a user sees of the mailbox's polling: last success, or the last error. */
function PollStatus({ source }: { source: EmailSource }) {
  return (
    <Flex direction="column" gap="1">
      <Text size="1" color="gray">
        Last checked:{" "}
        {source.lastSuccessfulPoll ? longDateTime(source.lastSuccessfulPoll) : "Never"}
      </Text>
      {source.lastPollError && <Text size="1" color="red">{source.lastPollError}</Text>}
    </Flex>
  );
}

function ActionsMenu({ source, actions }: { source: EmailSource; actions: Actions }) {
  const [, navigate] = useLocation();
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger>
        <Button size="1" variant="soft" aria-label={`Actions for ${source.username}`}>
          Actions
          <DropdownMenu.TriggerIcon />
        </Button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Content>
        <DropdownMenu.Item onSelect={() => navigate(`/email-sources/edit/${source.id}`)}>
          Edit
        </DropdownMenu.Item>
        <DropdownMenu.Item onSelect={() => actions.onTest(source)}>
          Send Test Email
        </DropdownMenu.Item>
        <DropdownMenu.Item onSelect={() => actions.onCheck(source)}>Check Now</DropdownMenu.Item>
        <DropdownMenu.Separator />
        <DropdownMenu.Item color="red" onSelect={() => actions.onDelete(source)}>
          Delete
        </DropdownMenu.Item>
      </DropdownMenu.Content>
    </DropdownMenu.Root>
  );
}

function SourcesTable({ sources, actions }: { sources: EmailSource[]; actions: Actions }) {
  return (
    <Table.Root variant="surface">
      <VisuallyHidden asChild>
        <caption>Email sources</caption>
      </VisuallyHidden>
      <Table.Header>
        <Table.Row>
          <Table.ColumnHeaderCell>Active</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Username</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Email Address</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Incoming Server</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Outgoing Server</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Use SSL</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Mailbox</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>
            <VisuallyHidden>Actions</VisuallyHidden>
          </Table.ColumnHeaderCell>
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {sources.length === 0 && (
          <Table.Row>
            <Table.Cell colSpan={8}>{NO_SOURCES_TABLE}</Table.Cell>
          </Table.Row>
        )}
        {sources.map((source) => (
          <Table.Row key={source.id}>
            <Table.Cell>
              <Checkbox
                aria-label={`Active ${source.username}`}
                checked={actions.active[source.id] ?? source.activeStatus}
                onCheckedChange={(on) => actions.onActive(source, on === true)}
              />
            </Table.Cell>
            <Table.RowHeaderCell>{source.username}</Table.RowHeaderCell>
            <Table.Cell>{source.email}</Table.Cell>
            <Table.Cell>{source.incomingServer}</Table.Cell>
            <Table.Cell>{source.outgoingServer}</Table.Cell>
            <Table.Cell>
              <Checkbox aria-label={`Use SSL ${source.username}`} checked={source.ssl} disabled />
            </Table.Cell>
            <Table.Cell>
              <PollStatus source={source} />
            </Table.Cell>
            <Table.Cell>
              <ActionsMenu source={source} actions={actions} />
            </Table.Cell>
          </Table.Row>
        ))}
      </Table.Body>
    </Table.Root>
  );
}

function SourceCards({ sources, actions }: { sources: EmailSource[]; actions: Actions }) {
  if (sources.length === 0) return <Text as="p" color="gray">{NO_SOURCES_CARDS}</Text>;
  return (
    <Grid columns={{ initial: "1", sm: "2", lg: "3" }} gap="3">
      {sources.map((source) => (
        <Card key={source.id} asChild>
          <article aria-label={source.username}>
            <Flex direction="column" gap="2">
              <Flex justify="between" align="center" gap="2">
                <Heading as="h2" size="4">{source.username}</Heading>
                <Text as="label" size="2">
                  <Flex gap="2" align="center">
                    <Switch
                      checked={actions.active[source.id] ?? source.activeStatus}
                      onCheckedChange={(on) => actions.onActive(source, on)}
                    />
                    Active
                  </Flex>
                </Text>
              </Flex>
              <Text size="2">Server: {source.incomingServer || "—"}</Text>
              <Text size="2">Port: {source.incomingPort ?? "—"}</Text>
              <Text size="2">Email: {source.email}</Text>
              <Text size="2">SSL: {yesNo(source.ssl)}</Text>
              <PollStatus source={source} />
              <Flex gap="2" wrap="wrap">
                <Button asChild size="1" variant="soft">
                  <Link href={`/email-sources/edit/${source.id}`}>Edit</Link>
                </Button>
                <Button size="1" variant="soft" onClick={() => actions.onTest(source)}>
                  Send Test Email
                </Button>
                <Button
                  size="1"
                  variant="soft"
                  loading={actions.checking === source.id}
                  onClick={() => actions.onCheck(source)}
                >
                  Check Now
                </Button>
                <Button
                  size="1"
                  variant="soft"
                  color="red"
                  onClick={() => actions.onDelete(source)}
                >
                  Delete
                </Button>
              </Flex>
            </Flex>
          </article>
        </Card>
      ))}
    </Grid>
  );
}

/** What "Check now" tells the user. */
export function pollMessage(result: PollResult): string {
  if (result.error) return `Check failed: ${result.error}`;
  if (!result.polled) return "This mailbox is being checked right now; try again in a moment.";
  return `${result.seen} new message(s), ${result.matched} matched, ${result.runs} import run(s).`;
}

/**
 * /email-sources: a table (or cards, toggled from 768 px; cards only below), delete with
 * confirmation, the test e-mail dialog and "Check now" (polls the mailbox at once).
 */
export default function EmailSourceListPage() {
  const { view, chosen, setChosen, canChoose } = useListView(TABLET_MIN_WIDTH);
  const [sources, setSources] = useState<EmailSource[] | null>(null);
  const [toDelete, setToDelete] = useState<EmailSource | null>(null);
  const [toTest, setToTest] = useState<EmailSource | null>(null);
  const [active, setActive] = useState<Record<number, boolean>>({});
  const [checking, setChecking] = useState<number | null>(null);

  const load = async () => {
    try {
      setSources(await fetchEmailSources());
    } catch (error) {
      console.error("Error fetching email sources", error);
      setSources((old) => old ?? []);
    }
  };
  useEffect(() => {
    load();
  }, []);

  const confirmDelete = async (): Promise<boolean> => {
    if (!toDelete) return false;
    try {
      await deleteEmailSource(toDelete.id);
    } catch (error) {
      console.error("Error deleting email source", error);
      return false;
    }
    setSources((old) => old?.filter((row) => row.id !== toDelete.id) ?? null);
    return true;
  };

  const check = async (source: EmailSource) => {
    setChecking(source.id);
    try {
      const result = await pollEmailSource(source.id);
      if (result.error) toast.error(pollMessage(result));
      else toast.success(pollMessage(result));
      await load();
    } catch (error) {
      toast.error(error instanceof Error ? error.message : "The check failed.");
    } finally {
      setChecking(null);
    }
  };

  const actions: Actions = {
    onDelete: setToDelete,
    onTest: setToTest,
    onCheck: check,
    active,
    onActive: (source, on) => setActive((old) => ({ ...old, [source.id]: on })),
    checking,
  };
  return (
    <Container size="4" p="4">
      <Flex justify="between" align="center" gap="3" mb="4" wrap="wrap">
        <Heading as="h1">Email Sources</Heading>
        <Flex gap="3" align="center" wrap="wrap">
          {canChoose && <ListViewToggle value={chosen} onChange={setChosen} />}
          <Button asChild variant="soft">
            <Link href="/import-runs">Import Runs</Link>
          </Button>
          <Button asChild>
            <Link href="/email-sources/edit/0">Add Source</Link>
          </Button>
        </Flex>
      </Flex>
      {sources === null
        ? <Loading label="Loading email sources" />
        : view === "table"
        ? <SourcesTable sources={sources} actions={actions} />
        : <SourceCards sources={sources} actions={actions} />}
      <DeleteDialog
        name={toDelete?.username ?? null}
        onCancel={() => setToDelete(null)}
        onConfirm={confirmDelete}
      />
      <SendTestEmailDialog source={toTest} onClose={() => setToTest(null)} />
    </Container>
  );
}
