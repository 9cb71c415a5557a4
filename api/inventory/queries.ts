/**
 * Inventory sources in the database: list, read (the contract's shape, with the stored sample
 * file as base64), save (secret kept behind its placeholder and bound to its server) and
 * soft-delete.
 */
import type { Db } from "../db/client.ts";
import { badRequest, notFound } from "../http/errors.ts";
import { requireSecretForRebind, SECRET_PLACEHOLDER, type SecretBox } from "../secrets.ts";
import type {
  InventorySource,
  InventorySourceListEntry,
  InventorySourceSave,
} from "../../shared/contract/inventory.ts";
import { decodeBase64, encodeBase64 } from "../../shared/base64.ts";

const SOURCE_COLUMNS = `s.id, s.email_source_id as "emailSourceId", s.source_name as "sourceName",
  s.file_type as "fileType", s.from_email as "fromEmail",
  s.days_until_no_update_notification as "daysUntilNoUpdateNotification",
  s.expected_attachment_count as "expectedAttachmentCount", s.subject_value as "subjectValue",
  s.contains_not_exact as "containsNotExact", s.attachment_name as "attachmentName",
  s.item_number_column_name as "itemNumberColumnName", s.qty_column_name as "qtyColumnName",
  s.status_supersedes_quantity as "statusSupersedesQuantity",
  s.status_available_list as "statusAvailableList",
  s.status_out_of_stock_list as "statusOutOfStockList",
  s.item_status_column_name as "itemStatusColumnName",
  s.min_items_to_be_active as "minItemsToBeActive", s.file_has_header as "fileHasHeader",
  s.strip_leading_zeroes as "stripLeadingZeroes",
  s.uses_predictive_algorithm as "usesPredictiveAlgorithm", s.lookback_days as "lookbackDays",
  s.min_data_points as "minDataPoints", s.safety_multiplier as "safetyMultiplier",
  s.safety_padding as "safetyPadding", s.large_drop_threshold as "largeDropThreshold",
  s.large_drop_multiplier as "largeDropMultiplier", s.sftp_server_address as "sftpServerAddress",
  s.sftp_port as "sftpPort", s.sftp_username as "sftpUsername",
  s.sftp_password_enc is not null as "hasSftpPassword", s.sftp_inbox_folder as "sftpInboxFolder",
  s.sftp_poll_seconds as "sftpPollSeconds", s.guard_threshold as "guardThreshold", s.active_status as "activeStatus"`;

const FILE_COLUMNS = `f.user_activated_item_numbers as "userActivatedItemNumbers",
  f.inventory_file_name as "inventoryFileName", f.inventory_file_data as "inventoryFileBytes",
  f.active_status as "fdActiveStatus", f.header_row_index as "headerRowIndex",
  f.file_has_header as "fdFileHasHeader", f.item_number_column_name as "fdItemNumberColumnName",
  f.item_status_column_name as "fdItemStatusColumnName",
  f.item_status_date_column_name as "itemStatusDateColumnName"`;

type SourceRow = Omit<InventorySource, "fileData" | "sftpPassword"> & {
  hasSftpPassword: boolean;
  userActivatedItemNumbers: string | null;
  inventoryFileName: string | null;
  inventoryFileBytes: Uint8Array | null;
  fdActiveStatus: boolean | null;
  headerRowIndex: number | null;
  fdFileHasHeader: boolean | null;
  fdItemNumberColumnName: string | null;
  fdItemStatusColumnName: string | null;
  itemStatusDateColumnName: string | null;
};

function toSource(row: SourceRow): InventorySource {
  const {
    hasSftpPassword,
    userActivatedItemNumbers,
    inventoryFileName,
    inventoryFileBytes,
    fdActiveStatus,
    headerRowIndex,
    fdFileHasHeader,
    fdItemNumberColumnName,
    fdItemStatusColumnName,
    itemStatusDateColumnName,
    ...rest
  } = row;
  return {
    ...rest,
    sftpPassword: hasSftpPassword ? SECRET_PLACEHOLDER : "",
    fileData: {
      userActivatedItemNumbers: userActivatedItemNumbers ?? "",
      inventoryFileName: inventoryFileName,
      inventoryFileData: inventoryFileBytes
        ? encodeBase64(new Uint8Array(inventoryFileBytes))
        : null,
      activeStatus: fdActiveStatus ?? row.activeStatus,
      headerRowIndex,
      fileHasHeader: fdFileHasHeader ?? true,
      itemNumberColumnName: fdItemNumberColumnName ?? "",
      itemStatusColumnName: fdItemStatusColumnName ?? "",
      itemStatusDateColumnName: itemStatusDateColumnName ?? "",
    },
  };
}

/** The list of GET inventories: sources not deleted, by name. */
export async function listInventorySources(db: Db): Promise<InventorySourceListEntry[]> {
  return await db.query<InventorySourceListEntry>(
    `select id, source_name as "sourceName", file_type as "fileType", from_email as "fromEmail",
       expected_attachment_count as "expectedAttachmentCount", subject_value as "subjectValue",
       attachment_name as "attachmentName", item_number_column_name as "itemNumberColumnName",
       qty_column_name as "qtyColumnName", min_items_to_be_active as "minItemsToBeActive",
       active_status as "activeStatus"
       from inventory_sources where not deleted_status order by lower(source_name), id`,
  );
}

