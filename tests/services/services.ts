/**
 * Entry point for tests that use the loopback test servers started by tests/services/up.sh
 * (see docs/test_services.md).
 */
export { readCaPem, readServices, servicesEnvPath } from "./services_info.ts";
export type { MailUser, ServicesInfo } from "./services_info.ts";
export { addMailUser, mailAddress, mailboxDir, resolveMailUser } from "./mail_users.ts";
export type { UserRef } from "./mail_users.ts";
export {
  appendMessage,
  connectImap,
  dropImapConnections,
  getUidValidity,
  recreateMailbox,
  waitForMessages,
} from "./imap.ts";
export type {
  AppendedMessage,
  ConnectImapOptions,
  ImapSecurity,
  RecreateMailboxOptions,
} from "./imap.ts";
export { sendMail, smtpTransport } from "./smtp.ts";
export type { SendMailOptions, SentMail } from "./smtp.ts";
export { connectSftp, sftpConnectOptions } from "./sftp.ts";
export type { SftpConnectOptions } from "./sftp.ts";
export { doveadm } from "./doveadm.ts";
export type { DoveadmResult } from "./doveadm.ts";
export {
  grantMailbox,
  msalAuthorityHost,
  msalToken,
  msalTokenRequests,
  registerMsalApp,
  revokeMailbox,
  updateMsalApp,
} from "./msal.ts";
export type { MsalApp } from "./msal.ts";
