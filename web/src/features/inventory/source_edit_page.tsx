import { Box, Button, Callout, Container, Flex, Grid, Heading, Text } from "@radix-ui/themes";
import { useId, useMemo, useRef, useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { Link, useParams } from "wouter";
import {
  type InventorySourceForm,
  inventorySourceForm,
  SAMPLE_FILE_TYPES,
  SFTP_POLL_LABEL,
} from "../../../../shared/contract/inventory.ts";
import { longDateTime } from "../../components/format_date.ts";
import { ApiError, messageOr } from "../../api/call.ts";
import { ErrorAlert } from "../../components/error_alert.tsx";
import { formResolver, TextAreaField } from "../../components/form_fields.tsx";
import { TextField } from "../../components/text_field.tsx";
import { FormSection } from "../../components/form_section.tsx";
import { SelectControl, SwitchControl, textOptions } from "../../components/form_controls.tsx";
import { useCreatedRoute } from "../../components/use_created_route.ts";
import { useResource } from "../../components/use_resource.ts";
import { useSaveState } from "../../components/use_save_state.ts";
import { SaveButton } from "../../components/save_button.tsx";
import {
  fetchEmailSourcePicker,
  fetchInventorySource,
  type LoadedInventorySource,
  type PickerPair,
  saveInventorySource,
} from "./api.ts";
import { downloadBase64, fileToBase64 } from "../../components/base64_file.ts";
import {
  emailSourceNameOf,
  formToSave,
  NEW_INVENTORY_SOURCE_FORM,
  sftpWatchText,
  sourceToForm,
} from "./source_form.ts";
import { OutcomeAlert } from "../../components/outcome_alert.tsx";
import {
  columnList,
  headerRowOf,
  LocalSampleColumns,
  SampleColumnsPanel,
  useSampleColumns,
  useStoredSample,
} from "../../components/column_picker.tsx";
import { UploadBanner, uploadPercent, type UploadState } from "../../components/upload_status.tsx";
import { UrlFeedSection } from "../../components/url_feed_section.tsx";
import { urlFeedCalls } from "../url_feeds/api.ts";

/** The URL feed section's calls (docs/url_feeds.md). */
const URL_FEED_CALLS = urlFeedCalls("inventory");
import { SourceActivitySection } from "../runs/source_activity_charts.tsx";

/** Texts of spec part 2, sections 2 and 8. */
export const EDIT_TEXTS = {
  createTitle: "Create New",
  editTitle: "Edit Inventory Source",
  subtitle: "Configure how inventory data is received, processed, and managed",
  saved: "Inventory source saved successfully!",
  loadFailed: "Failed to load inventory source data",
  emailSourcesFailed: "Failed to load email sources",
  unexpected: "Save failed - unexpected response",
  tryAgain: "Save failed - please try again",
  attachmentNotice:
    "When an e-mail has several attachments, only one is processed: the best match on file type and attachment-name pattern. The others are ignored.",
} as const;

/** Save feedback resets after 3000 ms for inventory sources (spec section 9). */
const SAVE_RESET_MS = 3000;

const SAMPLE_ACCEPT = SAMPLE_FILE_TYPES.map((type) => `.${type}`).join(",");

/** /inventory-sources/edit/{sourceId}: create (0) or edit an inventory source. */
export default function SourceEditPage() {
  const params = useParams<{ sourceId: string }>();
  const [sourceId, setSourceId] = useState(() => Number(params.sourceId) || 0);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const [upload, setUpload] = useState<UploadState | null>(null);
  const [savedOnce, setSavedOnce] = useState(false);
  const loadedSource = useRef<LoadedInventorySource | null>(null);
  const pairsRef = useRef<PickerPair[]>([]);
  const fileInputId = useId();
  const { state: saveState, run } = useSaveState(SAVE_RESET_MS);
  const {
    register,
    handleSubmit,
    control,
    reset,
    watch,
    setValue,
    getValues,
    clearErrors,
    formState: { errors },
  } = useForm<InventorySourceForm>({
    resolver: formResolver(inventorySourceForm),
    defaultValues: NEW_INVENTORY_SOURCE_FORM,
  });

  const emailSources = useResource(["inventory-email-sources"], async (signal) => {
    try {
      const list = await fetchEmailSourcePicker(signal);
      pairsRef.current = list;
      // The source may have arrived first: name its e-mail source now.
      const source = loadedSource.current;
      if (source && !getValues("emailSourceName")) {
        setValue("emailSourceName", emailSourceNameOf(source.emailSourceId, list));
      }
      return list;
    } catch (error) {
      if (!signal.aborted) console.error(EDIT_TEXTS.emailSourcesFailed, error);
      throw error;
    }
  });
  const pairs = emailSources.data ?? [];
  const { loadId: routeId, showCreated } = useCreatedRoute(
    params.sourceId,
    (id) => `/inventory-sources/edit/${id}`,
  );
  const source = useResource(
    routeId === 0 ? null : ["inventory-source", routeId],
    async (signal) => {
      try {
        const loaded = await fetchInventorySource(routeId, signal);
        loadedSource.current = loaded;
        reset(sourceToForm(loaded, pairsRef.current));
        return loaded;
      } catch (error) {
        if (!signal.aborted) console.error(EDIT_TEXTS.loadFailed, error);
        throw error;
      }
    },
  );
  const loaded = !source.loading;
  const sftpWatchLine = sftpWatchText(source.data?.sftpWatch, longDateTime);
  const loadErrors = [
    emailSources.error ? EDIT_TEXTS.emailSourcesFailed : null,
    source.error ? EDIT_TEXTS.loadFailed : null,
  ].filter((text) => text !== null);

  const onSubmit = async (values: InventorySourceForm) => {
    const chosen = values.fileData.inventoryFile instanceof File
      ? values.fileData.inventoryFile
      : null;
    setOutcome(null);
    setUpload(chosen ? { stage: "uploading", percent: 0 } : null);
    let failure: string = EDIT_TEXTS.tryAgain;
    let sent: { name: string; base64: string } | null = null;
    const ok = await run(async () => {
      try {
        sent = chosen ? { name: chosen.name, base64: await fileToBase64(chosen) } : null;
        // A chosen sample file goes with its upload's progress (issue 24).
        const onProgress = sent
          ? (done: number, total: number) =>
            setUpload({ stage: "uploading", percent: uploadPercent(done, total) })
          : undefined;
        const body = await saveInventorySource(
          formToSave(sourceId, values, pairs, sent),
          onProgress,
        );
        if (body?.id) {
          setSourceId(body.id);
          showCreated(body.id);
          setValue("id", body.id);
        }
      } catch (error) {
        setUpload(null);
        console.error("Error saving inventory source", error);
        failure = error instanceof ApiError && !error.isNetworkFailure && error.status < 400
          ? EDIT_TEXTS.unexpected
          : messageOr(error, EDIT_TEXTS.tryAgain);
        throw error;
      }
    });
    setUpload(null);
    if (ok) {
      // The chosen file is now the stored one: later saves resend it.
      const stored = sent as { name: string; base64: string } | null;
      if (stored) {
        setValue("fileData.inventoryFileName", stored.name);
        setValue("fileData.inventoryFileData", stored.base64);
        setValue("fileData.inventoryFile", null);
      }
      setSavedOnce(true);
      setOutcome({ ok: true, text: EDIT_TEXTS.saved });
    } else {
      setOutcome({ ok: false, text: failure });
    }
  };

  const fileHasHeader = watch("fileHasHeader");
  const statusSupersedes = watch("statusSupersedesQuantity");
  const predictive = watch("usesPredictiveAlgorithm");
  const generatedHeaders = watch("fileData.fileHasHeader");
  const storedName = watch("fileData.inventoryFileName");
  const storedData = watch("fileData.inventoryFileData");
  const columnWord = fileHasHeader ? "Column Name" : "Column Index";
  const fileError = errors.fileData?.inventoryFile?.message;
  // The column pickers of the generated file: the chosen sample, else the stored one.
  const chosenFile = watch("fileData.inventoryFile");
  const storedSample = useStoredSample(storedName, storedData);
  const chosenSample = useMemo(
    () => chosenFile instanceof File ? { name: chosenFile.name, blob: chosenFile } : null,
    [chosenFile],
  );
  const sampleState = useSampleColumns(
    generatedHeaders ? chosenSample ?? storedSample : null,
    headerRowOf(watch("fileData.headerRowIndex")),
  );
  const sampleListId = useId();
  const generatedList = columnList(sampleState, sampleListId);
  const fe = errors.fileData;

  return (
    <Container size="3" p="4">
      <Flex direction="column" gap="1" mb="4">
        <Heading as="h1">
          {sourceId === 0 ? EDIT_TEXTS.createTitle : EDIT_TEXTS.editTitle}
        </Heading>
        <Text as="p" color="gray">{EDIT_TEXTS.subtitle}</Text>
        {sourceId !== 0 && (
          <Box mt="2">
            <Button asChild variant="soft" size="2">
              <Link href={`/inventory-sources/${sourceId}/items`}>Items</Link>
            </Button>
          </Box>
        )}
      </Flex>
      {loadErrors.length > 0 && (
        <Flex direction="column" gap="2" mb="4">
          {loadErrors.map((text) => <ErrorAlert key={text}>{text}</ErrorAlert>)}
        </Flex>
      )}
      {!loaded && <Text as="p">Loading...</Text>}
      <form noValidate onSubmit={handleSubmit(onSubmit)} hidden={!loaded}>
        <Flex direction="column" gap="4">
          <FormSection title="Basic Information">
            <Grid columns={{ initial: "1", sm: "2" }} gap="3">
              <TextField
                label="Source Name"
                error={errors.sourceName?.message}
                {...register("sourceName")}
              />
              <TextField
                label="File Type"
                placeholder="CSV, XLSX"
                error={errors.fileType?.message}
                {...register("fileType")}
              />
              <TextField
                label="From Email"
                type="email"
                error={errors.fromEmail?.message}
                {...register("fromEmail")}
              />
              <SelectControl
                control={control}
                name="emailSourceName"
                label="Email Source"
                options={textOptions([...new Set(pairs.map((pair) => pair.item1))])}
                placeholder="Choose an e-mail source"
              />
              <SwitchControl control={control} name="activeStatus" label="Active Source" />
            </Grid>
          </FormSection>

          <FormSection title="Email Processing">
            <Grid columns={{ initial: "1", sm: "2" }} gap="3">
              <TextField
                label="Subject Value"
                error={errors.subjectValue?.message}
                {...register("subjectValue")}
              />
              <TextField
                label="Attachment Name"
                error={errors.attachmentName?.message}
                {...register("attachmentName")}
              />
              <TextField
                label="Expected Attachments"
                inputMode="numeric"
                error={errors.expectedAttachmentCount?.message}
                {...register("expectedAttachmentCount")}
              />
              <TextField
                label="Alert After (Days)"
                inputMode="numeric"
                error={errors.daysUntilNoUpdateNotification?.message}
                {...register("daysUntilNoUpdateNotification")}
              />
            </Grid>
            <Box my="3">
              <Callout.Root color="blue" size="1">
                <Callout.Text>{EDIT_TEXTS.attachmentNotice}</Callout.Text>
              </Callout.Root>
            </Box>
            <SwitchControl
              control={control}
              name="containsNotExact"
              label="Subject Contains Text"
              hint="The subject only has to contain the text (not an exact match)."
            />
          </FormSection>

          <FormSection title="SFTP Configuration (optional)">
            <Grid columns={{ initial: "1", sm: "2" }} gap="3">
              <TextField
                label="SFTP Server Address"
                error={errors.sftpServerAddress?.message}
                {...register("sftpServerAddress")}
              />
              <TextField
                label="SFTP Port"
                inputMode="numeric"
                placeholder="22"
                error={errors.sftpPort?.message}
                {...register("sftpPort")}
              />
              <TextField
                label="SFTP Username"
                autoComplete="off"
                error={errors.sftpUsername?.message}
                {...register("sftpUsername")}
              />
              <TextField
                label="SFTP Password"
                type="password"
                autoComplete="new-password"
                error={errors.sftpPassword?.message}
                {...register("sftpPassword")}
              />
              <TextField
                label="SFTP Inbox Folder"
                placeholder="inbox"
                error={errors.sftpInboxFolder?.message}
                {...register("sftpInboxFolder")}
              />
              <TextField
                label={SFTP_POLL_LABEL}
                inputMode="numeric"
                placeholder={String(source.data?.sftpWatch?.everySeconds ?? 30)}
                error={errors.sftpPollSeconds?.message}
                {...register("sftpPollSeconds")}
              />
            </Grid>
            {sftpWatchLine && <Text as="p" size="2" mt="2">{sftpWatchLine}</Text>}
            <Text as="p" size="1" color="gray" mt="2">
              The stored password shows as ********; leave it to keep it. With an inbox folder,
              supplier files are also picked up from that folder on the server.
            </Text>
          </FormSection>

          <FormSection title="File Structure">
            <Flex direction="column" gap="3">
              <Flex gap="5" wrap="wrap">
                <SwitchControl control={control} name="fileHasHeader" label="File Has Headers" />
                <SwitchControl
                  control={control}
                  name="stripLeadingZeroes"
                  label="Strip Leading Zeros"
                />
              </Flex>
              <LocalSampleColumns
                label="Supplier Sample File"
                hint="A file as the supplier sends it: its columns are offered in the column fields. It is read here and not stored."
                what="supplier sample file"
              >
                {(list) => (
                  <>
                    <Grid columns={{ initial: "1", sm: "2" }} gap="3">
                      <TextField
                        label={`Item Number ${columnWord}`}
                        error={errors.itemNumberColumnName?.message}
                        list={fileHasHeader ? list : undefined}
                        autoComplete="off"
                        {...register("itemNumberColumnName")}
                      />
                      <TextField
                        label={`Quantity ${columnWord}`}
                        error={errors.qtyColumnName?.message}
                        list={fileHasHeader ? list : undefined}
                        autoComplete="off"
                        {...register("qtyColumnName")}
                      />
                    </Grid>
                    <SwitchControl
                      control={control}
                      name="statusSupersedesQuantity"
                      label="Status Supersedes Quantity"
                    />
                    {statusSupersedes && (
                      <Grid columns={{ initial: "1", sm: "2" }} gap="3">
                        <TextField
                          label="Available Status Values"
                          placeholder="In Stock, Available"
                          error={errors.statusAvailableList?.message}
                          {...register("statusAvailableList")}
                        />
                        <TextField
                          label="Out of Stock Status Values"
                          placeholder="Out of Stock, Discontinued"
                          error={errors.statusOutOfStockList?.message}
                          {...register("statusOutOfStockList")}
                        />
                        <TextField
                          label={`Status ${columnWord}`}
                          error={errors.itemStatusColumnName?.message}
                          list={fileHasHeader ? list : undefined}
                          autoComplete="off"
                          {...register("itemStatusColumnName")}
                        />
                      </Grid>
                    )}
                  </>
                )}
              </LocalSampleColumns>
              <TextField
                label="Min Items to Keep Product Active"
                inputMode="numeric"
                error={errors.minItemsToBeActive?.message}
                {...register("minItemsToBeActive")}
              />
            </Flex>
          </FormSection>

          <FormSection
            title="Predictive Algorithm"
            description="Turns items inactive that are likely to sell out before the next update, from the quantities of earlier files."
          >
            <Flex direction="column" gap="3">
              <SwitchControl
                control={control}
                name="usesPredictiveAlgorithm"
                label="Enable Predictive Algorithm"
              />
              {predictive && (
                <Grid columns={{ initial: "1", sm: "2" }} gap="3">
                  <NumberField
                    label="Lookback Days *"
                    hint="1 to 365 days; 7 to 90 suggested (e.g. 30)"
                    min={1}
                    max={365}
                    step={1}
                    placeholder="30"
                    error={errors.lookbackDays?.message}
                    {...register("lookbackDays")}
                  />
                  <NumberField
                    label="Min Data Points *"
                    hint="1 to 100 (e.g. 5)"
                    min={1}
                    max={100}
                    step={1}
                    placeholder="5"
                    error={errors.minDataPoints?.message}
                    {...register("minDataPoints")}
                  />
                  <NumberField
                    label="Safety Multiplier *"
                    hint="1.0 to 5.0, step 0.1 (e.g. 1.2)"
                    min={1}
                    max={5}
                    step={0.1}
                    placeholder="1.2"
                    error={errors.safetyMultiplier?.message}
                    {...register("safetyMultiplier")}
                  />
                  <NumberField
                    label="Safety Padding *"
                    hint="0 to 10000 units (e.g. 50)"
                    min={0}
                    max={10000}
                    step={1}
                    placeholder="50"
                    error={errors.safetyPadding?.message}
                    {...register("safetyPadding")}
                  />
                  <NumberField
                    label="Large Drop Threshold *"
                    hint="1 to 100000 units (e.g. 500)"
                    min={1}
                    max={100000}
                    step={1}
                    placeholder="500"
                    error={errors.largeDropThreshold?.message}
                    {...register("largeDropThreshold")}
                  />
                  <NumberField
                    label="Large Drop Multiplier *"
                    hint="1.0 to 5.0 (e.g. 1.5)"
                    min={1}
                    max={5}
                    step={0.1}
                    placeholder="1.5"
                    error={errors.largeDropMultiplier?.message}
                    {...register("largeDropMultiplier")}
                  />
                </Grid>
              )}
            </Flex>
          </FormSection>

          <FormSection title="File Generation">
            <Flex direction="column" gap="3">
              <TextAreaField
                label="User Activated Item Numbers"
                rows={5}
                placeholder="One item number per line, or comma separated"
                error={fe?.userActivatedItemNumbers?.message}
                {...register("fileData.userActivatedItemNumbers")}
              />
              <Flex direction="column" gap="1">
                <Text as="label" htmlFor={fileInputId} size="2" weight="medium">
                  Sample Inventory File (.xls, .xlsx, .csv)
                </Text>
                <Controller
                  control={control}
                  name="fileData.inventoryFile"
                  render={({ field }) => (
                    <input
                      id={fileInputId}
                      type="file"
                      accept={SAMPLE_ACCEPT}
                      aria-invalid={fileError ? true : undefined}
                      aria-describedby={fileError ? `${fileInputId}-error` : undefined}
                      onChange={(event) => {
                        field.onChange(event.currentTarget.files?.[0] ?? null);
                        clearErrors("fileData.inventoryFile");
                      }}
                    />
                  )}
                />
                {fileError && (
                  <Text id={`${fileInputId}-error`} size="2" color="red">{fileError}</Text>
                )}
                <SampleColumnsPanel
                  state={sampleState}
                  listId={sampleListId}
                  what="sample inventory file"
                />
                {storedName && (
                  <Flex gap="2" align="center" wrap="wrap">
                    <Text size="2">Current file: {storedName}</Text>
                    {storedData && (
                      <Button
                        type="button"
                        size="1"
                        variant="soft"
                        onClick={() => downloadBase64(storedName, storedData)}
                      >
                        Download
                      </Button>
                    )}
                  </Flex>
                )}
              </Flex>
              <SwitchControl
                control={control}
                name="fileData.fileHasHeader"
                label="Generated File Has Headers"
              />
              <Grid columns={{ initial: "1", sm: "2" }} gap="3">
                {generatedHeaders && (
                  <TextField
                    label="Header Row Index"
                    inputMode="numeric"
                    placeholder="1"
                    error={fe?.headerRowIndex?.message}
                    {...register("fileData.headerRowIndex")}
                  />
                )}
                <TextField
                  label="Generated Item Number Column"
                  error={fe?.itemNumberColumnName?.message}
                  list={generatedList}
                  autoComplete="off"
                  {...register("fileData.itemNumberColumnName")}
                />
                <TextField
                  label="Generated Item Status Column"
                  error={fe?.itemStatusColumnName?.message}
                  list={generatedList}
                  autoComplete="off"
                  {...register("fileData.itemStatusColumnName")}
                />
                <TextField
                  label="Generated Item Status Date Column"
                  error={fe?.itemStatusDateColumnName?.message}
                  list={generatedList}
                  autoComplete="off"
                  {...register("fileData.itemStatusDateColumnName")}
                />
                <TextField
                  label="Guard Threshold (0 to 1)"
                  inputMode="decimal"
                  placeholder="0.5"
                  error={errors.guardThreshold?.message}
                  {...register("guardThreshold")}
                />
              </Grid>
              <Text as="p" size="1" color="gray">
                Guard threshold: a run that would turn more than this share of the previously active
                items inactive is held until someone releases it (empty: the server's default).
              </Text>
            </Flex>
          </FormSection>

          {upload && <UploadBanner state={upload} what="sample inventory file" />}
          {!upload && outcome && <OutcomeAlert ok={outcome.ok}>{outcome.text}</OutcomeAlert>}
          <Flex gap="3" justify="end" wrap="wrap">
            <Button type="button" variant="soft" color="gray" asChild>
              <Link href="/inventory-sources">Cancel</Link>
            </Button>
            {savedOnce && (
              <Button type="button" variant="soft" asChild>
                <Link href="/inventory-sources">Back to Sources</Link>
              </Button>
            )}
            <SaveButton state={saveState} />
          </Flex>
        </Flex>
      </form>
      {loaded && (
        <Box mt="4">
          <UrlFeedSection sourceId={sourceId} calls={URL_FEED_CALLS} />
        </Box>
      )}
      <SourceActivitySection area="inventory" sourceId={sourceId} />
    </Container>
  );
}

/** A labelled number input with its bounds and a hint (spec section 5, predictive hints). */
function NumberField(
  { hint, ...props }: Parameters<typeof TextField>[0] & { hint: string },
) {
  return (
    <Flex direction="column" gap="1">
      <TextField type="number" {...props} />
      <Text size="1" color="gray">{hint}</Text>
    </Flex>
  );
}