/** One source (not deleted) as the contract answers it, or null. */
export async function findInventorySource(db: Db, id: number): Promise<InventorySource | null> {
  const [row] = await db.query<SourceRow>(
    `select ${SOURCE_COLUMNS}, ${FILE_COLUMNS}
       from inventory_sources s left join inventory_file_data f on f.inventory_source_id = s.id
      where s.id = $1 and not s.deleted_status`,
    [id],
  );
  return row ? toSource(row) : null;
}

/** The stored SFTP settings of a source with the password decrypted (for delivery and pull). */
export interface SftpSettings {
  host: string;
  port: number;
  username: string;
  password: string;
  inboxFolder: string;
}

/** The SFTP settings of a source, or null when it has no SFTP server. */
export async function sftpSettings(
  db: Db,
  secrets: SecretBox,
  sourceId: number,
): Promise<SftpSettings | null> {
  const [row] = await db.query<
    { host: string; port: number | null; username: string; enc: string | null; inbox: string }
  >(
    `select sftp_server_address as host, sftp_port as port, sftp_username as username,
       sftp_password_enc as enc, sftp_inbox_folder as inbox
       from inventory_sources where id = $1`,
    [sourceId],
  );
  if (!row || row.host.trim() === "") return null;
  return {
    host: row.host.trim(),
    port: row.port ?? 22,
    username: row.username,
    password: row.enc ? await secrets.decrypt(row.enc) : "",
    inboxFolder: row.inbox.trim(),
  };
}

/** What a stored SFTP password is bound to (docs/outbound.md). */
function sftpBinding(s: { host: string; port: number | null; username: string }) {
  return {
    "SFTP server": s.host.trim().toLowerCase(),
    "SFTP port": String(s.port ?? 22),
    "SFTP username": s.username,
  };
}

/**
 * Creates (id 0) or updates a source with its file data and returns its id. A new sample file
 * (`fileData.inventoryFile`) replaces the stored one; the resent `inventoryFileData` keeps it.
 * The file data's active flag follows the source's (spec section 4).
 */
