/** Form pieces the order submission pages share: labelled switch, picker select, text area. */
import { zodResolver } from "@hookform/resolvers/zod";
import type { FieldValues, Resolver } from "react-hook-form";
import type { z } from "zod";
import { Flex, Select, Switch, Text, TextArea } from "@radix-ui/themes";
import { type ComponentPropsWithRef, useId } from "react";
import type { PickerPair } from "./api.ts";

/** A labelled on/off switch (the label is tied to the switch). */
export function SwitchField(
  { label, checked, onChange }: { label: string; checked: boolean; onChange(on: boolean): void },
) {
  const id = useId();
  return (
    <Flex gap="2" align="center">
      <Switch id={id} checked={checked} onCheckedChange={onChange} />
      <Text as="label" htmlFor={id} size="2" weight="medium">{label}</Text>
    </Flex>
  );
}

interface PickerFieldProps {
  label: string;
  /** The selected id as text, "" for none. */
  value: string;
  onChange(value: string): void;
  options: readonly PickerPair[];
  placeholder: string;
  error?: string;
}

/** A labelled select over picker pairs (item1 shown, item2 the value). */
export function PickerField(
  { label, value, onChange, options, placeholder, error }: PickerFieldProps,
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
            <Select.Item key={option.item2} value={String(option.item2)}>
              {option.item1}
            </Select.Item>
          ))}
        </Select.Content>
      </Select.Root>
      {error && <Text id={errorId} size="2" color="red">{error}</Text>}
    </Flex>
  );
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
