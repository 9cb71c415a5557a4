import { uniqueColumnLabel } from "../../../../shared/catalog/display_names.ts";
import { zodResolver } from "@hookform/resolvers/zod";
import { Box, Button, Card, Container, Flex, Grid, Heading, Text } from "@radix-ui/themes";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { toast } from "sonner";
import { useLocation, useParams } from "wouter";
import {
  FILE_TYPES,
  ORDER_FIELDS,
  UNIQUE_COLUMNS,
} from "../../../../shared/contract/order_tracking.ts";
import { type EmailSourceItem, fetchEmailSourceList, fetchSource, saveSource } from "./api.ts";
import { ApiError, messageOr } from "../../api/call.ts";
import { useCreatedRoute } from "../../components/use_created_route.ts";
import { useResource } from "../../components/use_resource.ts";
import { TextField } from "../../components/text_field.tsx";
import { FormSection } from "../../components/form_section.tsx";
import { SelectControl, SwitchControl, textOptions } from "../../components/form_controls.tsx";
import { useSaveState } from "../../components/use_save_state.ts";
import { SaveButton } from "../../components/save_button.tsx";
import { LocalSampleColumns } from "../../components/column_picker.tsx";
import {
  emptySourceForm,
  FIELD_LABELS,
  formToPayload,
  sourceFormSchema,
  type SourceFormValues,
  sourceToForm,
} from "./source_form.ts";
import { UrlFeedSection } from "../../components/url_feed_section.tsx";
import { urlFeedCalls } from "../url_feeds/api.ts";

/** The URL feed section's calls (docs/url_feeds.md). */
const URL_FEED_CALLS = urlFeedCalls("order-tracking");
import { SourceActivitySection } from "../runs/source_activity_charts.tsx";

const SAVED = "Order tracking source saved successfully!";
const UNEXPECTED = "Save failed - unexpected response";
const TRY_AGAIN = "Save failed - please try again";

