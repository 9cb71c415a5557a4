import { SegmentedControl } from "@radix-ui/themes";
import { useAtom } from "jotai";
import { type ThemeChoice, themeChoiceAtom } from "../state/theme.ts";

/** Light / Dark / System switch; the choice is remembered in this browser. */
export function ThemeToggle() {
  const [choice, setChoice] = useAtom(themeChoiceAtom);
  return (
    <SegmentedControl.Root
      aria-label="Theme"
      size="1"
      value={choice}
      onValueChange={(value) => setChoice(value as ThemeChoice)}
    >
      <SegmentedControl.Item value="light">Light</SegmentedControl.Item>
      <SegmentedControl.Item value="dark">Dark</SegmentedControl.Item>
      <SegmentedControl.Item value="system">System</SegmentedControl.Item>
    </SegmentedControl.Root>
  );
}
