import {
  Badge,
  Button,
  Card,
  Container,
  Flex,
  Grid,
  Heading,
  Table,
  Text,
  VisuallyHidden,
} from "@radix-ui/themes";
import { useEffect, useState } from "react";
import { Link } from "wouter";
import { deleteUser, fetchUsers, type UserAccount } from "./api.ts";
import { Loading } from "../../components/loading.tsx";
import { ListViewToggle, useListView } from "../../components/list_view.tsx";
import { DESKTOP_MIN_WIDTH } from "../../components/use_min_width.ts";
import { DeleteDialog } from "../../components/delete_dialog.tsx";

export const NO_USERS_CARDS = "No users found.";
export const NO_USERS_TABLE = "No results.";

const fullName = (user: UserAccount) => [user.firstName, user.lastName].filter(Boolean).join(" ");
const yesNo = (on: boolean) => (on ? "Yes" : "No");

function RowActions(
  { user, onDelete }: { user: UserAccount; onDelete: (user: UserAccount) => void },
) {
  return (
    <Flex gap="2">
      <Button asChild size="1" variant="soft" aria-label={`Edit ${user.username}`}>
        <Link href={`/admin/manage/users/edit/${user.userId}`}>Edit</Link>
      </Button>
      <Button
        size="1"
        variant="soft"
        color="red"
        aria-label={`Delete ${user.username}`}
        onClick={() => onDelete(user)}
      >
        Delete
      </Button>
    </Flex>
  );
}

function UsersTable(
  { users, onDelete }: { users: UserAccount[]; onDelete: (user: UserAccount) => void },
) {
  return (
    <Table.Root variant="surface">
      {/* Names the table itself (Table.Root's props land on its wrapper). */}
      <VisuallyHidden asChild>
        <caption>Users</caption>
      </VisuallyHidden>
      <Table.Header>
        <Table.Row>
          <Table.ColumnHeaderCell>Username</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Name</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Email</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Role</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Active</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Actions</Table.ColumnHeaderCell>
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {users.length === 0 && (
          <Table.Row>
            <Table.Cell colSpan={6}>{NO_USERS_TABLE}</Table.Cell>
          </Table.Row>
        )}
        {users.map((user) => (
          <Table.Row key={user.userId}>
            <Table.RowHeaderCell>{user.username}</Table.RowHeaderCell>
            <Table.Cell>{fullName(user)}</Table.Cell>
            <Table.Cell>{user.email}</Table.Cell>
            <Table.Cell>{user.isAdmin ? "Admin" : "User"}</Table.Cell>
            <Table.Cell>{yesNo(user.activeStatus)}</Table.Cell>
            <Table.Cell>
              <RowActions user={user} onDelete={onDelete} />
            </Table.Cell>
          </Table.Row>
        ))}
      </Table.Body>
    </Table.Root>
  );
}

function UserCards(
  { users, onDelete }: { users: UserAccount[]; onDelete: (user: UserAccount) => void },
) {
  if (users.length === 0) return <Text as="p" color="gray">{NO_USERS_CARDS}</Text>;
  return (
    <Grid columns={{ initial: "1", sm: "2" }} gap="3">
      {users.map((user) => (
        <Card key={user.userId} asChild>
          <article aria-label={user.username}>
            <Flex direction="column" gap="2">
              <Flex justify="between" align="center" gap="2">
                <Heading as="h2" size="4">{user.username}</Heading>
                <Badge color={user.isAdmin ? "indigo" : "gray"}>
                  {user.isAdmin ? "Admin" : "User"}
                </Badge>
              </Flex>
              {fullName(user) && <Text size="2">{fullName(user)}</Text>}
              <Text size="2" color="gray">{user.email}</Text>
              <Text size="2">Active: {yesNo(user.activeStatus)}</Text>
              <RowActions user={user} onDelete={onDelete} />
            </Flex>
          </article>
        </Card>
      ))}
    </Grid>
  );
}

/**
 * /admin/manage/users: a table from 1024 px with a table/cards toggle, cards only below it.
 */
export default function UsersPage() {
  const { view, chosen, setChosen, canChoose } = useListView(DESKTOP_MIN_WIDTH);
  const [users, setUsers] = useState<UserAccount[] | null>(null);
  const [toDelete, setToDelete] = useState<UserAccount | null>(null);
  const [deleteFailure, setDeleteFailure] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    fetchUsers()
      .then((list) => current && setUsers(list))
      .catch((error) => {
        console.error("Error fetching data", error);
        if (current) setUsers([]);
      });
    return () => {
      current = false;
    };
  }, []);

  const confirmDelete = async (): Promise<boolean> => {
    if (!toDelete) return false;
    setDeleteFailure(null);
    try {
      await deleteUser(toDelete.userId);
    } catch (error) {
      console.error("Delete failed", error);
      setDeleteFailure(error instanceof Error ? error.message : "The user could not be deleted.");
      return false;
    }
    setUsers((old) => old?.filter((row) => row.userId !== toDelete.userId) ?? null);
    return true;
  };
  const closeDelete = () => {
    setDeleteFailure(null);
    setToDelete(null);
  };

  return (
    <Container size="4" p="4">
      <Flex justify="between" align="center" gap="3" mb="4" wrap="wrap">
        <Heading as="h1">Manage Users</Heading>
        <Flex gap="3" align="center">
          {canChoose && <ListViewToggle value={chosen} onChange={setChosen} />}
          <Button asChild>
            <Link href="/admin/manage/users/edit/0">Add User</Link>
          </Button>
        </Flex>
      </Flex>
      {users === null
        ? <Loading label="Loading users" />
        : view === "table"
        ? <UsersTable users={users} onDelete={setToDelete} />
        : <UserCards users={users} onDelete={setToDelete} />}
      <DeleteDialog
        name={toDelete?.username ?? null}
        onCancel={closeDelete}
        onConfirm={confirmDelete}
        failure={deleteFailure}
      />
    </Container>
  );
}
