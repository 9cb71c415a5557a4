import type { ReactNode } from "react";
import { DropdownMenu, IconButton } from "@radix-ui/themes";
import { useLocation } from "wouter";

/** What one list row's "⋯" menu offers. */
export interface RowActionsMenuProps {
  /** The row's name, read out as "Actions for <name>". */
  name: string;
  /** Where "Edit" goes. */
  editHref: string;
  /** "Delete": usually opens the list page's delete dialog. */
  onDelete(): void;
  /** Further items, shown between Edit and Delete. */
  children?: ReactNode;
}

/**
 * The source lists' row menu: a ghost "⋯" button labelled "Actions for <name>" opening Edit, any
 * further items, and a red Delete.
 */
export function RowActionsMenu({ name, editHref, onDelete, children }: RowActionsMenuProps) {
  const [, navigate] = useLocation();
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger>
        <IconButton variant="ghost" aria-label={`Actions for ${name}`}>⋯</IconButton>
      </DropdownMenu.Trigger>
      <DropdownMenu.Content>
        <DropdownMenu.Item onSelect={() => navigate(editHref)}>Edit</DropdownMenu.Item>
        {children}
        <DropdownMenu.Item color="red" onSelect={onDelete}>Delete</DropdownMenu.Item>
      </DropdownMenu.Content>
    </DropdownMenu.Root>
  );
}
