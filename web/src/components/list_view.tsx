import { SegmentedControl } from "@radix-ui/themes";
import { useState } from "react";
import { useMinWidth } from "./use_min_width.ts";

/** How a list page shows its rows. */
export type ListView = "table" | "cards";

/**
 * The list pages' view rule (spec: "starts as table; forced to cards on narrow windows"): the
 * chosen view from `minWidth` up, cards below it. `canChoose` says whether to show the toggle.
 */
export function useListView(minWidth: number) {
  const wide = useMinWidth(minWidth);
  const [chosen, setChosen] = useState<ListView>("table");
  return { view: wide ? chosen : "cards", chosen, setChosen, canChoose: wide } as const;
}

/** The Table/Cards toggle shown beside a list's heading. */
export function ListViewToggle(
  { value, onChange }: { value: ListView; onChange(view: ListView): void },
) {
  return (
    <SegmentedControl.Root
      value={value}
      onValueChange={(next) => onChange(next as ListView)}
      aria-label="View"
    >
      <SegmentedControl.Item value="table">Table</SegmentedControl.Item>
      <SegmentedControl.Item value="cards">Cards</SegmentedControl.Item>
    </SegmentedControl.Root>
  );
}
