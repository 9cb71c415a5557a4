/**
 * The shared form fields bound to a react-hook-form field by name: a switch for a boolean field,
 * a select for a string field. The field's validation message shows under the select.
 */
import { type Control, Controller, type FieldPathByValue, type FieldValues } from "react-hook-form";
import { SelectField, type SelectOption, SwitchField } from "./form_fields.tsx";

/** A {@link SwitchField} for the boolean form field `name`. */
export function SwitchControl<T extends FieldValues>(
  { control, name, label, hint }: {
    control: Control<T>;
    name: FieldPathByValue<T, boolean>;
    label: string;
    hint?: string;
  },
) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <SwitchField
          label={label}
          hint={hint}
          checked={Boolean(field.value)}
          onChange={field.onChange}
        />
      )}
    />
  );
}

/** A {@link SelectField} for the string form field `name`, with that field's message. */
export function SelectControl<T extends FieldValues>(
  { control, name, label, options, placeholder }: {
    control: Control<T>;
    name: FieldPathByValue<T, string>;
    label: string;
    options: readonly SelectOption[];
    placeholder: string;
  },
) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <SelectField
          label={label}
          value={field.value}
          onChange={field.onChange}
          options={options}
          placeholder={placeholder}
          error={fieldState.error?.message}
        />
      )}
    />
  );
}

/** Plain strings as select options (each its own label). */
export function textOptions(values: readonly string[]): SelectOption[] {
  return values.map((value) => ({ value, label: value }));
}
