/**
 * Column pickers (issue 24; docs/web_decisions.md, "Column pickers"): once a sample or template
 * file is chosen, the column-name fields offer its headers through a `<datalist>` (the input
 * stays a text input with its label, so a name not in the file can still be typed), and a small
 * table with a caption previews the file's first rows.
 */
import { Box, Callout, Flex, Progress, Text } from "@radix-ui/themes";
import { type ReactNode, useEffect, useId, useMemo, useState } from "react";
import { decodeBase64 } from "../../../shared/base64.ts";
import { loadSamplePreview, type SamplePreview, type SampleSource } from "./sample_preview.ts";

/** What the picker knows of the sample: nothing yet, reading it, its preview, or why not. */
export type SampleState =
  | { stage: "none" }
  | { stage: "reading"; percent: number | null }
  | { stage: "ready"; preview: SamplePreview }
  | { stage: "failed"; message: string };

/** A header row typed in a form ("" or not a whole number ≥ 1: detect it). */
export function headerRowOf(text: string | number | null | undefined): number | null {
  const n = Number(String(text ?? "").trim());
  return Number.isInteger(n) && n >= 1 ? n : null;
}

/** Stored base64 content as a sample (null without content), kept while name and content hold. */
export function useStoredSample(
  name: string | null | undefined,
  base64: string | null | undefined,
): SampleSource | null {
  return useMemo(() => {
    if (!name || !base64) return null;
    try {
      return { name, blob: new Blob([decodeBase64(base64) as BlobPart]) };
    } catch {
      return null;
    }
  }, [name, base64]);
}

/** Typing a header row re-reads the sample once the typing pauses. */
const REREAD_AFTER_MS = 400;

/**
 * The preview of `sample` read with `headerRow`, read again when either changes. A read that
 * another one overtook is dropped.
 */
