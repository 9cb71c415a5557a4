import { Card, Flex, Heading, Switch, Text } from "@radix-ui/themes";
import type { ReactNode } from "react";

/**
 * One row of a source list in the cards view: a section named after the row, its name as the h2
 * with the row's actions menu beside it, then the card's facts.
 */
export function ListCard(
  { name, menu, headerGap, children }: {
    name: string;
    /** Shown at the right of the heading (usually a RowActionsMenu). */
    menu: ReactNode;
    /** Space between the heading and the menu; none by default. */
    headerGap?: "2";
    children: ReactNode;
  },
) {
  return (
    <Card asChild>
      <section aria-label={name}>
        <Flex justify="between" align="center" mb="2" gap={headerGap}>
          <Heading as="h2" size="4">{name}</Heading>
          {menu}
        </Flex>
        {children}
      </section>
    </Card>
  );
}

/**
 * A card's "Active" switch that selects the row on the page only (the cards' twin of the table's
 * Active checkbox, see useSelection).
 */
export function SelectionSwitch({ checked, onToggle }: { checked: boolean; onToggle(): void }) {
  return (
    <Text as="label" size="2">
      <Flex gap="2" align="center">
        <Switch checked={checked} onCheckedChange={onToggle} />
        Active
      </Flex>
    </Text>
  );
}
