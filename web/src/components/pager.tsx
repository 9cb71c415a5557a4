import { Button, Flex, Select, Text } from "@radix-ui/themes";
import { useId } from "react";
import { pageText } from "./pager_text.ts";

interface Props {
  /** 1-based. */
  pageIndex: number;
  pageCount: number;
  pageSize: number;
  /** The choices of "Rows per page". */
  pageSizes: readonly number[];
  onPage(page: number): void;
  onPageSize(size: number): void;
  /**
   * The count stopped at its bound (the server's `countCapped`): there are more than
   * `pageCount` pages, so the text says "more than", Next stays enabled and Last is disabled.
   */
  capped?: boolean;
  /**
   * The deepest page the server serves (the order list's result window): never offered, even
   * when more rows were counted; Next is disabled there and says why.
   */
  lastPage?: number;
}

/** "Rows per page", First, Previous, "Page X of Y" (or "of more than Y"), Next, Last. */
export function Pager(
  {
    pageIndex,
    pageCount,
    pageSize,
    pageSizes,
    onPage,
    onPageSize,
    capped = false,
    lastPage = Infinity,
  }: Props,
) {
  const sizeId = useId();
  const atWindowEnd = pageIndex >= lastPage;
  const atEnd = (!capped && pageIndex >= pageCount) || atWindowEnd;
  const last = Math.min(pageCount, lastPage);
  return (
    <Flex gap="3" align="center" justify="between" wrap="wrap" mt="3">
      <Flex gap="2" align="center">
        <Text as="label" htmlFor={sizeId} size="2">Rows per page</Text>
        <Select.Root value={String(pageSize)} onValueChange={(value) => onPageSize(Number(value))}>
          <Select.Trigger id={sizeId} />
          <Select.Content>
            {pageSizes.map((size) => (
              <Select.Item key={size} value={String(size)}>{size}</Select.Item>
            ))}
          </Select.Content>
        </Select.Root>
      </Flex>
      <Flex gap="2" align="center">
        <Button variant="soft" disabled={pageIndex <= 1} onClick={() => onPage(1)}>First</Button>
        <Button variant="soft" disabled={pageIndex <= 1} onClick={() => onPage(pageIndex - 1)}>
          Previous
        </Button>
        <Text size="2" aria-live="polite">{pageText(pageIndex, pageCount, capped)}</Text>
        <Button
          variant="soft"
          disabled={atEnd}
          title={atWindowEnd && (capped || pageIndex < pageCount)
            ? "Only the first pages can be shown: narrow the search to see more"
            : undefined}
          onClick={() => onPage(pageIndex + 1)}
        >
          Next
        </Button>
        <Button
          variant="soft"
          disabled={capped || pageIndex >= last}
          title={capped
            ? "More rows than were counted: narrow the search, or reverse the sort to see the end"
            : undefined}
          onClick={() => onPage(last)}
        >
          Last
        </Button>
      </Flex>
    </Flex>
  );
}