export function useSampleColumns(
  sample: SampleSource | null,
  headerRow: number | null,
): SampleState {
  const [state, setState] = useState<SampleState>({ stage: "none" });
  useEffect(() => {
    if (!sample) {
      setState({ stage: "none" });
      return;
    }
    let live = true;
    // Reading from the start (aria-busy), so nobody sees the fields before the headers arrive.
    setState({ stage: "reading", percent: null });
    const timer = setTimeout(async () => {
      try {
        const preview = await loadSamplePreview(sample, headerRow, (percent) => {
          if (live) setState({ stage: "reading", percent });
        });
        if (live) setState({ stage: "ready", preview });
      } catch (error) {
        if (!live) return;
        const reason = error instanceof Error ? error.message : String(error);
        setState({ stage: "failed", message: reason });
      }
    }, REREAD_AFTER_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [sample, headerRow]);
  return state;
}

/** The `list` attribute of a column field: the datalist's id once there are headers. */
export function columnList(state: SampleState, listId: string): string | undefined {
  return state.stage === "ready" && state.preview.headers.some(Boolean) ? listId : undefined;
}

/**
 * The sample's state where the column fields are: reading (with the upload's percentage), why it
 * could not be read, or the datalist of its headers and the preview of its first rows.
 */
export function SampleColumnsPanel(
  { state, listId, what }: { state: SampleState; listId: string; what: string },
) {
  if (state.stage === "none") return null;
  if (state.stage === "reading") {
    return (
      <Flex
        direction="column"
        gap="1"
        role="status"
        aria-label={`Reading the ${what}`}
        aria-busy="true"
      >
        <Text as="p" size="2">
          {state.percent === null || state.percent >= 100
            ? `Reading the columns of the ${what}…`
            : `Uploading the ${what} to read its columns: ${state.percent}%`}
        </Text>
        {state.percent !== null && (
          <Progress value={state.percent} aria-label={`Uploading the ${what}`} />
        )}
      </Flex>
    );
  }
  if (state.stage === "failed") {
    return (
      <Callout.Root color="red" highContrast role="alert">
        <Callout.Text>
          The columns of the {what} could not be read: {state.message}{" "}
          Type the column names instead.
        </Callout.Text>
      </Callout.Root>
    );
  }
  return <SamplePreviewTable preview={state.preview} listId={listId} what={what} />;
}

/** A preview cell: whole values on one line (the region scrolls instead), a row rule. */
const CELL = {
  padding: "var(--space-2) var(--space-3)",
  textAlign: "start",
  whiteSpace: "nowrap",
  borderTop: "1px solid var(--gray-a5)",
} as const;

function SamplePreviewTable(
  { preview, listId, what }: { preview: SamplePreview; listId: string; what: string },
) {
  const captionId = useId();
  const names = [...new Set(preview.headers.filter((header) => header !== ""))];
  const shown = preview.rows.length;
  const where = preview.headerRow === null ? "" : ` (header row ${preview.headerRow})`;
  return (
    <Flex direction="column" gap="2">
      <datalist id={listId}>
        {names.map((name) => <option key={name} value={name} />)}
      </datalist>
      <Text as="p" size="2" color="gray">
        {names.length} columns found in {preview.fileName}
        {where}: pick one in the column fields below, or type a name.
      </Text>
      {
        /* A plain table: Radix's Table.Root adds a scroll area of its own that keyboards cannot
          reach (axe: scrollable-region-focusable); this region scrolls and takes focus. */
      }
      <Box
        role="region"
        aria-labelledby={captionId}
        tabIndex={0}
        style={{
          overflowX: "auto",
          maxWidth: "100%",
          border: "1px solid var(--gray-a6)",
          borderRadius: "var(--radius-3)",
        }}
      >
        <table style={{ borderCollapse: "collapse", minWidth: "100%" }}>
          <caption id={captionId} style={{ textAlign: "start", padding: "var(--space-2)" }}>
            <Text size="2" weight="medium">
              Preview of the {what}: {shown === 0
                ? "no rows below the headers"
                : `first ${shown} of ${preview.rowCount} rows`}
            </Text>
          </caption>
          <thead>
            <tr style={{ background: "var(--gray-a2)" }}>
              {preview.headers.map((header, i) => (
                <th key={i} scope="col" style={CELL}>
                  <Text size="2" weight="bold">{header}</Text>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {preview.rows.map((row, r) => (
              <tr key={r}>
                {row.map((cell, i) => (
                  <td key={i} style={CELL}>
                    <Text size="2">{cell}</Text>
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </Box>
    </Flex>
  );
}

/** File types a sample may have (what the shared readers read). */
export const SAMPLE_ACCEPT = ".csv,.txt,.xls,.xlsx";

/**
 * A labelled file input for a sample that is only read here, never stored (the order tracking
 * source, the supplier's file of an inventory source): it gives the chosen file as a sample.
 */
export function SampleFileInput(
  { label, hint, onChoose }: {
    label: string;
    hint: string;
    onChoose: (sample: SampleSource | null) => void;
  },
) {
  const id = useId();
  return (
    <Flex direction="column" gap="1">
      <Text as="label" htmlFor={id} size="2" weight="medium">{label}</Text>
      <input
        id={id}
        type="file"
        accept={SAMPLE_ACCEPT}
        aria-describedby={`${id}-hint`}
        onChange={(event) => {
          const file = event.currentTarget.files?.[0];
          onChoose(file ? { name: file.name, blob: file } : null);
        }}
      />
      <Text id={`${id}-hint`} size="1" color="gray">{hint}</Text>
    </Flex>
  );
}

/**
 * A sample read only to offer its columns ({@link SampleFileInput}), its state, and the column
 * fields, which `children` renders with the datalist's id for their `list` attribute.
 */
export function LocalSampleColumns(
  { label, hint, what, children }: {
    label: string;
    hint: string;
    what: string;
    children: (list: string | undefined) => ReactNode;
  },
) {
  const [sample, setSample] = useState<SampleSource | null>(null);
  const state = useSampleColumns(sample, null);
  const listId = useId();
  return (
    <Flex direction="column" gap="3">
      <SampleFileInput label={label} hint={hint} onChoose={setSample} />
      <SampleColumnsPanel state={state} listId={listId} what={what} />
      {children(columnList(state, listId))}
    </Flex>
  );
}
