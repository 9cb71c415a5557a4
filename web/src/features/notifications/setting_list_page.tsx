import {
  Badge,
  Button,
  Card,
  Container,
  Flex,
  Grid,
  Heading,
  Select,
  Table,
  Text,
  VisuallyHidden,
} from "@radix-ui/themes";
import { useEffect, useId, useMemo, useState } from "react";
import { Link } from "wouter";
import {
  NOTIFICATION_INTERVALS,
  SOURCE_TYPE_IDS,
  type SourceTypeName,
  sourceTypeName,
} from "../../../../shared/contract/notifications.ts";
import {
  includesLabels,
  intervalLabel,
  splitLabels,
} from "../../../../shared/notifications/labels.ts";
import { DeleteDialog } from "../../components/delete_dialog.tsx";
import { ListViewToggle, useListView } from "../../components/list_view.tsx";
import { TABLET_MIN_WIDTH } from "../../components/use_min_width.ts";
import {
  deleteNotificationSetting,
  fetchNotificationSettings,
  type NotificationSetting,
} from "./api.ts";

const ALL = "all";
/** The name shown for a setting about every source of its type. */
export const ALL_SOURCES = "All sources";

/** Source type badge styles (spec part 2, section 2). */
const TYPE_BADGE: Record<
  SourceTypeName,
  { variant: "solid" | "soft" | "outline"; color?: "gray" | "red" }
> = {
  Inventory: { variant: "solid" },
  OrderSubmission: { variant: "soft", color: "gray" },
  OrderTracking: { variant: "outline" },
  OrderVendor: { variant: "solid", color: "red" },
};

function TypeBadge({ type }: { type: SourceTypeName }) {
  const style = TYPE_BADGE[type];
  return (
    <Badge variant={style.variant} color={style.color} data-variant={style.variant}>{type}</Badge>
  );
}

function EnabledBadge({ enabled }: { enabled: boolean }) {
  return <Badge color={enabled ? "green" : "gray"}>{enabled ? "Enabled" : "Disabled"}</Badge>;
}

const displayName = (setting: NotificationSetting) => setting.sourceName || ALL_SOURCES;

/** "Nov 23, 2026, 7:00 AM", or "Never". */
export function lastSentText(value: string | null): string {
  if (!value) return "Never";
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return "Never";
  return date.toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" });
}

function Includes({ setting, shown }: { setting: NotificationSetting; shown: number }) {
  const { shown: labels, more } = splitLabels(includesLabels(setting), shown);
  return (
    <Flex gap="1" wrap="wrap">
      {labels.map((label) => <Badge key={label} variant="soft">{label}</Badge>)}
      {more > 0 && <Badge variant="outline" color="gray">+{more} more</Badge>}
    </Flex>
  );
}

function Actions(
  { setting, onDelete }: { setting: NotificationSetting; onDelete(): void },
) {
  return (
    <Flex gap="2">
      <Button asChild size="1" variant="soft">
        <Link
          href={`/notification-settings/edit/${setting.id}`}
          aria-label={`Edit ${setting.name}`}
        >
          Edit
        </Link>
      </Button>
      <Button
        size="1"
        color="red"
        variant="soft"
        aria-label={`Delete ${setting.name}`}
        onClick={onDelete}
      >
        Delete
      </Button>
    </Flex>
  );
}

interface FilterProps {
  label: string;
  value: string;
  onChange(value: string): void;
  options: readonly string[];
}

function Filter({ label, value, onChange, options }: FilterProps) {
  const id = useId();
  return (
    <Flex direction="column" gap="1">
      <Text as="label" htmlFor={id} size="2" weight="medium">{label}</Text>
      <Select.Root value={value} onValueChange={onChange}>
        <Select.Trigger id={id} />
        <Select.Content>
          <Select.Item value={ALL}>All</Select.Item>
          {options.map((option) => <Select.Item key={option} value={option}>{option}</Select.Item>)}
        </Select.Content>
      </Select.Root>
    </Flex>
  );
}

interface ViewProps {
  settings: NotificationSetting[];
  askDelete(setting: NotificationSetting): void;
}

const EMPTY = "No notification settings found.";

