import { useEffect, useRef, useState } from "react";

/** A save button's states (spec part 1, section 4, Save forms). */
export type SaveState = "idle" | "saving" | "saved" | "error";

/** The button text of each state. */
export const SAVE_BUTTON_TEXT: Record<SaveState, string> = {
  idle: "Save",
  saving: "Saving...",
  saved: "Saved!",
  error: "Error - Try Again",
};

/**
 * Tracks a save: `run(fn)` goes to saving, then saved or error, and back to idle after
 * `resetMs`. Returns whether the save succeeded.
 */
export function useSaveState(resetMs: number) {
  const [state, setState] = useState<SaveState>("idle");
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const run = async (save: () => Promise<void>): Promise<boolean> => {
    clearTimeout(timer.current);
    setState("saving");
    let ok = false;
    try {
      await save();
      ok = true;
    } catch {
      ok = false;
    }
    setState(ok ? "saved" : "error");
    timer.current = setTimeout(() => setState("idle"), resetMs);
    return ok;
  };
  return { state, run };
}
