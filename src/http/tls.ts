import fs from 'node:fs';
import { createSecureContext } from 'node:tls';
import { ConfigError } from '../config';

/** A certificate chain and its private key, PEM, as fastify's `https` option takes them. */
export interface TlsMaterial {
  cert: Buffer;
  key: Buffer;
}

/**
 * Reads TRIBUTARY_TLS_CERT / TRIBUTARY_TLS_KEY at start-up (undefined: plain HTTP). A missing or
 * unreadable file, or a key that does not match the certificate, is a ConfigError naming the
 * variable; the service does not start half-configured. Files are read once: a renewed
 * certificate takes a restart.
 */
export function readTls(files?: { certFile: string; keyFile: string }): TlsMaterial | undefined {
  if (!files) return undefined;
  const read = (variable: string, file: string): Buffer => {
    try {
      return fs.readFileSync(file);
    } catch (err) {
      throw new ConfigError(`${variable}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
    }
  };
  const material = { cert: read('TRIBUTARY_TLS_CERT', files.certFile), key: read('TRIBUTARY_TLS_KEY', files.keyFile) };
  try {
    createSecureContext(material);
  } catch (err) {
    throw new ConfigError(`TRIBUTARY_TLS_CERT/TRIBUTARY_TLS_KEY: not a usable PEM certificate and matching key (${(err as Error).message})`);
  }
  return material;
}
