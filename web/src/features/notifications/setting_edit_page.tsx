import { sourceTypeLabel } from "../../../../shared/catalog/display_names.ts";
import { zodResolver } from "@hookform/resolvers/zod";
import {
  Button,
  Callout,
  Container,
  DataList,
  Flex,
  Grid,
  Heading,
  Link as RadixLink,
  Text,
} from "@radix-ui/themes";
import { useEffect, useRef, useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { toast } from "sonner";
import type { z } from "zod";
import { useLocation, useParams } from "wouter";
import {
  NEW_NOTIFICATION_FORM,
  NOTIFICATION_INTERVALS,
  NOTIFICATION_MESSAGES,
  type NotificationSettingForm,
  notificationSettingForm,
  SOURCE_TYPE_IDS,
  type SourceTypeId,
  sourceTypeName,
  WEBHOOK_MESSAGES,
  WEBHOOK_PRESET_LABELS,
  WEBHOOK_PRESETS,
  type WebhookPreset,
  WEEKDAY_NAMES,
} from "../../../../shared/contract/notifications.ts";
import { messageOr } from "../../api/call.ts";
import { SelectField, type SelectOption } from "../../components/form_fields.tsx";
import { SelectControl, SwitchControl, textOptions } from "../../components/form_controls.tsx";
import { TextField } from "../../components/text_field.tsx";
import { FormSection } from "../../components/form_section.tsx";
import { useCreatedRoute } from "../../components/use_created_route.ts";
import { useResource } from "../../components/use_resource.ts";
import { useSaveState } from "../../components/use_save_state.ts";
import { SaveButton } from "../../components/save_button.tsx";
import {
  type CronValidationResult,
  type EmailInfo,
  fetchEmailInfo,
  fetchNotificationSetting,
  fetchNotificationSources,
  type NotificationSetting,
  saveNotificationSetting,
  sendTestNotification,
  sendWebhookTest,
  validateCronExpression,
} from "./api.ts";
import { ALL_SOURCES } from "./display.ts";

/** Pause after the last keystroke before the cron expression is checked (spec section 9). */
export const CRON_CHECK_DELAY_MS = 500;
const BACK_TO_LIST_MS = 1000;
const TEST_SENT_MS = 5000;
const TEST_UNSAVED_MS = 3000;
const ALL = "all";

type FormInput = z.input<typeof notificationSettingForm>;

type TestState =
  | { kind: "idle" }
  | { kind: "sending" }
  | { kind: "sent"; message: string }
  | { kind: "error"; message: string; autoClear: boolean };

type CronState =
  | { kind: "none" }
  | { kind: "checked"; result: CronValidationResult }
  | { kind: "failed" };

/** The form's values of a stored setting. */
function settingToForm(setting: NotificationSetting): NotificationSettingForm {
  return {
    name: setting.name,
    sourceTypeId: setting.sourceTypeId,
    sourceId: setting.sourceId,
    sourceName: setting.sourceName,
    notificationEnabled: setting.notificationEnabled,
    notificationInterval: setting.notificationInterval,
    notificationDayOfWeek: setting.notificationDayOfWeek,
    cronExpression: setting.cronExpression,
    timeZone: setting.timeZone,
    includeStatusChanges: setting.includeStatusChanges,
    includeQuantityChanges: setting.includeQuantityChanges,
    includeZeroQuantityAlerts: setting.includeZeroQuantityAlerts,
    includeDailyBreakdown: setting.includeDailyBreakdown,
    includeItemDetails: setting.includeItemDetails,
    includeErrorAlerts: setting.includeErrorAlerts,
    includeSuccessAlerts: setting.includeSuccessAlerts,
    overrideEmailRecipients: setting.overrideEmailRecipients,
    emailSubjectPrefix: setting.emailSubjectPrefix,
    consolidatedEmail: setting.consolidatedEmail,
    webhookPreset: setting.webhookPreset,
    webhookUrl: setting.webhookUrl,
    webhookSecret: setting.webhookSecret,
  };
}

/** Radix's Select has no empty value: "none" stands for "" (no webhook). */
const NO_WEBHOOK = "none";
const WEBHOOK_OPTIONS: SelectOption[] = WEBHOOK_PRESETS.map((preset) => ({
  value: preset || NO_WEBHOOK,
  label: WEBHOOK_PRESET_LABELS[preset],
}));

type WebhookTestState =
  | { kind: "idle" }
  | { kind: "sending" }
  | { kind: "done"; ok: boolean; message: string };

const CONTENT_SWITCHES = [
  ["includeStatusChanges", "Include Status Changes"],
  ["includeQuantityChanges", "Include Quantity Changes"],
  ["includeZeroQuantityAlerts", "Include Zero Quantity Alerts"],
  ["includeDailyBreakdown", "Include Daily Breakdown"],
  ["includeItemDetails", "Include Item Details"],
  ["includeErrorAlerts", "Include Error Alerts"],
  ["includeSuccessAlerts", "Include Success Alerts"],
] as const;

function EmailConfigurationCard({ info }: { info: EmailInfo | null }) {
  const list = (addresses: string[] | undefined) =>
    addresses && addresses.length > 0 ? addresses.join(", ") : "None";
  return (
    <FormSection title="Email Configuration">
      {!info ? <Text size="2" color="gray">Loading...</Text> : (
        <Flex direction="column" gap="3">
          <DataList.Root size="2">
            <DataList.Item>
              <DataList.Label>From</DataList.Label>
              <DataList.Value>{info.fromEmail || "Not configured"}</DataList.Value>
            </DataList.Item>
            <DataList.Item>
              <DataList.Label>Inventory recipients</DataList.Label>
              <DataList.Value>{list(info.recipients.inventory)}</DataList.Value>
            </DataList.Item>
            <DataList.Item>
              <DataList.Label>Submission recipients</DataList.Label>
              <DataList.Value>{list(info.recipients.submission)}</DataList.Value>
            </DataList.Item>
            <DataList.Item>
              <DataList.Label>Order recipients</DataList.Label>
              <DataList.Value>{list(info.recipients.order)}</DataList.Value>
            </DataList.Item>
          </DataList.Root>
          {info.note && <Text size="2" color="gray">{info.note}</Text>}
        </Flex>
      )}
    </FormSection>
  );
}

/** /notification-settings/edit/{settingId}: create (0) or edit a notification setting. */
export default function NotificationSettingEditPage() {
  const params = useParams<{ settingId: string }>();
  const [, navigate] = useLocation();
  const [settingId, setSettingId] = useState(() => Number(params.settingId) || 0);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [test, setTest] = useState<TestState>({ kind: "idle" });
  // What the last test sent: it stays until dismissed or replaced by the next test (the button
  // goes back to idle after 5 s as the spec says; the text is read at the person's pace).
  const [sentNote, setSentNote] = useState<string | null>(null);
  const [cron, setCron] = useState<CronState>({ kind: "none" });
  const [webhookTest, setWebhookTest] = useState<WebhookTestState>({ kind: "idle" });
  const { state: saveState, run } = useSaveState(3000);
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);
  useEffect(() => () => timers.current.forEach(clearTimeout), []);
  const later = (fn: () => void, ms: number) => {
    timers.current.push(setTimeout(fn, ms));
  };

  const { register, handleSubmit, control, reset, watch, setValue, formState: { errors } } =
    useForm<FormInput, unknown, NotificationSettingForm>({
      resolver: zodResolver(notificationSettingForm),
      defaultValues: NEW_NOTIFICATION_FORM,
    });

  const emailInfo = useResource(
    ["notification-email-info"],
    (signal) =>
      fetchEmailInfo(signal).catch((error) => {
        console.error("Error fetching e-mail info", error);
        throw error;
      }),
  );
  // The live sources of the chosen type (any flag may list them: docs/notifications.md).
  const sourceTypeId = watch("sourceTypeId");
  const typeSources = useResource(
    sourceTypeId ? ["notification-sources", sourceTypeId] : null,
    (signal) =>
      fetchNotificationSources(sourceTypeId, signal).then(
        (sources): SelectOption[] =>
          sources.map((source) => ({ value: String(source.id), label: source.sourceName })),
        (error) => {
          console.error("Error fetching the sources of the chosen type", error);
          throw error;
        },
      ),
  );
  const { loadId: routeId, showCreated } = useCreatedRoute(
    params.settingId,
    (id) => `/notification-settings/edit/${id}`,
  );
  const setting = useResource(
    routeId === 0 ? null : ["notification-setting", routeId],
    async (signal) => {
      try {
        const loaded = await fetchNotificationSetting(routeId, signal);
        reset(settingToForm(loaded));
        return loaded;
      } catch (error) {
        if (!signal.aborted) console.error(error);
        throw error;
      }
    },
  );
  const loaded = !setting.loading;
  const loadError = setting.error ? NOTIFICATION_MESSAGES.loadFailed : null;

  const interval = watch("notificationInterval");
  const cronExpression = watch("cronExpression");
  const timeZone = watch("timeZone");
  const sourceId = watch("sourceId") as number | null;
  const sourceName = watch("sourceName");
  const webhookPreset = watch("webhookPreset") as WebhookPreset;

  // Custom: the server checks the expression once typing pauses; empty clears the result.
  useEffect(() => {
    if (interval !== "Custom" || cronExpression.trim() === "") {
      setCron({ kind: "none" });
      return;
    }
    const controller = new AbortController();
    const cancelled = () => controller.signal.aborted;
    const timer = setTimeout(() => {
      validateCronExpression(cronExpression.trim(), timeZone.trim(), controller.signal)
        .then((result) => !cancelled() && setCron({ kind: "checked", result }))
        .catch((error) => {
          if (cancelled()) return;
          console.error(error);
          setCron({ kind: "failed" });
        });
    }, CRON_CHECK_DELAY_MS);
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [interval, cronExpression, timeZone]);

  const sourceOptions: SelectOption[] = [{ value: ALL, label: ALL_SOURCES }];
  sourceOptions.push(...(typeSources.data ?? []));
  if (sourceId != null && !sourceOptions.some((option) => option.value === String(sourceId))) {
    sourceOptions.push({ value: String(sourceId), label: sourceName || `Source ${sourceId}` });
  }

  const onSubmit = async (values: NotificationSettingForm) => {
    setSaveError(null);
    let failure: string = NOTIFICATION_MESSAGES.saveFailed;
    const ok = await run(async () => {
      try {
        const saved = await saveNotificationSetting(settingId, {
          ...values,
          id: settingId,
          sourceName: values.sourceId == null ? "" : values.sourceName,
          notificationDayOfWeek: values.notificationDayOfWeek || null,
        });
        setSettingId(saved.id);
        showCreated(saved.id);
      } catch (error) {
        console.error(error);
        failure = messageOr(error, failure);
        throw error;
      }
    });
    if (ok) {
      toast.success("Notification setting saved");
      later(() => navigate("/notification-settings"), BACK_TO_LIST_MS);
    } else {
      setSaveError(failure);
      toast.error(failure);
    }
  };

  const onTest = async () => {
    if (settingId === 0) {
      setSentNote(null);
      setTest({ kind: "error", message: NOTIFICATION_MESSAGES.saveFirst, autoClear: true });
      later(
        () =>
          setTest((current) =>
            current.kind === "error" && current.autoClear ? { kind: "idle" } : current
          ),
        TEST_UNSAVED_MS,
      );
      return;
    }
    setTest({ kind: "sending" });
    setSentNote(null);
    try {
      const result = await sendTestNotification(settingId);
      const message = result.details || result.message || NOTIFICATION_MESSAGES.testSent;
      setTest({ kind: "sent", message });
      setSentNote(message);
      later(
        () => setTest((current) => current.kind === "sent" ? { kind: "idle" } : current),
        TEST_SENT_MS,
      );
    } catch (error) {
      console.error(error);
      const message = messageOr(error, NOTIFICATION_MESSAGES.testFailed);
      setTest({ kind: "error", message, autoClear: false });
    }
  };

  const onWebhookTest = async () => {
    if (settingId === 0) {
      setWebhookTest({ kind: "done", ok: false, message: NOTIFICATION_MESSAGES.saveFirst });
      return;
    }
    setWebhookTest({ kind: "sending" });
    try {
      const result = await sendWebhookTest(settingId);
      setWebhookTest({ kind: "done", ok: result.success, message: result.message });
    } catch (error) {
      console.error(error);
      setWebhookTest({
        kind: "done",
        ok: false,
        message: messageOr(error, WEBHOOK_MESSAGES.testFailed),
      });
    }
  };

  const typeOptions = SOURCE_TYPE_IDS.map((id) => ({
    value: String(id),
    label: sourceTypeLabel(sourceTypeName(id)),
  }));
  const dayOptions = WEEKDAY_NAMES.map((name, index) => ({ value: String(index), label: name }));
  const testText = test.kind === "sending"
    ? "Sending..."
    : test.kind === "sent"
    ? "Sent!"
    : "Test Notification";

  return (
    <Container size="3" p="4">
      <Heading as="h1" mb="4">
        {settingId === 0 ? "Add Notification Setting" : "Edit Notification Setting"}
      </Heading>
      {loadError && (
        <Callout.Root color="red" role="alert" mb="3">
          <Callout.Text>{loadError}</Callout.Text>
        </Callout.Root>
      )}
      {!loaded && <Text as="p">Loading...</Text>}
      <form noValidate onSubmit={handleSubmit(onSubmit)} hidden={!loaded}>
        <Flex direction="column" gap="4">
          <FormSection title="Basic Settings">
            <Grid columns={{ initial: "1", sm: "2" }} gap="3">
              <TextField
                label="Notification Name"
                error={errors.name?.message}
                {...register("name")}
              />
              <Controller
                control={control}
                name="sourceTypeId"
                render={({ field }) => (
                  <SelectField
                    label="Source Type"
                    value={field.value ? String(field.value) : ""}
                    onChange={(value) => {
                      field.onChange(Number(value) as SourceTypeId);
                      setValue("sourceId", null);
                      setValue("sourceName", "");
                    }}
                    options={typeOptions}
                    placeholder="Select a source type"
                    error={errors.sourceTypeId?.message}
                  />
                )}
              />
              <SelectField
                label="Source Name"
                value={sourceId == null ? ALL : String(sourceId)}
                onChange={(value) => {
                  const option = sourceOptions.find((item) => item.value === value);
                  setValue("sourceId", value === ALL ? null : Number(value));
                  setValue("sourceName", value === ALL ? "" : option?.label ?? "");
                }}
                options={sourceOptions}
              />
              <Flex align="center">
                <SwitchControl
                  control={control}
                  name="notificationEnabled"
                  label="Notification Enabled"
                />
              </Flex>
            </Grid>
          </FormSection>

          <FormSection title="Schedule Settings">
            <Grid columns={{ initial: "1", sm: "2" }} gap="3">
              <SelectControl
                control={control}
                name="notificationInterval"
                label="Notification Interval"
                options={textOptions(NOTIFICATION_INTERVALS)}
                placeholder="Select an interval"
              />
              {interval === "Weekly" && (
                <Controller
                  control={control}
                  name="notificationDayOfWeek"
                  render={({ field }) => (
                    <SelectField
                      label="Day of Week"
                      value={String(field.value ?? 0)}
                      onChange={(value) => field.onChange(Number(value) || null)}
                      options={dayOptions}
                    />
                  )}
                />
              )}
              {interval === "Custom" && (
                <Flex direction="column" gap="1">
                  <TextField
                    label="Cron Expression"
                    placeholder="0 7 * * 1-5"
                    error={errors.cronExpression?.message}
                    {...register("cronExpression")}
                  />
                  {cron.kind === "checked" && (
                    <Text
                      size="2"
                      color={cron.result.isValid ? "green" : "red"}
                      data-testid="cron-result"
                    >
                      {
                        // The server's message already names the next run and its time zone.
                        cron.result.message
                      }
                    </Text>
                  )}
                  {cron.kind === "failed" && (
                    <Text size="2" color="red" data-testid="cron-result">
                      {NOTIFICATION_MESSAGES.cronCheckFailed}
                    </Text>
                  )}
                </Flex>
              )}
              <TextField
                label="Time Zone"
                placeholder="Server's time zone"
                error={errors.timeZone?.message}
                {...register("timeZone")}
              />
            </Grid>
          </FormSection>

          <FormSection title="Content Settings">
            <Grid columns={{ initial: "1", sm: "2" }} gap="3">
              {CONTENT_SWITCHES.map(([name, label]) => (
                <SwitchControl key={name} control={control} name={name} label={label} />
              ))}
            </Grid>
          </FormSection>

          <FormSection title="Email Settings">
            <Grid columns={{ initial: "1", sm: "2" }} gap="3">
              <TextField
                label="Override Email Recipients"
                placeholder="a@example.com, b@example.com"
                error={errors.overrideEmailRecipients?.message}
                {...register("overrideEmailRecipients")}
              />
              <TextField
                label="Email Subject Prefix"
                error={errors.emailSubjectPrefix?.message}
                {...register("emailSubjectPrefix")}
              />
              <SwitchControl
                control={control}
                name="consolidatedEmail"
                label="Consolidated Email"
              />
            </Grid>
          </FormSection>

          <FormSection title="Webhook">
            <Flex direction="column" gap="3">
              <Text as="p" size="2" color="gray">
                Besides e-mail, the summaries (and alerts about failing sources) can be posted to a
                chat channel or another system.
              </Text>
              <Grid columns={{ initial: "1", sm: "2" }} gap="3">
                <Controller
                  control={control}
                  name="webhookPreset"
                  render={({ field }) => (
                    <SelectField
                      label="Webhook Format"
                      value={field.value || NO_WEBHOOK}
                      onChange={(value) => field.onChange(value === NO_WEBHOOK ? "" : value)}
                      options={WEBHOOK_OPTIONS}
                    />
                  )}
                />
              </Grid>
              {webhookPreset !== "" && (
                <Grid columns={{ initial: "1", sm: "2" }} gap="3">
                  <Flex direction="column" gap="1">
                    <TextField
                      label="Webhook URL"
                      type="password"
                      autoComplete="off"
                      placeholder={webhookPreset === "slack"
                        ? "https://hooks.slack.com/services/…"
                        : "https://…"}
                      error={errors.webhookUrl?.message}
                      {...register("webhookUrl")}
                    />
                    {setting.data?.webhookHost && (
                      <Text size="1" color="gray">
                        Posts to{" "}
                        {setting.data.webhookHost}. The address is kept secret; enter a new one to
                        replace it.
                      </Text>
                    )}
                  </Flex>
                  <Flex direction="column" gap="1">
                    <TextField
                      label="Signing Secret (optional)"
                      type="password"
                      autoComplete="new-password"
                      error={errors.webhookSecret?.message}
                      {...register("webhookSecret")}
                    />
                    <Text size="1" color="gray">
                      Signs each post in the X-Webhook-Signature header (HMAC-SHA256).
                    </Text>
                  </Flex>
                </Grid>
              )}
              {webhookPreset !== "" && (
                <Flex direction="column" gap="2" align="start">
                  <Button
                    type="button"
                    variant="soft"
                    disabled={webhookTest.kind === "sending"}
                    onClick={onWebhookTest}
                  >
                    {webhookTest.kind === "sending" ? "Sending..." : "Send Test to Webhook"}
                  </Button>
                  <Text size="1" color="gray">The test uses the saved webhook.</Text>
                </Flex>
              )}
              {webhookTest.kind === "done" && (
                <Callout.Root
                  color={webhookTest.ok ? "green" : "red"}
                  role={webhookTest.ok ? "status" : "alert"}
                  highContrast
                >
                  <Callout.Text>{webhookTest.message}</Callout.Text>
                </Callout.Root>
              )}
            </Flex>
          </FormSection>

          <EmailConfigurationCard info={emailInfo.data ?? null} />

          {saveError && (
            <Callout.Root color="red" role="alert">
              <Callout.Text>{saveError}</Callout.Text>
            </Callout.Root>
          )}
          {sentNote && (
            <Callout.Root color="green" role="status">
              <Callout.Text>
                {sentNote}{" "}
                <RadixLink
                  href="#"
                  onClick={(event) => {
                    event.preventDefault();
                    setSentNote(null);
                  }}
                >
                  Dismiss
                </RadixLink>
              </Callout.Text>
            </Callout.Root>
          )}
          {test.kind === "error" && (
            <Callout.Root color="red" role="alert">
              <Callout.Text>
                {test.message} {!test.autoClear && (
                  <RadixLink
                    href="#"
                    onClick={(event) => {
                      event.preventDefault();
                      setTest({ kind: "idle" });
                    }}
                  >
                    Dismiss
                  </RadixLink>
                )}
              </Callout.Text>
            </Callout.Root>
          )}
          <Flex gap="3" wrap="wrap">
            <SaveButton state={saveState} />
            <Button
              type="button"
              variant="soft"
              disabled={test.kind === "sending"}
              color={test.kind === "sent" ? "green" : test.kind === "error" ? "red" : undefined}
              onClick={onTest}
            >
              {testText}
            </Button>
            <Button
              type="button"
              variant="outline"
              color="gray"
              onClick={() => navigate("/notification-settings")}
            >
              Cancel
            </Button>
          </Flex>
        </Flex>
      </form>
    </Container>
  );
}