function SettingsTable({ settings, askDelete }: ViewProps) {
  return (
    <Table.Root variant="surface">
      <VisuallyHidden asChild>
        <caption>Notification settings</caption>
      </VisuallyHidden>
      <Table.Header>
        <Table.Row>
          <Table.ColumnHeaderCell>Source Type</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Source Name</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Enabled</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Interval</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Includes</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Last Sent</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Actions</Table.ColumnHeaderCell>
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {settings.length === 0 && (
          <Table.Row>
            <Table.Cell colSpan={7}>{EMPTY}</Table.Cell>
          </Table.Row>
        )}
        {settings.map((setting) => (
          <Table.Row key={setting.id}>
            <Table.Cell>
              <TypeBadge type={setting.sourceType} />
            </Table.Cell>
            <Table.RowHeaderCell>{displayName(setting)}</Table.RowHeaderCell>
            <Table.Cell>
              <EnabledBadge enabled={setting.notificationEnabled} />
            </Table.Cell>
            <Table.Cell>{intervalLabel(setting)}</Table.Cell>
            <Table.Cell>
              <Includes setting={setting} shown={2} />
            </Table.Cell>
            <Table.Cell>{lastSentText(setting.lastNotificationSent)}</Table.Cell>
            <Table.Cell>
              <Actions setting={setting} onDelete={() => askDelete(setting)} />
            </Table.Cell>
          </Table.Row>
        ))}
      </Table.Body>
    </Table.Root>
  );
}

function SettingCards({ settings, askDelete }: ViewProps) {
  if (settings.length === 0) return <Text as="p">{EMPTY}</Text>;
  return (
    <Grid columns={{ initial: "1", sm: "2", lg: "3" }} gap="3">
      {settings.map((setting) => (
        <Card key={setting.id} asChild>
          <section aria-label={setting.name}>
            <Flex justify="between" align="start" gap="2" mb="2">
              <Heading as="h2" size="4">{setting.name}</Heading>
              <EnabledBadge enabled={setting.notificationEnabled} />
            </Flex>
            <Flex direction="column" gap="2">
              <Flex gap="2" align="center">
                <TypeBadge type={setting.sourceType} />
                <Text size="2">{displayName(setting)}</Text>
              </Flex>
              <Text size="2">Interval: {intervalLabel(setting)}</Text>
              <Includes setting={setting} shown={3} />
              <Text size="2">Last Sent: {lastSentText(setting.lastNotificationSent)}</Text>
              <Actions setting={setting} onDelete={() => askDelete(setting)} />
            </Flex>
          </section>
        </Card>
      ))}
    </Grid>
  );
}

/** /notification-settings: filters, the count line, table or cards, Add, Edit and Delete. */
export default function NotificationSettingListPage() {
  const { view, chosen, setChosen, canChoose } = useListView(TABLET_MIN_WIDTH);
  const [settings, setSettings] = useState<NotificationSetting[]>([]);
  const [deleting, setDeleting] = useState<NotificationSetting | null>(null);
  const [sourceName, setSourceName] = useState(ALL);
  const [sourceType, setSourceType] = useState(ALL);
  const [interval, setIntervalFilter] = useState(ALL);

  useEffect(() => {
    fetchNotificationSettings().then(setSettings).catch((error) =>
      console.error("Error fetching notification settings", error)
    );
  }, []);

  const names = useMemo(
    () => [...new Set(settings.map(displayName))].sort((a, b) => a.localeCompare(b)),
    [settings],
  );
  const shown = settings.filter((setting) =>
    (sourceName === ALL || displayName(setting) === sourceName) &&
    (sourceType === ALL || setting.sourceType === sourceType) &&
    (interval === ALL || setting.notificationInterval === interval)
  );

  const confirmDelete = async () => {
    if (!deleting) return false;
    try {
      await deleteNotificationSetting(deleting.id);
      setSettings((current) => current.filter((setting) => setting.id !== deleting.id));
      return true;
    } catch (error) {
      console.error("Error deleting notification setting", error);
      return false;
    }
  };

  const props = { settings: shown, askDelete: setDeleting };
  return (
    <Container size="4" p="4">
      <Flex justify="between" align="center" wrap="wrap" gap="3" mb="4">
        <Heading as="h1">Notification Settings</Heading>
        <Flex gap="3" align="center">
          {canChoose && <ListViewToggle value={chosen} onChange={setChosen} />}
          <Button asChild>
            <Link href="/notification-settings/edit/0">Add Notification Setting</Link>
          </Button>
        </Flex>
      </Flex>
      <Grid columns={{ initial: "1", sm: "3" }} gap="3" mb="3">
        <Filter label="Source Name" value={sourceName} onChange={setSourceName} options={names} />
        <Filter
          label="Source Type"
          value={sourceType}
          onChange={setSourceType}
          options={SOURCE_TYPE_IDS.map(sourceTypeName)}
        />
        <Filter
          label="Interval"
          value={interval}
          onChange={setIntervalFilter}
          options={NOTIFICATION_INTERVALS}
        />
      </Grid>
      <Text as="p" size="2" color="gray" mb="3">
        Showing {shown.length} of {settings.length} notification settings
      </Text>
      {view === "table" ? <SettingsTable {...props} /> : <SettingCards {...props} />}
      <DeleteDialog
        name={deleting?.name ?? null}
        onCancel={() => setDeleting(null)}
        onConfirm={confirmDelete}
      />
    </Container>
  );
}
