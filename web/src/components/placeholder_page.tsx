import { Container, Heading, Text } from "@radix-ui/themes";

/** A page that a later issue builds: its name as the heading and "Coming soon.". */
export function PlaceholderPage({ title }: { title: string }) {
  return (
    <Container size="3" p="4">
      <Heading as="h1" mb="2">{title}</Heading>
      <Text as="p">Coming soon.</Text>
    </Container>
  );
}
