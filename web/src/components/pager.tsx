import { Button, Flex, Select, Text } from "@radix-ui/themes";
import { useId } from "react";

interface Props {
  /** 1-based. */
  pageIndex: number;
  pageCount: number;
  pageSize: number;
  /** The choices of "Rows per page". */
  pageSizes: readonly number[];
  onPage(page: number): void;
  onPageSize(size: number): void;
}

/** "Rows per page", First, Previous, "Page X of Y", Next, Last. */
export function Pager(
  { pageIndex, pageCount, pageSize, pageSizes, onPage, onPageSize }: Props,
) {
  const sizeId = useId();
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
        <Text size="2" aria-live="polite">Page {pageIndex} of {pageCount}</Text>
        <Button
          variant="soft"
          disabled={pageIndex >= pageCount}
          onClick={() => onPage(pageIndex + 1)}
        >
          Next
        </Button>
        <Button
          variant="soft"
          disabled={pageIndex >= pageCount}
          onClick={() => onPage(pageCount)}
        >
          Last
        </Button>
      </Flex>
    </Flex>
  );
}