/** /order-tracking-sources/edit/{sourceId}: create (0) or edit a source. */
export default function SourceEditPage() {
  const params = useParams<{ sourceId: string }>();
  const [, navigate] = useLocation();
  const [sourceId, setSourceId] = useState(() => Number(params.sourceId) || 0);
  const [normalizationId, setNormalizationId] = useState(0);
  const [emailSources, setEmailSources] = useState<EmailSourceItem[]>([]);
  const { state: saveState, run } = useSaveState(3000);
  const [saved, setSaved] = useState(false);
  // An edit shows its form once the stored source has been asked for, so nobody edits blanks.
  const [loaded, setLoaded] = useState(() => (Number(params.sourceId) || 0) === 0);
  const { register, handleSubmit, control, reset, setError, formState: { errors } } = useForm<
    SourceFormValues
  >({ resolver: zodResolver(sourceFormSchema), defaultValues: emptySourceForm() });

  // The e-mail source names first (the form shows the source's by name), then the source.
  const { loadId, showCreated } = useCreatedRoute(
    params.sourceId,
    (id) => `/order-tracking-sources/edit/${id}`,
  );
  useResource(["order-tracking-source", loadId], async (signal) => {
    const id = loadId;
    let list: EmailSourceItem[] = [];
    try {
      list = await fetchEmailSourceList(signal);
      if (!signal.aborted) setEmailSources(list);
    } catch (error) {
      if (signal.aborted) return;
      console.error(error);
      toast.error("Failed to load email sources");
    }
    if (id === 0) return;
    try {
      setLoaded(false);
      const source = await fetchSource(id, signal);
      if (signal.aborted) return;
      const name = list.find((item) => item.item2 === source.emailSourceId)?.item1 ?? "";
      setNormalizationId(source.columnNormalizationValues.id);
      reset(sourceToForm(source, name));
    } catch (error) {
      if (signal.aborted) return;
      console.error(error);
      toast.error("Failed to load order tracking source data");
    } finally {
      if (!signal.aborted) setLoaded(true);
    }
  });

  const onSubmit = async (values: SourceFormValues) => {
    const emailSource = emailSources.find((item) => item.item1 === values.emailSourceName);
    if (!emailSource) {
      setError("emailSourceName", { message: "Required" });
      return;
    }
    let failure = TRY_AGAIN;
    const ok = await run(async () => {
      let body;
      try {
        body = await saveSource(
          formToPayload(values, sourceId, emailSource.item2, normalizationId),
        );
      } catch (error) {
        if (!(error instanceof ApiError) || error.isNetworkFailure) {
          console.error(error);
        } else {
          failure = error.status < 400 ? UNEXPECTED : messageOr(error, TRY_AGAIN);
        }
        throw error;
      }
      if (body?.id) {
        setSourceId(body.id);
        showCreated(body.id);
      }
      if (body?.columnNormalizationValues?.id) {
        setNormalizationId(body.columnNormalizationValues.id);
      }
    });
    if (ok) {
      setSaved(true);
      toast.success(SAVED);
    } else {
      toast.error(failure);
    }
  };

  const emailNames = emailSources.map((item) => item.item1);
  return (
    <Container size="3" p="4">
      <Heading as="h1" mb="4">
        {sourceId === 0 ? "Create New" : "Edit Order Tracking Source"}
      </Heading>
      {!loaded && <Text as="p">Loading...</Text>}
      <form noValidate onSubmit={handleSubmit(onSubmit)} hidden={!loaded}>
        <Flex direction="column" gap="4">
          <Card>
            <Grid columns={{ initial: "1", sm: "2" }} gap="3">
              <TextField
                label="Source Name"
                error={errors.sourceName?.message}
                {...register("sourceName")}
              />
              <SelectControl
                control={control}
                name="emailSourceName"
                label="Email Source"
                options={textOptions(emailNames)}
                placeholder="Choose an e-mail source"
              />
              <SelectControl
                control={control}
                name="fileType"
                label="File Type"
                options={textOptions(FILE_TYPES)}
                placeholder="Choose a file type"
              />
              <TextField
                label="From Email"
                type="email"
                error={errors.fromEmail?.message}
                {...register("fromEmail")}
              />
              <TextField
                label="Subject"
                error={errors.subjectValue?.message}
                {...register("subjectValue")}
              />
              <TextField
                label="Expected Attachment Count"
                inputMode="numeric"
                error={errors.expectedAttachmentCount?.message}
                {...register("expectedAttachmentCount")}
              />
              <TextField
                label="Attachment Name"
                error={errors.attachmentName?.message}
                {...register("attachmentName")}
              />
              <TextField
                label="Columns To Ignore"
                error={errors.columnsToIgnore?.message}
                {...register("columnsToIgnore")}
              />
              <TextField
                label="Secondary Delimiter"
                error={errors.secondaryDelimiter?.message}
                {...register("secondaryDelimiter")}
              />
              <SelectControl
                control={control}
                name="uniqueColumn"
                label="Unique Column"
                // The value stays the spec's choice ("QTYFulfilled"); the person reads words.
                options={UNIQUE_COLUMNS.map((value) => ({
                  value,
                  label: uniqueColumnLabel(value),
                }))}
                placeholder="Choose a unique column"
              />
              <TextField
                label="Delete After (Days)"
                inputMode="numeric"
                error={errors.deleteAfterDays?.message}
                {...register("deleteAfterDays")}
              />
              <Flex direction="column" gap="3" justify="center">
                <SwitchControl
                  control={control}
                  name="containsNotExact"
                  label="Subject Contains (Not Exact)"
                />
                <SwitchControl control={control} name="activeStatus" label="Active" />
              </Flex>
            </Grid>
          </Card>
          <FormSection
            title="Column Normalization"
            description="The file column that feeds each order field. Leave a field empty to read the column named like it."
          >
            <LocalSampleColumns
              label="Sample File"
              hint="A file as this source sends it: its columns are offered in the fields below. It is read here and not stored."
              what="sample file"
            >
              {(list) => (
                <Grid columns={{ initial: "1", sm: "2", md: "3" }} gap="3">
                  {ORDER_FIELDS.map((field) => (
                    <TextField
                      key={field}
                      label={FIELD_LABELS[field]}
                      list={list}
                      autoComplete="off"
                      {...register(`normalization.${field}`)}
                    />
                  ))}
                </Grid>
              )}
            </LocalSampleColumns>
          </FormSection>
          <Flex gap="3">
            <SaveButton state={saveState} />
            {saved && (
              <Button
                type="button"
                variant="soft"
                onClick={() => navigate("/order-tracking-sources")}
              >
                Back
              </Button>
            )}
          </Flex>
        </Flex>
      </form>
      {loaded && (
        <Box mt="4">
          <UrlFeedSection sourceId={sourceId} calls={URL_FEED_CALLS} />
        </Box>
      )}
      <SourceActivitySection area="order-tracking" sourceId={sourceId} />
    </Container>
  );
}
