// A self-signed certificate for TLS tests, made with openssl when the test runs, so that no key
// is ever committed. It names localhost and 127.0.0.1, so clients can verify it against itself.

import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface TestCertificate {
  /** The private key (PEM). */
  key: string;
  /** The certificate (PEM), which is also the CA a client must trust. */
  cert: string;
}

export function testCertificate(): TestCertificate {
  const dir = mkdtempSync(join(tmpdir(), "weft-cert-"));
  try {
    const keyFile = join(dir, "key.pem");
    const certFile = join(dir, "cert.pem");
    execFileSync(
      "openssl",
      ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-subj", "/CN=localhost",
        "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-days", "1", "-keyout", keyFile, "-out", certFile],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    return { key: readFileSync(keyFile, "utf8"), cert: readFileSync(certFile, "utf8") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
