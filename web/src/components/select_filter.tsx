import { Flex, Select, Text } from "@radix-ui/themes";
import { useId } from "react";

/** The value of a filter's "All" choice (no filter). */
export const ALL = "all";

interface SelectFilterProps {
  label: string;
  value: string;
  onChange(value: string): void;
  options: readonly { value: string; label: string }[];
}

/**
 * A list filter as a labelled select whose first choice is "All" (value {@link ALL}); used by
 * the run history and the activity log.
 */
export function SelectFilter({ label, value, onChange, options }: SelectFilterProps) {
  const id = useId();
  return (
    <Flex direction="column" gap="1">
      <Text as="label" htmlFor={id} size="2" weight="medium">{label}</Text>
      <Select.Root value={value} onValueChange={onChange}>
        <Select.Trigger id={id} />
        <Select.Content>
          <Select.Item value={ALL}>All</Select.Item>
          {options.map((option) => (
            <Select.Item key={option.value} value={option.value}>{option.label}</Select.Item>
          ))}
        </Select.Content>
      </Select.Root>
    </Flex>
  );
}
