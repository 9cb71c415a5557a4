/**
 * Form pieces the source edit pages share (order submission, inventory, notifications): a
 * labelled switch, a labelled select, a labelled text area, and the zod resolver typed by the
 * schema's output.
 */
import { zodResolver } from "@hookform/resolvers/zod";
import { Flex, Select, Switch, Text, TextArea } from "@radix-ui/themes";
import { type ComponentPropsWithRef, useId } from "react";
import type { FieldValues, Resolver } from "react-hook-form";
import type { z } from "zod";

/** A labelled on/off switch (the label is tied to the switch), with an optional hint under it. */
export function SwitchField(
  { label, checked, onChange, hint }: {
    label: string;
    checked: boolean;
    onChange(on: boolean): void;
    hint?: string;
  },
) {
  const id = useId();
  const row = (
    <Flex gap="2" align="center">
      <Switch id={id} checked={checked} onCheckedChange={onChange} />
      <Text as="label" htmlFor={id} size="2" weight="medium">{label}</Text>
    </Flex>
  );
  if (!hint) return row;
  return (
    <Flex direction="column" gap="1">
      {row}
      <Text size="1" color="gray">{hint}</Text>
    </Flex>
  );
}

/** One choice of a {@link SelectField}. */
export interface SelectOption {
  value: string;
  label: string;
}

interface SelectFieldProps {
  label: string;
  /** The selected value, "" for none. */
  value: string;
  onChange(value: string): void;
  options: readonly SelectOption[];
  placeholder?: string;
  error?: string;
}

/** A labelled select with its validation message. */
export function SelectField(
  { label, value, onChange, options, placeholder, error }: SelectFieldProps,
) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <Flex direction="column" gap="1">
      <Text as="label" htmlFor={id} size="2" weight="medium">{label}</Text>
      <Select.Root value={value || undefined} onValueChange={onChange}>
        <Select.Trigger
          id={id}
          placeholder={placeholder}
          color={error ? "red" : undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
        />
        <Select.Content>
          {options.map((option) => (
            <Select.Item key={option.value} value={option.value}>{option.label}</Select.Item>
          ))}
        </Select.Content>
      </Select.Root>
      {error && <Text id={errorId} size="2" color="red">{error}</Text>}
    </Flex>
  );
}

/** Picker pairs (item1 shown, item2 the id) as select options. */
export function pairOptions(pairs: readonly { item1: string; item2: number }[]): SelectOption[] {
  return pairs.map((pair) => ({ value: String(pair.item2), label: pair.item1 }));
}

type TextAreaProps = Omit<ComponentPropsWithRef<typeof TextArea>, "id">;

/** A labelled multi-line input with its validation message; works with `register`. */
export function TextAreaField(
  { label, error, ...props }: TextAreaProps & { label: string; error?: string },
) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <Flex direction="column" gap="1">
      <Text as="label" htmlFor={id} size="2" weight="medium">{label}</Text>
      <TextArea
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        color={error ? "red" : undefined}
        {...props}
      />
      {error && <Text id={errorId} size="2" color="red">{error}</Text>}
    </Flex>
  );
}

/**
 * zodResolver for the contract's form schemas, typed by their output: their required fields
 * `prefault("")`, which makes the input type optional where the form always holds a value.
 */
export function formResolver<T extends FieldValues>(schema: z.ZodType<T, unknown>): Resolver<T> {
  // deno-lint-ignore no-explicit-any
  return zodResolver(schema as any) as unknown as Resolver<T>;
}