export async function saveInventorySource(
  db: Db,
  secrets: SecretBox,
  input: InventorySourceSave,
): Promise<number> {
  const keep = input.sftpPassword === SECRET_PLACEHOLDER;
  const password = keep || input.sftpPassword === ""
    ? null
    : await secrets.encrypt(input.sftpPassword);
  const fd = input.fileData;
  let sample: Uint8Array | null = null;
  try {
    if (fd.inventoryFile) sample = decodeBase64(fd.inventoryFile);
    else if (fd.inventoryFileData) sample = decodeBase64(fd.inventoryFileData);
  } catch {
    throw badRequest("The sample inventory file is not valid base64.", {
      "fileData.inventoryFile": ["The file must be base64 text"],
    });
  }
  const newFile = Boolean(fd.inventoryFile);
  if (newFile && !fd.inventoryFileName) {
    throw badRequest("Send the sample file's name with the file.", {
      "fileData.inventoryFileName": ["Required with a new file"],
    });
  }
  if (newFile && !/\.(csv|xlsx|xls)$/i.test(fd.inventoryFileName)) {
    throw badRequest("The sample inventory file must be .xls, .xlsx or .csv.", {
      "fileData.inventoryFile": ["The sample inventory file must be .xls, .xlsx or .csv"],
    });
  }
  const values = [
    input.emailSourceId,
    input.sourceName,
    input.fileType,
    input.fromEmail,
    input.daysUntilNoUpdateNotification,
    input.expectedAttachmentCount,
    input.subjectValue,
    input.containsNotExact,
    input.attachmentName,
    input.itemNumberColumnName,
    input.qtyColumnName,
    input.statusSupersedesQuantity,
    input.statusAvailableList,
    input.statusOutOfStockList,
    input.itemStatusColumnName,
    input.minItemsToBeActive,
    input.fileHasHeader,
    input.stripLeadingZeroes,
    input.usesPredictiveAlgorithm,
    input.lookbackDays,
    input.minDataPoints,
    input.safetyMultiplier,
    input.safetyPadding,
    input.largeDropThreshold,
    input.largeDropMultiplier,
    input.sftpServerAddress.trim(),
    input.sftpPort,
    input.sftpUsername,
    input.sftpInboxFolder,
    input.guardThreshold,
    input.activeStatus,
  ];
  return await db.transaction(async (tx) => {
    const [mailbox] = await tx.query(
      "select id from email_sources where id = $1 and deleted_at is null",
      [input.emailSourceId],
    );
    if (!mailbox) {
      throw badRequest(`Email source ${input.emailSourceId} does not exist.`, {
        emailSourceId: ["Email source is required"],
      });
    }
    let id = input.id;
    if (id === 0) {
      if (keep) {
        throw badRequest("Enter the SFTP password for the new source.", {
          sftpPassword: ["Required"],
        });
      }
      const [row] = await tx.query<{ id: number }>(
        `insert into inventory_sources (email_source_id, source_name, file_type, from_email,
           days_until_no_update_notification, expected_attachment_count, subject_value,
           contains_not_exact, attachment_name, item_number_column_name, qty_column_name,
           status_supersedes_quantity, status_available_list, status_out_of_stock_list,
           item_status_column_name, min_items_to_be_active, file_has_header, strip_leading_zeroes,
           uses_predictive_algorithm, lookback_days, min_data_points, safety_multiplier,
           safety_padding, large_drop_threshold, large_drop_multiplier, sftp_server_address,
           sftp_port, sftp_username, sftp_inbox_folder, guard_threshold, active_status,
           sftp_password_enc)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18,
           $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31, $32) returning id`,
        [...values, password],
      );
      id = row.id;
    } else {
      const [before] = await tx.query<{ host: string; port: number | null; username: string }>(
        `select sftp_server_address as host, sftp_port as port, sftp_username as username
           from inventory_sources where id = $1 and not deleted_status for update`,
        [id],
      );
      if (!before) throw notFound(`Inventory source ${id}`);
      // The stored SFTP password goes only where it was entered for (docs/outbound.md).
      requireSecretForRebind(
        keep,
        sftpBinding(before),
        sftpBinding({
          host: input.sftpServerAddress,
          port: input.sftpPort,
          username: input.sftpUsername,
        }),
        "sftpPassword",
      );
      await tx.query(
        `update inventory_sources set email_source_id = $1, source_name = $2, file_type = $3,
           from_email = $4, days_until_no_update_notification = $5, expected_attachment_count = $6,
           subject_value = $7, contains_not_exact = $8, attachment_name = $9,
           item_number_column_name = $10, qty_column_name = $11, status_supersedes_quantity = $12,
           status_available_list = $13, status_out_of_stock_list = $14,
           item_status_column_name = $15, min_items_to_be_active = $16, file_has_header = $17,
           strip_leading_zeroes = $18, uses_predictive_algorithm = $19, lookback_days = $20,
           min_data_points = $21, safety_multiplier = $22, safety_padding = $23,
           large_drop_threshold = $24, large_drop_multiplier = $25, sftp_server_address = $26,
           sftp_port = $27, sftp_username = $28, sftp_inbox_folder = $29, guard_threshold = $30,
           active_status = $31,
           sftp_password_enc = case when $32::boolean then sftp_password_enc else $33 end,
           updated_at = now()
         where id = $34`,
        [...values, keep, password, id],
      );
    }
    // Additive field: a client that does not send it keeps the stored interval.
    if (input.sftpPollSeconds !== undefined) {
      await tx.query("update inventory_sources set sftp_poll_seconds = $2 where id = $1", [
        id,
        input.sftpPollSeconds,
      ]);
    }
    const [stored] = await tx.query<{ has: boolean }>(
      `select inventory_file_data is not null as has from inventory_file_data
        where inventory_source_id = $1`,
      [id],
    );
    if (!sample && !stored?.has) {
      throw badRequest("Sample inventory file is required for new sources", {
        "fileData.inventoryFile": ["Sample inventory file is required for new sources"],
      });
    }
    await tx.query(
      `insert into inventory_file_data (inventory_source_id, user_activated_item_numbers,
         inventory_file_name, inventory_file_data, active_status, header_row_index,
         file_has_header, item_number_column_name, item_status_column_name,
         item_status_date_column_name)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       on conflict (inventory_source_id) do update set
         user_activated_item_numbers = excluded.user_activated_item_numbers,
         inventory_file_name = case when $11::boolean then excluded.inventory_file_name
           else coalesce(nullif(excluded.inventory_file_name, ''),
             inventory_file_data.inventory_file_name) end,
         inventory_file_data = case when $11::boolean then excluded.inventory_file_data
           else inventory_file_data.inventory_file_data end,
         active_status = excluded.active_status, header_row_index = excluded.header_row_index,
         file_has_header = excluded.file_has_header,
         item_number_column_name = excluded.item_number_column_name,
         item_status_column_name = excluded.item_status_column_name,
         item_status_date_column_name = excluded.item_status_date_column_name`,
      [
        id,
        fd.userActivatedItemNumbers,
        fd.inventoryFileName || null,
        sample,
        input.activeStatus,
        fd.headerRowIndex,
        fd.fileHasHeader,
        fd.itemNumberColumnName,
        fd.itemStatusColumnName,
        fd.itemStatusDateColumnName,
        newFile,
      ],
    );
    return id;
  });
}

/** Soft-deletes a source; false when there is none. */
export async function deleteInventorySource(db: Db, id: number): Promise<boolean> {
  const rows = await db.query(
    `update inventory_sources set deleted_status = true, active_status = false, updated_at = now()
      where id = $1 and not deleted_status returning id`,
    [id],
  );
  await db.query(
    "update inventory_file_data set active_status = false where inventory_source_id = $1",
    [id],
  );
  return rows.length > 0;
}
