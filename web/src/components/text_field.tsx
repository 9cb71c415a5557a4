import { Flex, Text, TextField as RadixTextField } from "@radix-ui/themes";
import { type ComponentPropsWithRef, useId } from "react";

type InputProps = Omit<ComponentPropsWithRef<typeof RadixTextField.Root>, "id">;

interface Props extends InputProps {
  /** Visible label, tied to the input. */
  label: string;
  /** Field message shown under the input and announced with it. */
  error?: string;
}

/** A labelled text input with its validation message; works with react-hook-form's register. */
export function TextField({ label, error, ...inputProps }: Props) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <Flex direction="column" gap="1">
      <Text as="label" htmlFor={id} size="2" weight="medium">{label}</Text>
      <RadixTextField.Root
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        color={error ? "red" : undefined}
        {...inputProps}
      />
      {error && <Text id={errorId} size="2" color="red">{error}</Text>}
    </Flex>
  );
}
