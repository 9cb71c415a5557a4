import { Button, DropdownMenu } from "@radix-ui/themes";

/** A "Columns" menu with one checkbox per column; the menu stays open while several change. */
export function ColumnChooser<K extends string>(
  { columns, labels, visible, onToggle }: {
    /** Every column that can be shown, in menu order. */
    columns: readonly K[];
    labels: Record<K, string>;
    visible: ReadonlySet<K>;
    onToggle(column: K): void;
  },
) {
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger>
        <Button variant="soft" type="button">
          Columns
          <DropdownMenu.TriggerIcon />
        </Button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Content>
        {columns.map((column) => (
          <DropdownMenu.CheckboxItem
            key={column}
            checked={visible.has(column)}
            // Keep the menu open while several columns are switched.
            onSelect={(event) => event.preventDefault()}
            onCheckedChange={() => onToggle(column)}
          >
            {labels[column]}
          </DropdownMenu.CheckboxItem>
        ))}
      </DropdownMenu.Content>
    </DropdownMenu.Root>
  );
}
