/**
 * Who receives a notification (DESIGN.md section 6 "Notifications"): the setting's override list
 * when it has one, else the active users with "send notifications to e-mail" and the flag of the
 * setting's area; and how due mails are grouped when settings ask for a consolidated e-mail.
 */
import {
  type EmailInfo,
  parseRecipientList,
  type SourceTypeId,
} from "../contract/notifications.ts";

/** The fields of a user account that decide whether it receives notifications. */
export interface RecipientUser {
  email: string;
  activeStatus: boolean;
  sendNotificationsToEmail: boolean;
  inventoryUser: boolean;
  orderUser: boolean;
  submissionUser: boolean;
}

/** The user flag of a source type's area: Inventory, OrderSubmission/OrderVendor, OrderTracking. */
export function areaFlag(
  sourceTypeId: SourceTypeId,
): "inventoryUser" | "submissionUser" | "orderUser" {
  switch (sourceTypeId) {
    case 1:
      return "inventoryUser";
    case 2:
    case 4:
      return "submissionUser";
    case 3:
      return "orderUser";
  }
}

/**
 * The addresses of the active users with sendNotificationsToEmail and `flag`: valid addresses only,
 * each once (case-insensitive), sorted. Administrators without the flag are not included.
 */
export function usersWithFlag(
  users: readonly RecipientUser[],
  flag: "inventoryUser" | "submissionUser" | "orderUser",
): string[] {
  const wanted = users.filter((user) =>
    user.activeStatus && user.sendNotificationsToEmail && user[flag]
  ).map((user) => user.email).join(",");
  return parseRecipientList(wanted).addresses.sort((a, b) =>
    a.toLowerCase().localeCompare(b.toLowerCase())
  );
}

/** Where a setting's recipients came from. */
export interface Recipients {
  addresses: string[];
  from: "override" | "users";
}

/**
 * The recipients of a setting about `sourceTypeId`: the valid addresses of the override list when
 * it names any, else the area's users (see `usersWithFlag`). Malformed override entries are left
 * out here; the contract rejects them on save.
 */
export function recipientsFor(
  sourceTypeId: SourceTypeId,
  overrideEmailRecipients: string | null | undefined,
  users: readonly RecipientUser[],
): Recipients {
  const override = parseRecipientList(overrideEmailRecipients).addresses;
  if (override.length > 0) return { addresses: override, from: "override" };
  return { addresses: usersWithFlag(users, areaFlag(sourceTypeId)), from: "users" };
}

/** The recipient lists of GET email-info: exactly the lists `recipientsFor` uses without override. */
export function emailInfoRecipients(users: readonly RecipientUser[]): EmailInfo["recipients"] {
  return {
    inventory: usersWithFlag(users, "inventoryUser"),
    submission: usersWithFlag(users, "submissionUser"),
    order: usersWithFlag(users, "orderUser"),
  };
}

/** A setting that is due, with its recipients. */
export interface DueSetting {
  settingId: number;
  consolidatedEmail: boolean;
  recipients: readonly string[];
}

/** One mail to send: these recipients get the content of these settings in one message. */
export interface PlannedMail {
  recipients: string[];
  settingIds: number[];
  consolidated: boolean;
}

/**
 * Groups due settings into mails. A setting without consolidatedEmail is one mail to all its
 * recipients. Settings with consolidatedEmail are combined per recipient: each address gets one
 * mail holding every consolidated setting it receives (recipients with the same set of settings
 * share one mail). Addresses compare case-insensitively; order follows the input.
 */
export function planMails(due: readonly DueSetting[]): PlannedMail[] {
  const mails: PlannedMail[] = [];
  const perRecipient = new Map<string, { address: string; settingIds: number[] }>();
  for (const setting of due) {
    if (setting.recipients.length === 0) continue;
    if (!setting.consolidatedEmail) {
      mails.push({
        recipients: [...setting.recipients],
        settingIds: [setting.settingId],
        consolidated: false,
      });
      continue;
    }
    for (const address of setting.recipients) {
      const key = address.toLowerCase();
      const entry = perRecipient.get(key) ?? { address, settingIds: [] };
      if (!entry.settingIds.includes(setting.settingId)) entry.settingIds.push(setting.settingId);
      perRecipient.set(key, entry);
    }
  }
  const bySet = new Map<string, PlannedMail>();
  for (const { address, settingIds } of perRecipient.values()) {
    const key = settingIds.join(",");
    const mail = bySet.get(key);
    if (mail) mail.recipients.push(address);
    else bySet.set(key, { recipients: [address], settingIds, consolidated: true });
  }
  return [...mails, ...bySet.values()];
}
