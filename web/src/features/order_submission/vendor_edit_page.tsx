import { Box, Button, Container, Flex, Grid, Heading, Text } from "@radix-ui/themes";
import { useEffect, useId, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { Link, useLocation, useParams } from "wouter";
import {
  MAP_FIELDS,
  NEW_ORDER_VENDOR_SOURCE_FORM,
  type OrderVendorSourceForm,
  orderVendorSourceForm,
  orderVendorSourceFormToSave,
  STATIC_FIELDS,
  type TemplateFile,
  type VendorAlias,
  vendorSaveErrorText,
} from "../../../../shared/contract/order_submission.ts";
import { ApiError } from "../../api/call.ts";
import { DeleteDialog } from "../../components/delete_dialog.tsx";
import { ErrorAlert } from "../../components/error_alert.tsx";
import { formResolver, pairOptions, TextAreaField } from "../../components/form_fields.tsx";
import { TextField } from "../../components/text_field.tsx";
import { downloadBase64, fileToBase64 } from "../../components/base64_file.ts";
import { FormSection } from "../../components/form_section.tsx";
import { SelectControl, SwitchControl } from "../../components/form_controls.tsx";
import { useCreatedRoute } from "../../components/use_created_route.ts";
import { useResource } from "../../components/use_resource.ts";
import { useSaveState } from "../../components/use_save_state.ts";
import { SaveButton } from "../../components/save_button.tsx";
import { AliasEditor } from "./alias_editor.tsx";
import {
  columnList,
  headerRowOf,
  SampleColumnsPanel,
  useSampleColumns,
  useStoredSample,
} from "../../components/column_picker.tsx";
import { UploadBanner, uploadPercent, type UploadState } from "../../components/upload_status.tsx";
import {
  deleteVendorAlias,
  fetchEmailSourcePicker,
  fetchSubmissionSourcePicker,
  fetchVendor,
  type OrderVendorSource,
  saveVendor,
} from "./api.ts";
import { BANNER_MS, MAP_LABELS, VENDOR_TEXTS, vendorToForm } from "./vendor_form.ts";
import { SourceActivitySection } from "../runs/source_activity_charts.tsx";

/** /order-submission/vendor/edit/{vendorId}: create (0 or missing) or edit a vendor. */
export default function VendorEditPage() {
  const params = useParams<{ vendorId?: string }>();
  const [, navigate] = useLocation();
  const [vendorId, setVendorId] = useState(() => Number(params.vendorId) || 0);
  const [aliases, setAliases] = useState<VendorAlias[]>([]);
  const [deletingAlias, setDeletingAlias] = useState<number | null>(null);
  const [existingTemplate, setExistingTemplate] = useState<TemplateFile | null>(null);
  const [chosenTemplate, setChosenTemplate] = useState<{ fileName: string; base64: string } | null>(
    null,
  );
  const [banner, setBanner] = useState<string | null>(null);
  const bannerTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [saved, setSaved] = useState(false);
  const { state: saveState, run } = useSaveState(BANNER_MS);
  const fileInputId = useId();
  const [upload, setUpload] = useState<UploadState | null>(null);
  const {
    register,
    handleSubmit,
    control,
    reset,
    watch,
    setValue,
    formState: { errors },
  } = useForm<OrderVendorSourceForm>({
    resolver: formResolver(orderVendorSourceForm),
    defaultValues: NEW_ORDER_VENDOR_SOURCE_FORM,
  });

  useEffect(() => () => clearTimeout(bannerTimer.current), []);

  const logged = (error: unknown, signal: AbortSignal): never => {
    if (!signal.aborted) console.error(error);
    throw error;
  };
  const sources = useResource(
    ["submission-source-picker"],
    (signal) => fetchSubmissionSourcePicker(signal).catch((error) => logged(error, signal)),
  );
  const emailSources = useResource(
    ["submission-email-sources"],
    (signal) => fetchEmailSourcePicker(signal).catch((error) => logged(error, signal)),
  );
  const { loadId: routeId, showCreated } = useCreatedRoute(
    params.vendorId,
    (id) => `/order-submission/vendor/edit/${id}`,
  );
  const vendor = useResource(
    routeId === 0 ? null : ["submission-vendor", routeId],
    async (signal) => {
      try {
        const loaded = await fetchVendor(routeId, signal);
        reset(vendorToForm(loaded));
        setAliases(loaded.vendorSourceAliases);
        setExistingTemplate(loaded.existingTemplate);
        return loaded;
      } catch (error) {
        return logged(error, signal);
      }
    },
  );
  const loaded = !vendor.loading;
  // In the order the spec lists them (sources, e-mail sources, the vendor).
  const loadErrors = [
    sources.error ? VENDOR_TEXTS.loadSourcesFailed : null,
    emailSources.error ? VENDOR_TEXTS.loadEmailSourcesFailed : null,
    vendor.error ? VENDOR_TEXTS.loadVendorFailed : null,
  ].filter((text) => text !== null);

  const showBanner = (text: string) => {
    clearTimeout(bannerTimer.current);
    setBanner(text);
    bannerTimer.current = setTimeout(() => setBanner(null), BANNER_MS);
  };

  const onSubmit = async (values: OrderVendorSourceForm) => {
    setUpload(chosenTemplate ? { stage: "uploading", percent: 0 } : null);
    let failure = "";
    const ok = await run(async () => {
      let vendor: OrderVendorSource | undefined;
      try {
        // A chosen template goes with its upload's progress (issue 24).
        const onProgress = chosenTemplate
          ? (sent: number, total: number) =>
            setUpload({ stage: "uploading", percent: uploadPercent(sent, total) })
          : undefined;
        vendor = await saveVendor(
          orderVendorSourceFormToSave(vendorId, values, aliases, chosenTemplate, existingTemplate),
          onProgress,
        );
      } catch (error) {
        setUpload(null);
        if (!(error instanceof ApiError) || error.isNetworkFailure) {
          console.error(error);
          failure = vendorSaveErrorText(null, "");
        } else if (error.status < 400) {
          failure = VENDOR_TEXTS.unexpectedStatus;
        } else {
          // The raw body too: the unique-constraint text is detected in it (section 8).
          failure = vendorSaveErrorText(error.status, error.serverMessage ?? error.text);
        }
        throw error;
      }
      if (chosenTemplate) {
        setUpload({ stage: "saved", text: `Template ${chosenTemplate.fileName} saved.` });
      }
      if (vendor?.id) {
        setVendorId(vendor.id);
        showCreated(vendor.id);
        setAliases(vendor.vendorSourceAliases);
        setExistingTemplate(vendor.existingTemplate);
        setChosenTemplate(null);
        setValue("submitFileTemplateFileName", "");
      }
    });
    if (ok) {
      setSaved(true);
      clearTimeout(bannerTimer.current);
      setBanner(null);
    } else {
      showBanner(failure);
    }
  };

  const chooseTemplate = async (file: File | undefined) => {
    if (!file) {
      setChosenTemplate(null);
      setValue("submitFileTemplateFileName", "", { shouldValidate: true });
      return;
    }
    setValue("submitFileTemplateFileName", file.name, { shouldValidate: true });
    setChosenTemplate({
      fileName: file.name,
      base64: await fileToBase64(file),
    });
  };

  const confirmAliasDelete = async () => {
    if (deletingAlias === null) return false;
    const alias = aliases[deletingAlias];
    if (alias && alias.id > 0) {
      try {
        await deleteVendorAlias(alias.id);
      } catch (error) {
        console.error("Error deleting vendor alias", error);
        return false;
      }
    }
    setAliases((current) => current.filter((_, i) => i !== deletingAlias));
    return true;
  };

  // The field mapping's column pickers: the chosen template, else the stored one.
  const template = useStoredSample(
    chosenTemplate?.fileName ?? existingTemplate?.fileName,
    chosenTemplate?.base64 ?? existingTemplate?.fileData,
  );
  const templateState = useSampleColumns(
    template,
    headerRowOf(watch("submitFileHeaderRowIndex")),
  );
  const templateListId = useId();
  const templateList = columnList(templateState, templateListId);

  const trimming = watch("vendorWantsTrimmedItemDescription");
  const nonDaily = watch("vendorWantsNonDailySubmission");
  return (
    <Container size="3" p="4">
      <Flex direction="column" gap="2" mb="4">
        <Text size="2">
          <Link href="/order-submission/vendor">← Back to Vendor Sources</Link>
        </Text>
        <Heading as="h1">
          {vendorId === 0 ? "Create Order Vendor Source" : "Edit Order Vendor Source"}
        </Heading>
      </Flex>
      {loadErrors.map((text) => (
        <Box key={text} mb="3">
          <ErrorAlert>{text}</ErrorAlert>
        </Box>
      ))}
      {!loaded && <Text as="p">Loading...</Text>}
      <form noValidate onSubmit={handleSubmit(onSubmit)} hidden={!loaded}>
        <Flex direction="column" gap="4">
          <FormSection title="Vendor Information">
            <Grid columns={{ initial: "1", sm: "2" }} gap="3" mb="4">
              <SelectControl
                control={control}
                name="orderSubmissionSourceId"
                label="Order Submission Sources *"
                options={pairOptions(sources.data ?? [])}
                placeholder="Choose an order submission source"
              />
              <TextField
                label="Vendor Name From File *"
                error={errors.vendorNameFromFile?.message}
                {...register("vendorNameFromFile")}
              />
              <TextField
                label="Vendor Provided Account Number"
                error={errors.vendorProvidedAccountNumber?.message}
                {...register("vendorProvidedAccountNumber")}
              />
              <SelectControl
                control={control}
                name="sendFromEmailSourceModelId"
                label="Send from Email Source *"
                options={pairOptions(emailSources.data ?? [])}
                placeholder="Choose an e-mail source"
              />
            </Grid>
            <AliasEditor aliases={aliases} onChange={setAliases} onDelete={setDeletingAlias} />
          </FormSection>

          <FormSection title="Email Configuration">
            <Grid columns={{ initial: "1", sm: "2" }} gap="3">
              <TextField
                label="Submit Emails *"
                error={errors.submitEmails?.message}
                {...register("submitEmails")}
              />
              <TextField
                label="Submit Cc Emails"
                error={errors.submitCcEmails?.message}
                {...register("submitCcEmails")}
              />
              <TextField
                label="Submit Bcc Emails"
                error={errors.submitBccEmails?.message}
                {...register("submitBccEmails")}
              />
              <TextField
                label="Submit Email Subject Line *"
                error={errors.submitEmailSubjectLine?.message}
                {...register("submitEmailSubjectLine")}
              />
            </Grid>
            <Box mt="3">
              <TextAreaField
                label="Submit Email Body Text"
                rows={5}
                error={errors.submitEmailBodyText?.message}
                {...register("submitEmailBodyText")}
              />
            </Box>
            <Text as="p" size="2" color="gray" mt="2">{VENDOR_TEXTS.wildcardNote}</Text>
          </FormSection>

          <FormSection title="Processing Options">
            <Grid columns={{ initial: "1", sm: "2" }} gap="3">
              <SwitchControl
                control={control}
                name="vendorWantsTrimmedItemDescription"
                label="Vendor Wants Trimmed Item Description"
              />
              <SwitchControl
                control={control}
                name="vendorWantsNonDailySubmission"
                label="Vendor Wants Non Daily Submission"
              />
              <SwitchControl
                control={control}
                name="vendorWantsAllAlignedLeft"
                label="Vendor Wants All Aligned Left"
              />
              <SwitchControl control={control} name="vendorWantsPDF" label="Vendor Wants PDF" />
              <SwitchControl
                control={control}
                name="vendorWantsSpreadsheet"
                label="Vendor Wants Spreadsheet"
              />
              <SwitchControl
                control={control}
                name="vendorWantsForwardedEmail"
                label="Vendor Wants Forwarded Email"
              />
              <SwitchControl
                control={control}
                name="vendorWantsAllData"
                label="Vendor Wants All Data"
              />
            </Grid>
            <Grid columns={{ initial: "1", sm: "2" }} gap="3" mt="3">
              {trimming && (
                <TextField
                  label="Vendor Regex For Item Description"
                  placeholder="^[^,]+"
                  error={errors.vendorRegexForItemDescription?.message}
                  {...register("vendorRegexForItemDescription")}
                />
              )}
              {nonDaily && (
                <TextField
                  label="Vendor Custom Submit Every X Days"
                  type="number"
                  min={1}
                  max={365}
                  error={errors.vendorCustomSubmitEveryXDay?.message}
                  {...register("vendorCustomSubmitEveryXDay")}
                />
              )}
            </Grid>
          </FormSection>

          <FormSection title="File Configuration">
            <Grid columns={{ initial: "1", sm: "2" }} gap="3">
              <TextField
                label="Submit File Header Row Index *"
                inputMode="numeric"
                error={errors.submitFileHeaderRowIndex?.message}
                {...register("submitFileHeaderRowIndex")}
              />
              <Flex direction="column" gap="1">
                <Text as="label" htmlFor={fileInputId} size="2" weight="medium">
                  Spreadsheet Template (.xls, .xlsx)
                </Text>
                <input
                  id={fileInputId}
                  type="file"
                  accept=".xls,.xlsx"
                  aria-invalid={errors.submitFileTemplateFileName ? true : undefined}
                  onChange={(event) => chooseTemplate(event.currentTarget.files?.[0])}
                />
                {errors.submitFileTemplateFileName?.message && (
                  <Text size="2" color="red">{errors.submitFileTemplateFileName.message}</Text>
                )}
                {existingTemplate && (
                  <Flex gap="2" align="center" wrap="wrap">
                    <Text size="2">Current template: {existingTemplate.fileName}</Text>
                    <Button
                      type="button"
                      size="1"
                      variant="soft"
                      onClick={() =>
                        downloadBase64(existingTemplate.fileName, existingTemplate.fileData)}
                    >
                      Download Template
                    </Button>
                  </Flex>
                )}
              </Flex>
              <SwitchControl control={control} name="activeStatus" label="Active" />
              <SwitchControl control={control} name="deletedStatus" label="Deleted" />
            </Grid>
          </FormSection>

          <FormSection title="Field Mapping">
            <Text as="p" size="2" color="gray" mb="3">
              The template column(s) that receive each field; separate several with commas.
            </Text>
            <Box mb="3">
              <SampleColumnsPanel
                state={templateState}
                listId={templateListId}
                what="spreadsheet template"
              />
            </Box>
            <Grid columns={{ initial: "1", sm: "2", md: "3" }} gap="3">
              {MAP_FIELDS.map((field) => (
                <TextField
                  key={field}
                  label={MAP_LABELS[field]}
                  list={templateList}
                  autoComplete="off"
                  error={errors[field]?.message}
                  {...register(field)}
                />
              ))}
            </Grid>
            <Heading as="h3" size="3" mt="4" mb="2">Static Data</Heading>
            <Grid columns={{ initial: "1", sm: "2" }} gap="3">
              {STATIC_FIELDS.map((n) => [
                <TextField
                  key={`value${n}`}
                  label={`Static File Data ${n}`}
                  error={errors[`staticFileData${n}`]?.message}
                  {...register(`staticFileData${n}`)}
                />,
                <TextField
                  key={`map${n}`}
                  label={`Static File Data ${n} Column`}
                  list={templateList}
                  autoComplete="off"
                  error={errors[`mapStaticFileData${n}`]?.message}
                  {...register(`mapStaticFileData${n}`)}
                />,
              ])}
            </Grid>
          </FormSection>

          {upload && <UploadBanner state={upload} what="spreadsheet template" />}
          {banner && <ErrorAlert>{banner}</ErrorAlert>}
          <Flex gap="3">
            <SaveButton state={saveState} />
            {saved && (
              <Button
                type="button"
                variant="soft"
                onClick={() => navigate("/order-submission/vendor")}
              >
                Back to Vendors
              </Button>
            )}
          </Flex>
        </Flex>
      </form>
      <DeleteDialog
        name={deletingAlias === null
          ? null
          : aliases[deletingAlias]?.vendorAliasNameFromFile ?? null}
        onCancel={() => setDeletingAlias(null)}
        onConfirm={confirmAliasDelete}
      />
      <SourceActivitySection area="vendor-sends" sourceId={vendorId} />
    </Container>
  );
}
