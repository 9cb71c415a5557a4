/** SFTP helpers for tests, on the test OpenSSH (internal-sftp, chrooted, password login). */
// @ts-types="@types/ssh2-sftp-client"
import SftpClient from "ssh2-sftp-client";
import { readServices } from "./services_info.ts";

/** Connection settings of the test SFTP account, as ssh2-sftp-client takes them. */
export interface SftpConnectOptions {
  host: string;
  port: number;
  username: string;
  password: string;
  readyTimeout: number;
}

/** The test SFTP account's connection settings. */
export function sftpConnectOptions(): SftpConnectOptions {
  const info = readServices();
  return {
    host: info.host,
    port: info.ports.sftp,
    username: info.sftp.user,
    password: info.sftp.password,
    readyTimeout: 10_000,
  };
}

/** Connects to the test SFTP server; the caller must `end()` the client. */
export async function connectSftp(): Promise<SftpClient> {
  const client = new SftpClient();
  await client.connect(sftpConnectOptions());
  return client;
}
