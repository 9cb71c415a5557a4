import { Badge, Button, Card, Flex, Grid, Heading, Text } from "@radix-ui/themes";
import { Link } from "wouter";
import { deleteUser, fetchUsers, type UserAccount } from "./api.ts";
import { type DataColumn, DataTable } from "../../components/data_table.tsx";
import { ListPage } from "../../components/list_page.tsx";
import { DESKTOP_MIN_WIDTH } from "../../components/use_min_width.ts";
import { useResource } from "../../components/use_resource.ts";
import { loggedLoader } from "../../components/logged_loader.ts";

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
  { users, onDelete }: { users: readonly UserAccount[]; onDelete: (user: UserAccount) => void },
) {
  const columns: DataColumn<UserAccount>[] = [
    { key: "username", header: "Username", rowHeader: true, cell: (user) => user.username },
    { key: "name", header: "Name", cell: fullName },
    { key: "email", header: "Email", cell: (user) => user.email },
    { key: "role", header: "Role", cell: (user) => (user.isAdmin ? "Admin" : "User") },
    { key: "active", header: "Active", cell: (user) => yesNo(user.activeStatus) },
    {
      key: "actions",
      header: "Actions",
      cell: (user) => <RowActions user={user} onDelete={onDelete} />,
    },
  ];
  return (
    <DataTable
      rows={users}
      columns={columns}
      rowKey={(user) => user.userId}
      caption="Users"
      empty={NO_USERS_TABLE}
    />
  );
}

function UserCards(
  { users, onDelete }: { users: readonly UserAccount[]; onDelete: (user: UserAccount) => void },
) {
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
  const list = useResource(["users"], loggedLoader(fetchUsers, "Error fetching data"));
  const users = list.data ?? (list.error ? [] : undefined);

  const remove = async (user: UserAccount) => {
    try {
      await deleteUser(user.userId);
    } catch (error) {
      console.error("Delete failed", error);
      throw error;
    }
    list.setData((old) => old?.filter((row) => row.userId !== user.userId));
  };

  return (
    <ListPage
      title="Manage Users"
      addHref="/admin/manage/users/edit/0"
      addLabel="Add User"
      toggleFrom={DESKTOP_MIN_WIDTH}
      rows={users}
      loadingLabel="Loading users"
      table={(rows, { askDelete }) => <UsersTable users={rows} onDelete={askDelete} />}
      cards={(rows, { askDelete }) => <UserCards users={rows} onDelete={askDelete} />}
      emptyCards={NO_USERS_CARDS}
      deletion={{
        nameOf: (user) => user.username,
        remove,
        failureText: (error) =>
          error instanceof Error ? error.message : "The user could not be deleted.",
      }}
    />
  );
}
