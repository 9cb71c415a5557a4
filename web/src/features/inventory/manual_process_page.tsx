import {
  Badge,
  Box,
  Button,
  Callout,
  Card,
  Container,
  DataList,
  Flex,
  Grid,
  Heading,
  Text,
} from "@radix-ui/themes";
import { type DragEvent, type ReactNode, useId, useRef, useState } from "react";
import { Link, useParams } from "wouter";
import { RunItemChanges } from "./run_item_changes.tsx";
import { DEBUG_SUCCESS_TEXT, failedResult } from "../../../../shared/contract/inventory.ts";
import { ApiError, messageOr } from "../../api/call.ts";
import { uploadPercent } from "../../components/upload_status.tsx";
import { ErrorAlert } from "../../components/error_alert.tsx";
import { SwitchField } from "../../components/form_fields.tsx";
import { useResource } from "../../components/use_resource.ts";
import {
  debugModifyFile,
  fetchInventorySettings,
  fetchInventorySource,
  type LoadedInventorySource,
  manuallyProcessWithProgress,
  type ManualProcessResult,
  previewProcess,
  type PreviewResult,
  type ProcessResult,
  releaseRun,
  type UploadOptions,
} from "./api.ts";
import { downloadBase64 } from "../../components/base64_file.ts";
import { activatedItems, successRate, uploadProblem, wantedType } from "./upload_rules.ts";
import { OutcomeAlert, SuccessAlert } from "../../components/outcome_alert.tsx";
import { type RunProgress, RunProgressPanel } from "./run_progress.tsx";

/** Texts of spec part 2, sections 4 and 8. */
export const PROCESS_TEXTS = {
  heading: "Manually Process File",
  loadFailed: "Failed to load inventory source details",
  processFailed: "Failed to process file",
  debugFailed: "Failed to modify file for debugging",
  debugSuccess: DEBUG_SUCCESS_TEXT,
  complete: "Processing Complete",
  failed: "Processing Failed",
  debugTitle: "Debug File Modified",
} as const;

const NO_OPTIONS: UploadOptions = { sendEmailNotification: false, submitViaSftp: false };

function Panel(
  { id, title, children }: { id: string; title: ReactNode; children: ReactNode },
) {
  return (
    <Card asChild>
      <section aria-labelledby={id}>
        <Heading as="h2" size="4" id={id} mb="3">{title}</Heading>
        {children}
      </section>
    </Card>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <DataList.Item>
      <DataList.Label minWidth="180px">{label}</DataList.Label>
      <DataList.Value>{children}</DataList.Value>
    </DataList.Item>
  );
}

function Count({ label, value }: { label: string; value: number }) {
  return (
    <Card>
      <Text as="div" size="2" color="gray">{label}</Text>
      <Text as="div" size="6" weight="bold" aria-label={`${label}: ${value}`}>{value}</Text>
    </Card>
  );
}

function Lines({ title, lines, color }: { title: string; lines: string[]; color?: "red" }) {
  if (lines.length === 0) return null;
  return (
    <Box>
      <Heading as="h3" size="3" mb="1" color={color}>{title}</Heading>
      <Box asChild style={{ maxHeight: 240, overflowY: "auto", margin: 0 }}>
        <ul aria-label={title}>
          {lines.map((line, i) => (
            <li key={i}>
              <Text size="2" color={color}>{line}</Text>
            </li>
          ))}
        </ul>
      </Box>
    </Box>
  );
}

const percent = (share: number) => `${Math.round(share * 100)}%`;

