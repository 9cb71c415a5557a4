/** Form pieces of the inventory pages: a labelled switch and the e-mail source select. */
import { zodResolver } from "@hookform/resolvers/zod";
import type { FieldValues, Resolver } from "react-hook-form";
import type { z } from "zod";
import { Flex, Select, Switch, Text, TextArea } from "@radix-ui/themes";
import { type ComponentPropsWithRef, useId } from "react";

/** A labelled on/off switch (the label is tied to the switch). */
export function SwitchField(
  { label, checked, onChange, hint }: {
    label: string;
    checked: boolean;
    onChange(on: boolean): void;
    hint?: string;
  },
) {
  const id = useId();
  return (
    <Flex direction="column" gap="1">
      <Flex gap="2" align="center">
        <Switch id={id} checked={checked} onCheckedChange={onChange} />
        <Text as="label" htmlFor={id} size="2" weight="medium">{label}</Text>
      </Flex>
      {hint && <Text size="1" color="gray">{hint}</Text>}
    </Flex>
  );
}

interface NameSelectProps {
  label: string;
  /** The selected name, "" for none. */
  value: string;
  onChange(value: string): void;
  names: readonly string[];
  placeholder: string;
  error?: string;
}

/** A labelled select over names (the e-mail source is chosen by name, sent as its id). */
export function NameSelect(
  { label, value, onChange, names, placeholder, error }: NameSelectProps,
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
          {names.map((name) => <Select.Item key={name} value={name}>{name}</Select.Item>)}
        </Select.Content>
      </Select.Root>
      {error && <Text id={errorId} size="2" color="red">{error}</Text>}
    </Flex>
  );
}

/**
 * zodResolver for the contract's form schema, typed by its output (the schema's input type makes
 * some fields optional where the form always holds a value).
 */
export function formResolver<T extends FieldValues>(schema: z.ZodType<T, unknown>): Resolver<T> {
  // deno-lint-ignore no-explicit-any
  return zodResolver(schema as any) as unknown as Resolver<T>;
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
