/** Where the running test services are and how to reach them, as written by up.sh. */

/** Credentials of one IMAP/SMTP test account. */
export interface MailUser {
  address: string;
  password: string;
}

/** The contents of `.tmp/services/env.json`. */
export interface ServicesInfo {
  stateDir: string;
  host: string;
  domain: string;
  ports: {
    imap: number;
    imaps: number;
    lmtp: number;
    smtp: number;
    submission: number;
    sftp: number;
    /** The Microsoft login stand-in (HTTPS). */
    msal: number;
  };
  /** The stand-in for Microsoft's login service, and where mailbox grants live. */
  msal: {
    /** `MSAL_AUTHORITY_HOST` for the app: `https://127.0.0.1:<ports.msal>`. */
    authorityHost: string;
    /** `<client id>/<address>` files: the app may open that mailbox. */
    grantsDir: string;
  };
  /** PEM file of the throw-away CA that signed the servers' certificate. */
  caPath: string;
  /** Each address `name@domain` has its maildir at `<maildirRoot>/<name>/Maildir`. */
  maildirRoot: string;
  /** One Dovecot passwd-file per address, named after it. */
  passwdDir: string;
  dovecotConfig: string;
  postfixConfigDir: string;
  logs: { dovecot: string; postfix: string; sshd: string; msal: string };
  /** Accounts made by up.sh: `tester@…` for general use, then the outbound catch-all. */
  mailUsers: MailUser[];
  /** Receives all mail addressed outside the test domain. */
  outboundMailbox: string;
  sftp: {
    user: string;
    password: string;
    /** The chroot on the local filesystem. */
    root: string;
    /** `remoteUploadDir` as seen on the local filesystem; tests may read it directly. */
    uploadDir: string;
    remoteUploadDir: string;
  };
}

const ENV_URL = new URL("../../.tmp/services/env.json", import.meta.url);

/** Path of env.json: `SERVICES_ENV_FILE` when set, else `<repo>/.tmp/services/env.json`. */
export function servicesEnvPath(): string {
  return Deno.env.get("SERVICES_ENV_FILE") ?? ENV_URL.pathname;
}

/**
 * Reads the description of the running test services.
 * Throws with instructions when up.sh has not been run or its services are gone.
 */
export function readServices(): ServicesInfo {
  const path = servicesEnvPath();
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) {
      throw new Error(
        `The loopback test services are not running: ${path} is missing. ` +
          "Start them with `bash tests/services/up.sh` (as root; stop with tests/services/down.sh).",
      );
    }
    throw err;
  }
  const info = JSON.parse(text) as ServicesInfo;
  try {
    Deno.statSync(info.stateDir);
  } catch {
    throw new Error(
      `${path} is stale: its state directory ${info.stateDir} is gone. ` +
        "Run `bash tests/services/down.sh && bash tests/services/up.sh`.",
    );
  }
  return info;
}

/** The test CA certificate (PEM), for the `ca` option of TLS clients. */
export function readCaPem(info: ServicesInfo = readServices()): string {
  return Deno.readTextFileSync(info.caPath);
}
