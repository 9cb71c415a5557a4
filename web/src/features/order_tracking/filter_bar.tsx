import { Button, CheckboxGroup, Flex, Popover, SegmentedControl, Text } from "@radix-ui/themes";
import { useId } from "react";
import { SEARCH_FIELDS, type SearchParamKey } from "../../../../shared/contract/order_tracking.ts";
import { TextField } from "../../components/text_field.tsx";
import { TABLET_MIN_WIDTH, useMinWidth } from "../../components/use_min_width.ts";

/** The search terms as typed, by parameter. */
export type SearchTerms = Record<SearchParamKey, string>;

/** Mobile: at most this many search fields at once (spec part 1, section 9). */
export const MOBILE_MAX_FIELDS = 3;
/** Mobile defaults: the first three of PO, item, tracking and customer/ship to. */
export const MOBILE_DEFAULT_FIELDS: SearchParamKey[] = [
  "PoNumberParam",
  "ItemNumberParam",
  "TrackingNumberParam",
];

/** Empty terms for every field. */
export function emptyTerms(): SearchTerms {
  return Object.fromEntries(SEARCH_FIELDS.map((field) => [field.key, ""])) as SearchTerms;
}

/**
 * The search fields on screen: four on desktop, all six from 1280 px, the user's choice of up
 * to three under 768 px. Only these fields' terms are searched.
 */
export function useShownSearchFields(mobileFields: SearchParamKey[]): SearchParamKey[] {
  const mobile = !useMinWidth(TABLET_MIN_WIDTH);
  const wide = useMinWidth(1280);
  const keys = SEARCH_FIELDS.map((field) => field.key);
  if (mobile) return keys.filter((key) => mobileFields.includes(key));
  return keys.slice(0, wide ? 6 : 4);
}

interface Props {
  shown: SearchParamKey[];
  terms: SearchTerms;
  onTermChange(key: SearchParamKey, value: string): void;
  matchAll: boolean;
  onMatchAllChange(all: boolean): void;
  mobileFields: SearchParamKey[];
  onMobileFieldsChange(fields: SearchParamKey[]): void;
}

/**
 * Which search fields a mobile user sees: at most three, never none. A choice that breaks the
 * rule is ignored.
 */
export function nextMobileFields(current: SearchParamKey[], wanted: string[]): SearchParamKey[] {
  if (wanted.length < 1 || wanted.length > MOBILE_MAX_FIELDS) return current;
  return SEARCH_FIELDS.map((field) => field.key).filter((key) => wanted.includes(key));
}

function MobileFieldChooser(
  { fields, onChange }: { fields: SearchParamKey[]; onChange(fields: SearchParamKey[]): void },
) {
  return (
    <Popover.Root>
      <Popover.Trigger>
        <Button variant="soft" type="button">Search Fields</Button>
      </Popover.Trigger>
      <Popover.Content aria-label="Search fields">
        <Text as="p" size="2" mb="2">Choose up to {MOBILE_MAX_FIELDS} fields.</Text>
        <CheckboxGroup.Root
          value={fields}
          onValueChange={(wanted) => onChange(nextMobileFields(fields, wanted))}
        >
          {SEARCH_FIELDS.map((field) => (
            <CheckboxGroup.Item
              key={field.key}
              value={field.key}
              disabled={fields.includes(field.key)
                ? fields.length === 1
                : fields.length >= MOBILE_MAX_FIELDS}
            >
              {field.label}
            </CheckboxGroup.Item>
          ))}
        </CheckboxGroup.Root>
      </Popover.Content>
    </Popover.Root>
  );
}

/** The order list's filter bar: the shown search fields and the AND/OR toggle. */
export function FilterBar(props: Props) {
  const mobile = !useMinWidth(TABLET_MIN_WIDTH);
  const matchId = useId();
  const shown = SEARCH_FIELDS.filter((field) => props.shown.includes(field.key));
  return (
    <Flex direction="column" gap="3" role="search" aria-label="Search orders">
      <Flex gap="3" wrap="wrap" align="end">
        {shown.map((field) => (
          <div key={field.key} style={{ flex: "1 1 180px" }}>
            <TextField
              label={field.label}
              value={props.terms[field.key]}
              onChange={(event) => props.onTermChange(field.key, event.target.value)}
            />
          </div>
        ))}
      </Flex>
      <Flex gap="3" align="center" wrap="wrap">
        <Text id={matchId} size="2" weight="medium">Match</Text>
        <SegmentedControl.Root
          aria-labelledby={matchId}
          value={props.matchAll ? "AND" : "OR"}
          onValueChange={(value) => props.onMatchAllChange(value === "AND")}
        >
          <SegmentedControl.Item value="OR">OR</SegmentedControl.Item>
          <SegmentedControl.Item value="AND">AND</SegmentedControl.Item>
        </SegmentedControl.Root>
        {mobile && (
          <MobileFieldChooser fields={props.mobileFields} onChange={props.onMobileFieldsChange} />
        )}
      </Flex>
    </Flex>
  );
}
