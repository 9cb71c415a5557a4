import { Box, Button, Dialog, DropdownMenu, Flex, Separator, Text } from "@radix-ui/themes";
import { useAtomValue } from "jotai";
import { useState } from "react";
import { Link, useLocation } from "wouter";
import { currentUserAtom, type Permissions, permissionsOf } from "../state/session.ts";
import { isCurrent, type NavItem } from "./nav_items.ts";
import { ThemeToggle } from "./theme_toggle.tsx";
import { useLogout } from "./use_logout.ts";

function NavLinks({ items, onNavigate }: { items: NavItem[]; onNavigate?: () => void }) {
  const [location] = useLocation();
  return items.map((item) => (
    <Link
      key={item.href}
      href={item.href}
      className="nav-link"
      aria-current={isCurrent(item, location) ? "page" : undefined}
      onClick={onNavigate}
    >
      {item.label}
    </Link>
  ));
}

function AccountMenu() {
  const [, navigate] = useLocation();
  const logout = useLogout();
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger>
        <Button variant="soft">
          Account
          <DropdownMenu.TriggerIcon />
        </Button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Content align="end">
        <DropdownMenu.Item onSelect={() => navigate("/account")}>Manage</DropdownMenu.Item>
        <DropdownMenu.Item onSelect={logout}>Logout</DropdownMenu.Item>
      </DropdownMenu.Content>
    </DropdownMenu.Root>
  );
}

/** Under 768 px the menu lives in a side drawer, a real modal dialog. */
function MobileDrawer({ items }: { items: NavItem[] }) {
  const [open, setOpen] = useState(false);
  const [, navigate] = useLocation();
  const logout = useLogout();
  const close = () => setOpen(false);
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger>
        <Button variant="soft">Open menu</Button>
      </Dialog.Trigger>
      <Dialog.Content className="nav-drawer" aria-describedby={undefined}>
        <Dialog.Title>Menu</Dialog.Title>
        <nav aria-label="Main">
          <Flex direction="column" gap="3">
            <NavLinks items={items} onNavigate={close} />
          </Flex>
        </nav>
        <Separator size="4" my="4" />
        <Text as="p" weight="bold" mb="2">Account</Text>
        <Flex direction="column" gap="2" align="start">
          <Button
            variant="ghost"
            onClick={() => {
              close();
              navigate("/account");
            }}
          >
            Manage
          </Button>
          <Button
            variant="ghost"
            onClick={() => {
              close();
              logout();
            }}
          >
            Logout
          </Button>
        </Flex>
        <Separator size="4" my="4" />
        <ThemeToggle />
        <Flex justify="end" mt="4">
          <Dialog.Close>
            <Button variant="soft" color="gray">Close menu</Button>
          </Dialog.Close>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}

/** The top bar of every guarded page: menu by flags, account menu and theme toggle. */
export function NavBar(
  { itemsFor }: { itemsFor(permissions: Permissions): NavItem[] },
) {
  const items = itemsFor(permissionsOf(useAtomValue(currentUserAtom)));
  return (
    <Box asChild px="4" py="3" className="nav-bar">
      <header>
        <Flex align="center" gap="5">
          <Text size="4" weight="bold">Source Manager</Text>
          <nav aria-label="Main" className="nav-desktop">
            <Flex gap="4" align="center">
              <NavLinks items={items} />
            </Flex>
          </nav>
          <Flex ml="auto" gap="3" align="center" className="nav-desktop">
            <ThemeToggle />
            <AccountMenu />
          </Flex>
          <Box ml="auto" className="nav-mobile">
            <MobileDrawer items={items} />
          </Box>
        </Flex>
      </header>
    </Box>
  );
}
