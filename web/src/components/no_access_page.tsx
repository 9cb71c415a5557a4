import { Button, Callout, Container, Flex, Heading } from "@radix-ui/themes";
import { Link } from "wouter";

/**
 * What a user sees on a page of an area their account does not include (issue 24: said in words
 * instead of an empty list): the area, the flag that opens it, and the way home.
 */
export function NoAccessPage({ area, flags }: { area: string; flags: string }) {
  return (
    <Container size="2" p="4">
      <Flex direction="column" gap="4" align="start">
        <Heading as="h1">Not part of your account</Heading>
        <Callout.Root color="amber" highContrast role="status">
          <Callout.Text>
            {`Your account does not include ${area}. An administrator can add it by turning on ${flags} for your user.`}
          </Callout.Text>
        </Callout.Root>
        <Button asChild variant="soft">
          <Link href="/home">Go to Home</Link>
        </Button>
      </Flex>
    </Container>
  );
}
