// Ports on 127.0.0.1 for tests of what a client says when nothing answers there.

import { createServer, type AddressInfo } from "node:net";

/** A port on 127.0.0.1 that nothing listens on (one just let go). */
export async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
