/** Pieces the item pages and RunItemChanges share: status badges, the reason, dates. */
import { Badge, Flex, Text } from "@radix-ui/themes";
import type { InventoryItem } from "../../../../shared/contract/inventory_items.ts";

/** Active green, Inactive red, none gray ("Not delivered yet"). */
export function StatusBadge({ status }: { status: string | null }) {
  if (!status) return <Badge color="gray">Not delivered yet</Badge>;
  return <Badge color={status === "Active" ? "green" : "red"}>{status}</Badge>;
}

/** The rule in words, and "Held by the guard" when the last run would change the item. */
export function ItemReason({ item }: { item: InventoryItem }) {
  return (
    <Flex direction="column" gap="1" align="start">
      <Text size="2" style={{ overflowWrap: "anywhere" }}>{item.reason}</Text>
      {item.heldChange && (
        <Badge color="amber">Held by the guard: would turn {item.runStatus}</Badge>
      )}
    </Flex>
  );
}

/** A quantity as the list shows it: "—" when the file had none. */
export const quantityText = (q: number | null) => q === null ? "—" : q.toLocaleString("en-US");

/** A route parameter decoded once more (item numbers are encoded in links; see items_api.ts). */
export function decodeParam(value: string | undefined): string {
  if (!value) return "";
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
