import { Button, Card, Container, Flex, Heading, Text } from "@radix-ui/themes";
import { useEffect } from "react";
import { Link } from "wouter";
import { useResource } from "../../components/use_resource.ts";
import { fetchUserCount } from "./api.ts";
import { ConfigWarnings } from "./config_warnings.tsx";

/** /admin: the number of users and the way to manage them. */
export default function AdminPage() {
  const { data: count, error } = useResource(["user-count"], fetchUserCount);
  useEffect(() => {
    if (error) console.error("Error fetching data", error);
  }, [error]);

  return (
    <Container size="3" p="4">
      <Heading as="h1" mb="4">Admin Dashboard</Heading>
      <ConfigWarnings />
      <Card size="3" style={{ maxWidth: 360 }}>
        <Flex direction="column" gap="3">
          <Text as="p" size="2" color="gray" id="user-count-label">Number of Users</Text>
          <Text as="p" size="8" weight="bold" aria-labelledby="user-count-label" role="status">
            {count ?? "…"}
          </Text>
          <Flex>
            <Button asChild>
              <Link href="/admin/manage/users">Manage Users</Link>
            </Button>
          </Flex>
        </Flex>
      </Card>
      <Card size="3" mt="4" style={{ maxWidth: 360 }}>
        <Flex direction="column" gap="3">
          <Text as="p" size="2" color="gray">Who changed what, and sign-ins</Text>
          <Flex>
            <Button asChild>
              <Link href="/admin/activity">Activity</Link>
            </Button>
          </Flex>
        </Flex>
      </Card>
    </Container>
  );
}
