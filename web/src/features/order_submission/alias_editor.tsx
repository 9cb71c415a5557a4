/** The vendor's aliases: the list with Edit/Delete, and the inline editor with Save/Cancel. */
import { Button, Card, Flex, Grid, Heading, Text } from "@radix-ui/themes";
import { type KeyboardEvent, useState } from "react";
import { useForm } from "react-hook-form";
import {
  type VendorAlias,
  type VendorAliasForm,
  vendorAliasForm,
} from "../../../../shared/contract/order_submission.ts";
import { TextField } from "../../components/text_field.tsx";
import { formResolver } from "../../components/form_fields.tsx";

interface Props {
  aliases: VendorAlias[];
  /** Replaces the local list (aliases are saved with the vendor). */
  onChange(aliases: VendorAlias[]): void;
  /** Asks to delete the alias at `index` (the page confirms, calls the API for stored ones). */
  onDelete(index: number): void;
}

const EMPTY: VendorAliasForm = { vendorAliasNameFromFile: "", vendorProvidedAccountNumber: "" };

// Enter in an alias input must not submit the vendor form around it.
const noEnter = (event: KeyboardEvent) => {
  if (event.key === "Enter") event.preventDefault();
};

function Editor(
  { initial, onSave, onCancel }: {
    initial: VendorAliasForm;
    onSave(values: VendorAliasForm): void;
    onCancel(): void;
  },
) {
  const { register, handleSubmit, formState: { errors } } = useForm<VendorAliasForm>({
    resolver: formResolver(vendorAliasForm),
    defaultValues: initial,
  });
  return (
    <Card variant="surface" asChild>
      <div role="group" aria-label="Vendor alias">
        <Grid columns={{ initial: "1", sm: "2" }} gap="3" mb="3">
          <TextField
            label="Vendor Alias Name From File *"
            error={errors.vendorAliasNameFromFile?.message}
            onKeyDown={noEnter}
            {...register("vendorAliasNameFromFile")}
          />
          <TextField
            label="Alias Vendor Provided Account Number"
            error={errors.vendorProvidedAccountNumber?.message}
            onKeyDown={noEnter}
            {...register("vendorProvidedAccountNumber")}
          />
        </Grid>
        <Flex gap="2">
          <Button type="button" size="1" onClick={handleSubmit(onSave)}>Save</Button>
          <Button type="button" size="1" variant="soft" color="gray" onClick={onCancel}>
            Cancel
          </Button>
        </Flex>
      </div>
    </Card>
  );
}

/** "Add Vendor Alias", the alias list and its inline editor. */
export function AliasEditor({ aliases, onChange, onDelete }: Props) {
  // null: no editor; -1: a new alias; n: editing the alias at index n
  const [editing, setEditing] = useState<number | null>(null);

  const save = (values: VendorAliasForm) => {
    const trimmed = {
      vendorAliasNameFromFile: values.vendorAliasNameFromFile.trim(),
      vendorProvidedAccountNumber: values.vendorProvidedAccountNumber.trim(),
    };
    if (editing === -1) {
      onChange([...aliases, {
        id: 0,
        parentVendorSourceId: 0,
        activeStatus: true,
        deletedStatus: false,
        ...trimmed,
      }]);
    } else if (editing !== null) {
      onChange(aliases.map((alias, i) => i === editing ? { ...alias, ...trimmed } : alias));
    }
    setEditing(null);
  };

  return (
    <section aria-labelledby="aliases-heading">
      <Flex justify="between" align="center" mb="2">
        <Heading as="h3" size="3" id="aliases-heading">Vendor Aliases</Heading>
        <Button
          type="button"
          size="1"
          variant="soft"
          disabled={editing !== null}
          onClick={() => setEditing(-1)}
        >
          Add Vendor Alias
        </Button>
      </Flex>
      <Flex direction="column" gap="2">
        {editing === -1 && (
          <Editor
            initial={EMPTY}
            onSave={save}
            onCancel={() => setEditing(null)}
          />
        )}
        {aliases.length === 0 && editing !== -1 && <Text size="2" color="gray">No aliases.</Text>}
        <ul aria-label="Vendor aliases" style={{ listStyle: "none", margin: 0, padding: 0 }}>
          {aliases.map((alias, index) => (
            <li key={alias.id || `new-${index}`} style={{ marginBottom: 8 }}>
              {editing === index
                ? (
                  <Editor
                    initial={{
                      vendorAliasNameFromFile: alias.vendorAliasNameFromFile,
                      vendorProvidedAccountNumber: alias.vendorProvidedAccountNumber,
                    }}
                    onSave={save}
                    onCancel={() => setEditing(null)}
                  />
                )
                : (
                  <Flex justify="between" align="center" gap="2">
                    <Text size="2">
                      {alias.vendorAliasNameFromFile}
                      {alias.vendorProvidedAccountNumber &&
                        ` (Account: ${alias.vendorProvidedAccountNumber})`}
                    </Text>
                    <Flex gap="2">
                      <Button
                        type="button"
                        size="1"
                        variant="soft"
                        aria-label={`Edit alias ${alias.vendorAliasNameFromFile}`}
                        disabled={editing !== null}
                        onClick={() => setEditing(index)}
                      >
                        Edit
                      </Button>
                      <Button
                        type="button"
                        size="1"
                        variant="soft"
                        color="red"
                        aria-label={`Delete alias ${alias.vendorAliasNameFromFile}`}
                        disabled={editing !== null}
                        onClick={() =>
                          onDelete(index)}
                      >
                        Delete
                      </Button>
                    </Flex>
                  </Flex>
                )}
            </li>
          ))}
        </ul>
      </Flex>
    </section>
  );
}