/** The flips of the preview and the guard's verdict (docs/inventory.md "The guard"). */
function PreviewPanel({ preview }: { preview: PreviewResult }) {
  const off = preview.flips.filter((flip) => flip.to === "Inactive");
  const on = preview.flips.filter((flip) => flip.to === "Active");
  const guard = preview.guard;
  return (
    <Panel id="inv-preview" title="Changes Before Processing">
      <Flex direction="column" gap="3">
        {!guard.compared && (
          <Text as="p" size="2" color="gray">
            No delivered run to compare with yet: every item is new.
          </Text>
        )}
        {preview.held && (
          <Callout.Root color="amber" role="alert">
            <Callout.Text>
              This run would be held, not delivered: it turns {guard.turnedInactive} of{" "}
              {guard.previouslyActive}{" "}
              previously active items inactive ({percent(guard.share)}), more than the threshold of
              {" "}
              {percent(guard.threshold)}. Someone has to release it.
            </Callout.Text>
          </Callout.Root>
        )}
        <Text as="p" size="2">
          {preview.activeCount} active, {preview.inactiveCount} inactive; {off.length}{" "}
          {off.length === 1 ? "item turns" : "items turn"} inactive and {on.length}{" "}
          {on.length === 1 ? "item turns" : "items turn"} active against the last delivered run.
        </Text>
        <Grid columns={{ initial: "1", sm: "2" }} gap="3">
          <Lines
            title={`Active → Inactive (${off.length})`}
            lines={off.map((flip) => flip.itemNumber)}
          />
          <Lines
            title={`Inactive → Active (${on.length})`}
            lines={on.map((flip) => flip.itemNumber)}
          />
        </Grid>
      </Flex>
    </Panel>
  );
}

