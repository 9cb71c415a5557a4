import { Button } from "@radix-ui/themes";
import { SAVE_BUTTON_TEXT, type SaveState } from "./use_save_state.ts";

/**
 * The source edit pages' submit button: its text follows the save state (Save, Saving...,
 * Saved!, Error - Try Again); disabled while saving, green once saved, red after a failure.
 */
export function SaveButton({ state }: { state: SaveState }) {
  return (
    <Button
      type="submit"
      disabled={state === "saving"}
      color={state === "error" ? "red" : state === "saved" ? "green" : undefined}
    >
      {SAVE_BUTTON_TEXT[state]}
    </Button>
  );
}
