/**
 * A TCP relay on loopback that passes the client's bytes on at once and holds each of the
 * server's answers for `delayMs`: a mail sending through it lasts long enough for a test to act
 * in its middle (SMTP's handshake, STARTTLS and the message take about ten answers).
 */

/** A running relay. */
export interface Relay {
  port: number;
  close(): void;
}

/**
 * Listens on a free loopback port and relays every connection to `host:port`.
 *
 * @example
 * const relay = await startDelayRelay("127.0.0.1", 10025, 250);
 * // point a mailbox's outgoing port at relay.port ...
 * relay.close();
 */
export function startDelayRelay(host: string, port: number, delayMs: number): Promise<Relay> {
  return Promise.resolve(listenRelay(host, port, delayMs, 0));
}

function listenRelay(host: string, port: number, delayMs: number, listenPort: number): Relay {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: listenPort });
  const open = new Set<Deno.Conn>();
  (async () => {
    for await (const client of listener) {
      open.add(client);
      (async () => {
        let server: Deno.Conn | undefined;
        try {
          server = await Deno.connect({ hostname: host, port });
          open.add(server);
          const upstream = client.readable.pipeTo(server.writable).catch(() => {});
          const writer = client.writable.getWriter();
          for await (const chunk of server.readable) {
            if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
            await writer.write(chunk);
          }
          await writer.close().catch(() => {});
          await upstream;
        } catch {
          /* either side went away */
        } finally {
          for (const conn of [client, server]) {
            if (!conn) continue;
            open.delete(conn);
            try {
              conn.close();
            } catch { /* already closed */ }
          }
        }
      })();
    }
  })().catch(() => {});
  return {
    port: (listener.addr as Deno.NetAddr).port,
    close() {
      listener.close();
      for (const conn of open) {
        try {
          conn.close();
        } catch { /* already closed */ }
      }
    },
  };
}

/** A relay that can be taken down (every connection cut, the port refusing) and brought back. */
export interface SwitchableRelay {
  port: number;
  readonly isUp: boolean;
  down(): void;
  up(): void;
  close(): void;
}

/**
 * A plain relay to `host:port` on a fixed loopback port that `down()` closes, as a server that
 * stops does (open connections cut, new ones refused), and `up()` opens again.
 *
 * @example
 * const imap = await startSwitchableRelay("127.0.0.1", 10143);
 * imap.down(); // the mailbox server is "stopped"
 * imap.up();
 */
export async function startSwitchableRelay(host: string, port: number): Promise<SwitchableRelay> {
  let relay = await startDelayRelay(host, port, 0);
  const fixedPort = relay.port;
  let isUp = true;
  return {
    port: fixedPort,
    get isUp() {
      return isUp;
    },
    down() {
      if (!isUp) return;
      isUp = false;
      relay.close();
    },
    up() {
      if (isUp) return;
      isUp = true;
      relay = listenRelay(host, port, 0, fixedPort);
    },
    close() {
      if (isUp) relay.close();
      isUp = false;
    },
  };
}