/** /inventory-sources/manually-process/{id}: upload a supplier file and process it now. */
export default function ManualProcessPage() {
  const params = useParams<{ id: string }>();
  const sourceId = Number(params.id) || 0;
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const loaded = useResource(["inventory-source", sourceId], async (signal) => {
    try {
      const source = await fetchInventorySource(sourceId, signal);
      const debugTools = typeof source.debugTools === "boolean"
        ? source.debugTools
        : await fetchInventorySettings(signal).then((s) => s.debugTools, () => false);
      return { source, debugTools };
    } catch (error) {
      if (!signal.aborted) console.error("Error loading inventory source", error);
      throw error;
    }
  });
  const source: LoadedInventorySource | null = loaded.data?.source ?? null;
  const debugTools = loaded.data?.debugTools ?? false;
  const loadError = loaded.error ? PROCESS_TEXTS.loadFailed : null;
  const [file, setFile] = useState<File | null>(null);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const [options, setOptions] = useState<UploadOptions>(NO_OPTIONS);
  // Each accepted file is a new choice, so choosing the same file again previews it again.
  const [choice, setChoice] = useState(0);
  const [processing, setProcessing] = useState(false);
  const [progress, setProgress] = useState<RunProgress | null>(null);
  const [result, setResult] = useState<ProcessResult | null>(null);
  const [debugging, setDebugging] = useState(false);
  const [debugResult, setDebugResult] = useState<ManualProcessResult | null>(null);
  const [debugError, setDebugError] = useState<string | null>(null);
  const [release, setRelease] = useState<{ busy: boolean; text?: string; ok?: boolean }>({
    busy: false,
  });

  // The preview of what the chosen file would flip (nothing is stored).
  const previewed = useResource(
    file && source ? ["inventory-preview", source.id, choice] : null,
    (signal) =>
      previewProcess(source!.id, file!, NO_OPTIONS, signal).catch((error) => {
        if (!signal.aborted) console.error("Error previewing inventory file", error);
        throw error;
      }),
  );
  const preview: PreviewResult | null = previewed.data ?? null;
  const previewing = previewed.loading;
  const previewError = previewed.error
    ? messageOr(previewed.error, "The preview could not be made.")
    : null;

  const fileType = source ? wantedType(source.fileType) : "";

  const choose = (chosen: File | undefined) => {
    // Changing the file clears the error (spec section 4).
    setUploadError(null);
    setDebugResult(null);
    setDebugError(null);
    if (!chosen) {
      setFile(null);
      return;
    }
    const problem = uploadProblem(source?.fileType ?? "", chosen);
    if (problem) {
      setFile(null);
      setUploadError(problem);
      if (input.current) input.current.value = "";
      return;
    }
    setFile(chosen);
    setChoice((n) => n + 1);
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    choose(event.dataTransfer.files[0]);
  };

  const clear = () => {
    setFile(null);
    setUploadError(null);
    setOptions(NO_OPTIONS);
    setDebugResult(null);
    setDebugError(null);
    if (input.current) input.current.value = "";
  };

  const processAnother = () => {
    setResult(null);
    setRelease({ busy: false });
    clear();
  };

  const process = async () => {
    if (!file || !source) return;
    setProcessing(true);
    setRelease({ busy: false });
    setResult(null);
    setProgress({ stage: "uploading", percent: 0 });
    try {
      const body = await manuallyProcessWithProgress(source.id, file, options, (sent, total) => {
        const percent = uploadPercent(sent, total);
        // Once the last byte is sent the server's work starts.
        setProgress((current) =>
          sent >= total
            ? current?.stage === "processing" ? current : { stage: "processing", since: Date.now() }
            : { stage: "uploading", percent }
        );
      });
      setResult(body ?? failedResult(PROCESS_TEXTS.processFailed));
    } catch (error) {
      if (!(error instanceof ApiError) || error.isNetworkFailure) {
        console.error("Error processing inventory file", error);
      }
      setResult(failedResult(messageOr(error, PROCESS_TEXTS.processFailed)));
    } finally {
      setProcessing(false);
      setProgress(null);
    }
  };

  const debugModify = async () => {
    if (!file || !source) return;
    setDebugging(true);
    setDebugError(null);
    setDebugResult(null);
    try {
      const body = await debugModifyFile(source.id, file);
      // The answer is used only when success is true (spec section 7).
      if (body?.success) setDebugResult(body);
      else setDebugError(body?.message || PROCESS_TEXTS.debugFailed);
    } catch (error) {
      if (!(error instanceof ApiError) || error.isNetworkFailure) {
        console.error("Error modifying inventory file", error);
      }
      setDebugError(messageOr(error, PROCESS_TEXTS.debugFailed));
    } finally {
      setDebugging(false);
    }
  };

  const releaseHeld = async () => {
    if (!result?.runId) return;
    setRelease({ busy: true });
    try {
      const answer = await releaseRun(result.runId);
      const failed = answer.delivery.error;
      setRelease({
        busy: false,
        ok: !failed,
        text: failed
          ? `Released, but the delivery failed: ${failed}`
          : "Released: the run has been delivered.",
      });
    } catch (error) {
      console.error("Error releasing inventory run", error);
      setRelease({
        busy: false,
        ok: false,
        text: messageOr(error, "The run could not be released."),
      });
    }
  };

  const back = (
    <Button variant="soft" asChild>
      <Link href="/inventory-sources">← Back to Inventory Sources</Link>
    </Button>
  );

  if (loadError) {
    return (
      <Container size="3" p="4">
        <Flex direction="column" gap="4" align="start">
          {back}
          <ErrorAlert>{loadError}</ErrorAlert>
        </Flex>
      </Container>
    );
  }
  if (!source) {
    return (
      <Container size="3" p="4">
        <Text as="p">Loading...</Text>
      </Container>
    );
  }

  const items = activatedItems(source.fileData.userActivatedItemNumbers);
  const fd = source.fileData;
  const title = result?.isDebugResult
    ? PROCESS_TEXTS.debugTitle
    : result?.success
    ? PROCESS_TEXTS.complete
    : PROCESS_TEXTS.failed;
  // A released run is no longer held: the banner and the Release button go (issue 24).
  const held = Boolean(result?.held || result?.runStatus === "held") && !release.ok;
  const released = release.ok === true;

  return (
    <Container size="3" p="4">
      <Flex direction="column" gap="4">
        <Box>{back}</Box>
        <Flex direction="column" gap="1">
          <Heading as="h1">{PROCESS_TEXTS.heading}</Heading>
          <Text as="p" color="gray">{source.sourceName}</Text>
        </Flex>

        <Panel id="inv-config" title="Source Configuration">
          <DataList.Root size="2">
            <Fact label="File Type">{source.fileType || "N/A"}</Fact>
            <Fact label="Item Column Name">{source.itemNumberColumnName}</Fact>
            <Fact label="Quantity Column Name">{source.qtyColumnName}</Fact>
            <Fact label="Min Items to Be Active">{source.minItemsToBeActive ?? "N/A"}</Fact>
            <Fact label="Expected Attachment Name">{source.attachmentName || "N/A"}</Fact>
          </DataList.Root>
        </Panel>

        {!result && (
          <>
            <Panel id="inv-upload" title="Upload File">
              <Flex direction="column" gap="3">
                <Box
                  p="5"
                  onDragOver={(event) => {
                    event.preventDefault();
                    setDragging(true);
                  }}
                  onDragLeave={() => setDragging(false)}
                  onDrop={onDrop}
                  data-testid="drop-zone"
                  style={{
                    border: `2px dashed var(${dragging ? "--accent-9" : "--gray-a7"})`,
                    borderRadius: "var(--radius-3)",
                    textAlign: "center",
                  }}
                >
                  <Flex direction="column" gap="2" align="center">
                    <Text as="label" htmlFor={inputId} weight="medium">
                      Supplier File {fileType ? `(.${fileType})` : ""}
                    </Text>
                    <Text size="2" color="gray">
                      Drag and drop the file here, or browse. Up to 10 MB.
                    </Text>
                    <input
                      ref={input}
                      id={inputId}
                      type="file"
                      accept={fileType ? `.${fileType}` : undefined}
                      onChange={(event) => choose(event.currentTarget.files?.[0])}
                    />
                    {file && (
                      <Text size="2">
                        Selected: {file.name} ({Math.ceil(file.size / 1024)} KB)
                      </Text>
                    )}
                  </Flex>
                </Box>
                {uploadError && (
                  <Callout.Root color="red" role="alert">
                    <Callout.Text>
                      <Text weight="bold">Error</Text>
                      <br />
                      {uploadError}
                    </Callout.Text>
                  </Callout.Root>
                )}
              </Flex>
            </Panel>

            <Panel id="inv-options" title="Processing Options">
              <Flex direction="column" gap="3">
                <SwitchField
                  label="Send Email Notification"
                  hint="E-mail the generated file and a summary to the inventory recipients and you."
                  checked={options.sendEmailNotification}
                  onChange={(on) => setOptions((o) => ({ ...o, sendEmailNotification: on }))}
                />
                <SwitchField
                  label="Submit via SFTP"
                  hint={source.sftpServerAddress
                    ? `Upload the generated file to ${source.sftpServerAddress}.`
                    : "The source has no SFTP server configured."}
                  checked={options.submitViaSftp}
                  onChange={(on) => setOptions((o) => ({ ...o, submitViaSftp: on }))}
                />
              </Flex>
            </Panel>

            <Panel id="inv-expected" title="Expected Output">
              <Flex direction="column" gap="1">
                <Text as="p" size="2">
                  A file in the format of the stored sample{" "}
                  {fd.inventoryFileName ? `(${fd.inventoryFileName})` : ""} listing every one of the
                  {" "}
                  {items.length} user activated items as Active or Inactive.
                </Text>
                <Text as="p" size="2">
                  Columns: item {fd.itemNumberColumnName || "N/A"}, status{" "}
                  {fd.itemStatusColumnName || "N/A"}, date {fd.itemStatusDateColumnName || "N/A"};
                  {fd.fileHasHeader
                    ? ` header row ${fd.headerRowIndex ?? "as in the sample"}.`
                    : " no header row."}
                </Text>
                <Text as="p" size="2">
                  An item is Active when its quantity is {source.minItemsToBeActive === null
                    ? "above 0"
                    : `at least ${source.minItemsToBeActive}`}
                  {source.statusSupersedesQuantity ? ", unless its status says otherwise" : ""}
                  {source.usesPredictiveAlgorithm
                    ? "; the predictive algorithm may turn items likely to sell out inactive"
                    : ""}. Items missing from the supplier file are Inactive.
                </Text>
              </Flex>
            </Panel>

            {previewing && <Text as="p" size="2" role="status">Checking what would change...</Text>}
            {previewError && <ErrorAlert>{previewError}</ErrorAlert>}
            {preview && <PreviewPanel preview={preview} />}

            <Flex gap="3" wrap="wrap" justify="end">
              <Button type="button" variant="soft" color="gray" onClick={clear}>Clear</Button>
              {debugTools && (
                <Button
                  type="button"
                  variant="outline"
                  color="orange"
                  disabled={!file || debugging || processing}
                  loading={debugging}
                  onClick={debugModify}
                >
                  Modify File for Debugging
                </Button>
              )}
              <Button
                type="button"
                disabled={!file || processing}
                loading={processing}
                onClick={process}
              >
                Process File
              </Button>
            </Flex>
            {debugError && <ErrorAlert>{debugError}</ErrorAlert>}
            {debugResult && <DebugPanel result={debugResult} />}
          </>
        )}

        {progress && <RunProgressPanel progress={progress} />}

        {result && (
          <Panel
            id="inv-result"
            title={
              <Flex gap="2" align="center">
                {title}
                <Badge color={result.success ? (held ? "amber" : "green") : "red"}>
                  {result.success ? (held ? "Held" : released ? "Released" : "Done") : "Failed"}
                </Badge>
              </Flex>
            }
          >
            <Flex direction="column" gap="3">
              {result.message && <Text as="p" size="2">{result.message}</Text>}
              {held && (
                <Callout.Root color="amber" role="alert">
                  <Callout.Text>
                    This run is held by the guard: it would turn too many previously active items
                    inactive, so nothing was delivered. Release it to deliver the file.
                  </Callout.Text>
                </Callout.Root>
              )}
              {held && (
                <Box>
                  <Button
                    type="button"
                    color="amber"
                    loading={release.busy}
                    onClick={releaseHeld}
                  >
                    Release
                  </Button>
                </Box>
              )}
              {release.text && <OutcomeAlert ok={release.ok}>{release.text}</OutcomeAlert>}
              {result.runId !== undefined && result.success && (
                // Loaded again once released: "held" no longer applies.
                <RunItemChanges key={String(released)} runId={result.runId} />
              )}
              <Grid columns="3" gap="3">
                <Count label="Processed" value={result.processedCount} />
                <Count label="Active" value={result.activeCount} />
                <Count label="Inactive" value={result.inactiveCount} />
              </Grid>
              <Lines title="Errors" lines={result.errors} color="red" />
              <Lines title="Processing Logs" lines={result.processingLogs} />
              <Flex gap="3" wrap="wrap">
                {result.fileData && result.fileName && (
                  <Button
                    type="button"
                    onClick={() => downloadBase64(result.fileName!, result.fileData!)}
                  >
                    Download {result.fileName}
                  </Button>
                )}
                <Button type="button" variant="soft" onClick={processAnother}>
                  Process Another
                </Button>
              </Flex>
            </Flex>
          </Panel>
        )}
      </Flex>
    </Container>
  );
}

/** The debug modification's result: the success text and rate, the changes, the download. */
function DebugPanel({ result }: { result: ManualProcessResult }) {
  const total = result.processingSummary?.totalRows ?? 0;
  const modified = result.modificationsCount;
  return (
    <Panel id="inv-debug" title={PROCESS_TEXTS.debugTitle}>
      <Flex direction="column" gap="3">
        <SuccessAlert>{PROCESS_TEXTS.debugSuccess}</SuccessAlert>
        <Text as="p" size="2">
          Success rate: {successRate(modified, total)}% ({modified} of {total} rows modified)
        </Text>
        <Lines
          title="Modifications"
          lines={(result.processingSummary?.modifications ?? []).map((m) =>
            `Row ${m.rowIndex}: ${m.itemNumber} ${m.originalQuantity ?? "-"} → ${
              m.newQuantity ?? "-"
            } (${m.reason})`
          )}
        />
        <Lines title="Debug Logs" lines={result.debugLogs} />
        {result.fileData && result.fileName && (
          <Box>
            <Button
              type="button"
              onClick={() => downloadBase64(result.fileName!, result.fileData!)}
            >
              Download {result.fileName}
            </Button>
          </Box>
        )}
      </Flex>
    </Panel>
  );
}
