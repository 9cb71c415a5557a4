import { Button, Container, Flex, Grid, Heading, Text } from "@radix-ui/themes";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { toast } from "sonner";
import { Link, useParams } from "wouter";
import {
  NEW_ORDER_SUBMISSION_SOURCE_FORM,
  type OrderSubmissionSource,
  type OrderSubmissionSourceForm,
  orderSubmissionSourceForm,
  orderSubmissionSourceFormToSave,
} from "../../../../shared/contract/order_submission.ts";
import { ApiError, messageOr } from "../../api/call.ts";
import { formResolver, pairOptions } from "../../components/form_fields.tsx";
import { TextField } from "../../components/text_field.tsx";
import { FormSection } from "../../components/form_section.tsx";
import { SelectControl, SwitchControl } from "../../components/form_controls.tsx";
import { useCreatedRoute } from "../../components/use_created_route.ts";
import { useResource } from "../../components/use_resource.ts";
import { useSaveState } from "../../components/use_save_state.ts";
import { SaveButton } from "../../components/save_button.tsx";
import { fetchEmailSourcePicker, fetchSubmissionSource, saveSubmissionSource } from "./api.ts";
import { SourceActivitySection } from "../runs/source_activity_charts.tsx";

/** Texts of spec part 2, sections 2 and 8. */
export const SOURCE_TEXTS = {
  saved: "Order submission source saved successfully!",
  loadFailed: "Failed to load order submission source data",
  emailSourcesFailed: "Failed to load email sources",
  unexpected: "Save failed - unexpected response",
  tryAgain: "Save failed - please try again",
} as const;

/** The form's values of a stored source (numbers and the e-mail source id as text). */
function sourceToForm(source: OrderSubmissionSource): OrderSubmissionSourceForm {
  const form = { ...NEW_ORDER_SUBMISSION_SOURCE_FORM };
  for (const key of Object.keys(form) as (keyof OrderSubmissionSourceForm)[]) {
    const value = source[key];
    (form as Record<string, unknown>)[key] = typeof form[key] === "boolean"
      ? Boolean(value)
      : value === null || value === undefined
      ? ""
      : String(value);
  }
  return form;
}

