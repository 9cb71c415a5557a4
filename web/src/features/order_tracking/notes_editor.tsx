import { Box, Text, TextArea } from "@radix-ui/themes";
import { type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { saveNote } from "./api.ts";

/** How long the saved highlight stays (spec part 1, section 4). */
export const SAVED_HIGHLIGHT_MS = 2000;

/**
 * The order's notes, edited in place: a click edits, Enter or leaving the field saves
 * (Shift+Enter starts a new line), Escape puts the text back. Unchanged text sends nothing; a
 * failed save puts the old text back.
 */
export function NotesEditor(
  { orderId, initial, editRequest = 0 }: {
    orderId: number;
    initial: string | null;
    /** Raised by the page's Edit Order button: each new value opens the editor. */
    editRequest?: number;
  },
) {
  const [saved, setSaved] = useState(initial ?? "");
  const [draft, setDraft] = useState(initial ?? "");
  const [editing, setEditing] = useState(false);
  const [highlight, setHighlight] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  // Escape and Enter end editing before the blur that follows; the blur must not save again.
  const finished = useRef(false);
  const labelId = useId();
  useEffect(() => () => clearTimeout(timer.current), []);

  const startEditing = () => {
    finished.current = false;
    setDraft(saved);
    setEditing(true);
  };

  useEffect(() => {
    if (editRequest > 0) startEditing();
  }, [editRequest]);

  const commit = async () => {
    if (finished.current) return;
    finished.current = true;
    setEditing(false);
    if (draft === saved) return;
    const previous = saved;
    setSaved(draft);
    try {
      await saveNote({ orderId, note: draft });
      clearTimeout(timer.current);
      setHighlight(true);
      timer.current = setTimeout(() => setHighlight(false), SAVED_HIGHLIGHT_MS);
    } catch (error) {
      console.error("Error saving note", error);
      setSaved(previous);
      setDraft(previous);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey) {
      event.preventDefault();
      commit();
    } else if (event.key === "Escape") {
      event.preventDefault();
      finished.current = true;
      setDraft(saved);
      setEditing(false);
    }
  };

  return (
    <Box>
      <Text as="div" id={labelId} size="2" weight="bold" mb="1">Notes</Text>
      {editing
        ? (
          <TextArea
            aria-labelledby={labelId}
            autoFocus
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            onBlur={commit}
            onKeyDown={onKeyDown}
          />
        )
        : (
          <button
            type="button"
            id={`${labelId}-button`}
            // "Notes" and then the button's own text, so the name holds what is seen (WCAG 2.5.3).
            aria-labelledby={`${labelId} ${labelId}-button`}
            aria-describedby={`${labelId}-hint`}
            data-saved={highlight ? "true" : undefined}
            onClick={startEditing}
            style={{
              all: "unset",
              display: "block",
              width: "100%",
              minHeight: "2.5em",
              padding: "var(--space-2)",
              borderRadius: "var(--radius-2)",
              border: "1px dashed var(--gray-a7)",
              whiteSpace: "pre-wrap",
              cursor: "text",
              boxSizing: "border-box",
              background: highlight ? "var(--green-a4)" : undefined,
              transition: "background 0.3s",
            }}
          >
            {saved || <Text color="gray">Click to add notes</Text>}
          </button>
        )}
      <Text as="p" id={`${labelId}-hint`} size="1" color="gray" mt="1">
        {editing ? "Enter saves, Escape cancels." : highlight ? "Saved" : "Click to edit."}
      </Text>
    </Box>
  );
}
