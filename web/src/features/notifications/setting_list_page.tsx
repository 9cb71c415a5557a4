import { Badge, Button, Card, Flex, Grid, Heading, Select, Text } from "@radix-ui/themes";
import { useId, useMemo, useState } from "react";
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
import { sourceTypeLabel } from "../../../../shared/catalog/display_names.ts";
import { type DataColumn, DataTable } from "../../components/data_table.tsx";
import { ListPage } from "../../components/list_page.tsx";
import { useResource } from "../../components/use_resource.ts";
import { loggedLoader } from "../../components/logged_loader.ts";
import { removeListedRow } from "../../components/remove_listed_row.ts";
import {
  deleteNotificationSetting,
  fetchNotificationSettings,
  type NotificationSetting,
} from "./api.ts";
import { displayName, lastSentText } from "./display.ts";

const ALL = "all";
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
    <Badge
      variant={style.variant}
      color={style.color}
      // White on the solid red falls under 4.5:1; the high-contrast red keeps the "destructive" look.
      highContrast={style.color === "red"}
      data-variant={style.variant}
    >
      {sourceTypeLabel(type)}
    </Badge>
  );
}

function EnabledBadge({ enabled }: { enabled: boolean }) {
  return <Badge color={enabled ? "green" : "gray"}>{enabled ? "Enabled" : "Disabled"}</Badge>;
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
  /** The values, or value and label pairs when the value is not in words. */
  options: readonly (string | { value: string; label: string })[];
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
          {options.map((option) => {
            const { value, label } = typeof option === "string"
              ? { value: option, label: option }
              : option;
            return <Select.Item key={value} value={value}>{label}</Select.Item>;
          })}
        </Select.Content>
      </Select.Root>
    </Flex>
  );
}

interface ViewProps {
  settings: readonly NotificationSetting[];
  askDelete(setting: NotificationSetting): void;
}

const EMPTY = "No notification settings found.";

const columns = (askDelete: (setting: NotificationSetting) => void): DataColumn<
  NotificationSetting
>[] => [
  // The setting's own name first: two settings about one source differ only by it.
  { key: "settingName", header: "Name", rowHeader: true, cell: (s) => s.name },
  { key: "type", header: "Source Type", cell: (s) => <TypeBadge type={s.sourceType} /> },
  { key: "name", header: "Source Name", cell: displayName },
  {
    key: "enabled",
    header: "Enabled",
    cell: (s) => <EnabledBadge enabled={s.notificationEnabled} />,
  },
  { key: "interval", header: "Interval", cell: intervalLabel },
  { key: "includes", header: "Includes", cell: (s) => <Includes setting={s} shown={2} /> },
  { key: "lastSent", header: "Last Sent", cell: (s) => lastSentText(s.lastNotificationSent) },
  {
    key: "actions",
    header: "Actions",
    cell: (s) => <Actions setting={s} onDelete={() => askDelete(s)} />,
  },
];

function SettingCards({ settings, askDelete }: ViewProps) {
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
  const list = useResource(
    ["notification-settings"],
    loggedLoader(fetchNotificationSettings, "Error fetching notification settings"),
  );
  // A failed load shows the empty list, as before the first answer.
  const settings = list.data ?? (list.error ? [] : undefined);
  const all = settings ?? [];
  const [sourceName, setSourceName] = useState(ALL);
  const [sourceType, setSourceType] = useState(ALL);
  const [interval, setIntervalFilter] = useState(ALL);

  const names = useMemo(
    () => [...new Set(all.map(displayName))].sort((a, b) => a.localeCompare(b)),
    [settings],
  );
  const shown = settings?.filter((setting) =>
    (sourceName === ALL || displayName(setting) === sourceName) &&
    (sourceType === ALL || setting.sourceType === sourceType) &&
    (interval === ALL || setting.notificationInterval === interval)
  );

  return (
    <ListPage
      title="Notification Settings"
      addHref="/notification-settings/edit/0"
      addLabel="Add Notification Setting"
      rows={shown}
      loadingLabel="Loading notification settings"
      emptyCards={EMPTY}
      above={
        <>
          <Grid columns={{ initial: "1", sm: "3" }} gap="3" mb="3">
            <Filter
              label="Source Name"
              value={sourceName}
              onChange={setSourceName}
              options={names}
            />
            <Filter
              label="Source Type"
              value={sourceType}
              onChange={setSourceType}
              options={SOURCE_TYPE_IDS.map((id) => ({
                value: sourceTypeName(id),
                label: sourceTypeLabel(sourceTypeName(id)),
              }))}
            />
            <Filter
              label="Interval"
              value={interval}
              onChange={setIntervalFilter}
              options={NOTIFICATION_INTERVALS}
            />
          </Grid>
          <Text as="p" size="2" color="gray" mb="3">
            Showing {shown?.length ?? 0} of {all.length} notification settings
          </Text>
        </>
      }
      table={(rows, { askDelete }) => (
        <DataTable
          rows={rows}
          columns={columns(askDelete)}
          rowKey={(setting) => setting.id}
          caption="Notification settings"
          empty={EMPTY}
        />
      )}
      cards={(rows, { askDelete }) => <SettingCards settings={rows} askDelete={askDelete} />}
      deletion={{
        nameOf: (setting) => setting.name,
        remove: removeListedRow(
          list,
          deleteNotificationSetting,
          "Error deleting notification setting",
        ),
      }}
    />
  );
}
