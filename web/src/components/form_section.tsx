import { Card, Heading, Text } from "@radix-ui/themes";
import { type ReactNode, useId } from "react";

/**
 * A titled part of an edit form: a card holding a section named by its h2 title, with an
 * optional grey description under the title.
 */
export function FormSection(
  { title, description, size, children }: {
    title: string;
    description?: ReactNode;
    /** The card's size; Radix's default when not given. */
    size?: "3";
    children: ReactNode;
  },
) {
  const id = useId();
  return (
    <Card size={size} asChild>
      <section aria-labelledby={id}>
        <Heading as="h2" size="4" id={id} mb={description ? "1" : "3"}>{title}</Heading>
        {description && <Text as="p" size="2" color="gray" mb="3">{description}</Text>}
        {children}
      </section>
    </Card>
  );
}
