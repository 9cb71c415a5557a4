import { Box, Button, Dialog, Flex, Grid, Switch, Text } from "@radix-ui/themes";
import { useState } from "react";
import {
  type EnabledColumns,
  ORDER_TRACKING_COLUMNS,
  type OrderTrackingColumn,
} from "../../../../shared/contract/order_columns.ts";
import { ORDER_LABELS } from "../../../../shared/contract/order_tracking.ts";
import { ErrorAlert } from "../../components/error_alert.tsx";

interface Props {
  columns: EnabledColumns;
  /** Changes local state only; nothing is sent until Save Changes. */
  onToggle: (column: OrderTrackingColumn, on: boolean) => void;
  /** Persists the columns; rejects on failure. */
  onSave: () => Promise<void>;
}

/**
 * "Select Columns" button and its 900 px dialog: one switch per order tracking column, labelled
 * with the order list's column title, in three columns (one or two on a phone). The record keys id and userOrderTrackingViewSettingsId are not columns and get none.
 */
export function ColumnsDialog({ columns, onToggle, onSave }: Props) {
  const [open, setOpen] = useState(false);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const save = async () => {
    setSaving(true);
    setFailure(null);
    try {
      await onSave();
      setOpen(false);
    } catch (error) {
      setFailure(error instanceof Error ? error.message : "The columns could not be saved.");
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) setFailure(null);
      }}
    >
      <Dialog.Trigger>
        <Button variant="soft">Select Columns</Button>
      </Dialog.Trigger>
      <Dialog.Content maxWidth="900px">
        <Dialog.Title>Order Tracking Page View Columns</Dialog.Title>
        <Dialog.Description size="2" mb="4">
          Select which columns you want on your default view
        </Dialog.Description>
        {failure && (
          <Box mb="3">
            <ErrorAlert>{failure}</ErrorAlert>
          </Box>
        )}
        <Grid columns={{ initial: "1", xs: "2", sm: "3" }} gap="3" data-testid="column-switches">
          {ORDER_TRACKING_COLUMNS.map((column) => (
            <Text as="label" size="2" key={column}>
              <Flex gap="2" align="center">
                <Switch
                  checked={columns[column]}
                  onCheckedChange={(on) => onToggle(column, on)}
                />
                {ORDER_LABELS[column]}
              </Flex>
            </Text>
          ))}
        </Grid>
        <Flex justify="end" gap="3" mt="4">
          <Dialog.Close>
            <Button type="button" variant="soft" color="gray">Cancel</Button>
          </Dialog.Close>
          <Button type="button" loading={saving} onClick={save}>Save Changes</Button>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}