/** /order-submission/sources/edit/{sourceId}: create (0) or edit an order submission source. */
export default function SourceEditPage() {
  const params = useParams<{ sourceId: string }>();
  const [sourceId, setSourceId] = useState(() => Number(params.sourceId) || 0);
  const { state: saveState, run } = useSaveState(3000);
  const { register, handleSubmit, control, reset, watch, formState: { errors } } = useForm<
    OrderSubmissionSourceForm
  >({
    resolver: formResolver(orderSubmissionSourceForm),
    defaultValues: NEW_ORDER_SUBMISSION_SOURCE_FORM,
  });

  const emailSources = useResource(
    ["submission-email-sources"],
    (signal) =>
      fetchEmailSourcePicker(signal).catch((error) => {
        if (!signal.aborted) {
          console.error(error);
          toast.error(SOURCE_TEXTS.emailSourcesFailed);
        }
        throw error;
      }),
  );
  const { loadId: routeId, showCreated } = useCreatedRoute(
    params.sourceId,
    (id) => `/order-submission/sources/edit/${id}`,
  );
  const source = useResource(
    routeId === 0 ? null : ["submission-source", routeId],
    async (signal) => {
      try {
        const loaded = await fetchSubmissionSource(routeId, signal);
        reset(sourceToForm(loaded));
        return loaded;
      } catch (error) {
        if (!signal.aborted) {
          console.error(error);
          toast.error(SOURCE_TEXTS.loadFailed);
        }
        throw error;
      }
    },
  );
  const loaded = !source.loading;

  const onSubmit = async (values: OrderSubmissionSourceForm) => {
    let failure: string = SOURCE_TEXTS.tryAgain;
    const ok = await run(async () => {
      try {
        const body = await saveSubmissionSource(
          orderSubmissionSourceFormToSave(sourceId, values),
        );
        if (body?.id) {
          setSourceId(body.id);
          showCreated(body.id);
        }
      } catch (error) {
        failure = error instanceof ApiError && !error.isNetworkFailure && error.status < 400
          ? SOURCE_TEXTS.unexpected
          : messageOr(error, SOURCE_TEXTS.tryAgain);
        throw error;
      }
    });
    if (ok) toast.success(SOURCE_TEXTS.saved);
    else toast.error(failure);
  };

  const linkClick = watch("noAttachmentsNeedsLinkClick");
  return (
    <Container size="3" p="4">
      <Flex direction="column" gap="2" mb="4">
        <Text size="2">
          <Link href="/order-submission/sources">← Back to Order Submission Sources</Link>
        </Text>
        <Heading as="h1">
          {sourceId === 0 ? "Create New" : "Edit Order Submission Source"}
        </Heading>
      </Flex>
      {!loaded && <Text as="p">Loading...</Text>}
      <form noValidate onSubmit={handleSubmit(onSubmit)} hidden={!loaded}>
        <Flex direction="column" gap="4">
          <FormSection title="Source Information">
            <Grid columns={{ initial: "1", sm: "2" }} gap="3">
              <TextField
                label="Source Name"
                error={errors.sourceName?.message}
                {...register("sourceName")}
              />
              <SelectControl
                control={control}
                name="emailSourceId"
                label="Email Source"
                options={pairOptions(emailSources.data ?? [])}
                placeholder="Choose an e-mail source"
              />
              <TextField
                label="From Email"
                type="email"
                error={errors.fromEmail?.message}
                {...register("fromEmail")}
              />
              <TextField
                label="File Type"
                placeholder="CSV, XLSX"
                error={errors.fileType?.message}
                {...register("fileType")}
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
                label="Expected Attachment Count"
                inputMode="numeric"
                error={errors.expectedAttachmentCount?.message}
                {...register("expectedAttachmentCount")}
              />
              <TextField
                label="Expected Number of Batch Emails"
                inputMode="numeric"
                error={errors.expectedNumberOfBatchEmails?.message}
                {...register("expectedNumberOfBatchEmails")}
              />
              <SwitchControl
                control={control}
                name="containsNotExact"
                label="Subject Contains Text (Not Exact)"
              />
              <SwitchControl
                control={control}
                name="ordersAreAllQuantityOne"
                label="Orders Are All Quantity One"
              />
              <SwitchControl
                control={control}
                name="noAttachmentsNeedsLinkClick"
                label="No Attachments - Needs Link Click"
              />
            </Grid>
          </FormSection>
          {linkClick && (
            <FormSection
              title="Link Click Download"
              description="The order file is downloaded from a link in the e-mail: the link whose text is the button text, else the first link after the preceding text, else a link containing the always-contained text."
            >
              <Grid columns={{ initial: "1", sm: "2" }} gap="3">
                <TextField
                  label="Link Click Preceded By Text"
                  error={errors.linkClickPreceededByText?.message}
                  {...register("linkClickPreceededByText")}
                />
                <TextField
                  label="Link Click Always Contains Text"
                  error={errors.linkClickAlwaysContainsText?.message}
                  {...register("linkClickAlwaysContainsText")}
                />
                <SwitchControl
                  control={control}
                  name="downloadSpreadsheet"
                  label="Download Spreadsheet"
                />
                <SwitchControl control={control} name="downloadPdf" label="Download PDF" />
                <TextField
                  label="Spreadsheet Download Button Text"
                  error={errors.spreadsheetDownloadButtonText?.message}
                  {...register("spreadsheetDownloadButtonText")}
                />
                <TextField
                  label="PDF Download Button Text"
                  error={errors.pdfDownloadButtonText?.message}
                  {...register("pdfDownloadButtonText")}
                />
                <TextField
                  label="Spreadsheet Type"
                  placeholder="xlsx"
                  error={errors.spreadsheetType?.message}
                  {...register("spreadsheetType")}
                />
                <TextField
                  label="Spreadsheet Download Name"
                  error={errors.spreadsheetDownloadName?.message}
                  {...register("spreadsheetDownloadName")}
                />
                <TextField
                  label="PDF Download Name"
                  error={errors.pdfDownloadName?.message}
                  {...register("pdfDownloadName")}
                />
              </Grid>
            </FormSection>
          )}
          <Flex gap="3">
            <SaveButton state={saveState} />
            <Button type="button" variant="soft" asChild>
              <Link href="/order-submission/sources">Back to Sources</Link>
            </Button>
          </Flex>
        </Flex>
      </form>
      <SourceActivitySection area="order-submission" sourceId={sourceId} />
    </Container>
  );
}
