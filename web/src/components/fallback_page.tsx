import { Button, Container, Flex, Heading, Text } from "@radix-ui/themes";
import { Link } from "wouter";

/** The router's fallback: unknown routes and render errors (part 1, section 8). */
export function FallbackPage({ detail }: { detail?: string }) {
  return (
    <Container size="2" p="4">
      <Flex direction="column" gap="3" align="start">
        <Heading as="h1">Unexpected Application Error!</Heading>
        <Text as="p" color="gray">{detail ?? "404 Not Found"}</Text>
        <Button asChild variant="soft">
          <Link href="/home">Go to Home</Link>
        </Button>
      </Flex>
    </Container>
  );
}
