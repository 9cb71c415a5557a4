import { Badge, Checkbox, Flex, Switch } from "@radix-ui/themes";

/**
 * A table's "Active" cell: a checkbox that shows the source's state (checked when active) and
 * changes on this page only (useActiveToggles).
 */
export function ActiveCheckbox(
  { name, checked, onChange }: { name: string; checked: boolean; onChange(on: boolean): void },
) {
  return (
    <Checkbox
      aria-label={`Active: ${name}`}
      checked={checked}
      onCheckedChange={(on) => onChange(on === true)}
    />
  );
}

/**
 * A card's "Active" line: a switch that starts at the source's stored state (local only, see
 * useActiveToggles) and a badge that says the state in words.
 */
export function ActiveSwitch(
  { name, checked, onChange, badge = true }: {
    name: string;
    checked: boolean;
    onChange(on: boolean): void;
    /** Off where the card says the state on its own line (the spec's "Active yes/no"). */
    badge?: boolean;
  },
) {
  return (
    <Flex gap="2" align="center">
      <Switch aria-label={`Active: ${name}`} checked={checked} onCheckedChange={onChange} />
      {badge && <Badge color={checked ? "green" : "gray"}>{checked ? "Active" : "Inactive"}</Badge>}
    </Flex>
  );
}
