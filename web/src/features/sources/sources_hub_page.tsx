import { Button, Card, Container, Flex, Grid, Heading, Text } from "@radix-ui/themes";
import { useAtomValue } from "jotai";
import { useContext, useId } from "react";
import { Link } from "wouter";
import { currentUserAtom, permissionsOf } from "../../state/session.ts";
import type { HubCard } from "../feature.ts";
import { HubCardsContext } from "../hub_cards.ts";

function HubCardView({ card }: { card: HubCard }) {
  const headingId = useId();
  return (
    <Card asChild size="3">
      <section aria-labelledby={headingId}>
        <Flex direction="column" gap="3" height="100%">
          <Heading as="h2" size="4" id={headingId}>{card.title}</Heading>
          <Text as="p" color="gray" size="2">{card.description}</Text>
          <Flex mt="auto">
            <Button asChild>
              <Link href={card.href}>Manage</Link>
            </Button>
          </Flex>
        </Flex>
      </section>
    </Card>
  );
}

/** /sources: one card per source area the user may use (part 2, section 2). */
export default function SourcesHubPage() {
  const hubCardsFor = useContext(HubCardsContext);
  const cards = hubCardsFor(permissionsOf(useAtomValue(currentUserAtom)));
  return (
    <Container size="4" p="4">
      <Heading as="h1" mb="4">Sources</Heading>
      {cards.length === 0 && <Text as="p">You have no access to any source area.</Text>}
      <Grid columns={{ initial: "1", sm: "2", lg: "3" }} gap="4">
        {cards.map((card) => <HubCardView key={card.href} card={card} />)}
      </Grid>
    </Container>
  );
}
