import { Card, Flex, Heading } from "@radix-ui/themes";
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
