import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyRequest } from 'fastify';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { z } from 'zod';
import { ConfigError, type Config } from '../config';
import { describeIssues, parseSettingsDocument } from '../settings-file';
import { forbidden, limitExceeded, unauthenticated, type AppError } from '../errors';
import { AuthFailures } from './auth-failures';

/**
 * Access control by bearer token. Tokens are listed in the file named by TRIBUTARY_TOKENS_FILE
 * (YAML or JSON), each with a name, the SHA-256 of the token (never the token itself: `npm run
 * token -- <name> <scopes>` makes one) and its scopes:
 *
 *   tokens:
 *     - { name: spark-prod, sha256: 9f86d0…, scopes: [ingest] }
 *     - { name: catalog,    sha256: 60303a…, scopes: [read] }
 *
 * Scopes: `ingest` (POST /api/v1/lineage, /batch), `read` (/graphql, the coverage and diff routes,
 * /api/v1/openapi.json), `admin` (/metrics). With a tokens file every route but /healthz, /readyz
 * and the explorer's static files needs a token with its scope (401 without a valid token, 403
 * without the scope), checked in an onRequest hook (the rate limit keys on the principal after
 * it). Several tokens per scope let a token be rotated (add the new one, move clients, remove the
 * old). Without one, reads are open and ingestion needs
 * TRIBUTARY_INGEST_KEY when that is set (as before). Tokens are compared by their hash and never
 * logged. For organisations, TRIBUTARY_JWT_ISSUER / _AUDIENCE / _JWKS_URL accept JWTs signed by
 * the issuer (OIDC), with the scopes in their `scope` or `scp` claim (`read` or `tributary:read`).
 * Each client address may fail authentication TRIBUTARY_AUTH_FAILURES_PER_MINUTE times a minute
 * (default 30); beyond, 429 before its credentials are checked (auth-failures.ts).
 */
export enum Scope {
  INGEST = 'ingest',
  READ = 'read',
  ADMIN = 'admin',
}

export interface Principal {
  /** The token's name from the tokens file (`ingest-key` for TRIBUTARY_INGEST_KEY). */
  name: string;
  scopes: Scope[];
}

const fileSchema = z.strictObject({
  tokens: z
    .array(
      z.strictObject({
        name: z.string().trim().min(1).max(200),
        sha256: z
          .string()
          .trim()
          .regex(/^[0-9a-fA-F]{64}$/, 'the SHA-256 of the token, 64 hex digits (npm run token prints it)'),
        scopes: z.array(z.enum(Scope)).min(1),
      }),
    )
    .max(10_000),
});

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** OIDC / JWT access: tokens signed by the issuer's keys (its JWKS), for this audience. */
export interface JwtSettings {
  issuer: string;
  audience: string;
  jwksUrl: string;
}

export class Auth {
  private readonly byHash = new Map<string, Principal>();
  private readonly jwks: ReturnType<typeof createRemoteJWKSet> | null;
  /** TRIBUTARY_INGEST_KEY, as one more ingest token. */
  private readonly ingestKeyHash: string | null;

  constructor(
    tokens: { name: string; sha256: string; scopes: Scope[] }[],
    ingestKey?: string,
    private readonly jwt?: JwtSettings,
    /** Failed authentications per client address (auth-failures.ts); by default 30 a minute. */
    private readonly failures: AuthFailures = new AuthFailures(30),
  ) {
    for (const t of tokens) this.byHash.set(t.sha256.toLowerCase(), { name: t.name, scopes: [...new Set(t.scopes)] });
    this.ingestKeyHash = ingestKey ? sha256(ingestKey) : null;
    this.jwks = jwt ? createRemoteJWKSet(new URL(jwt.jwksUrl), { timeoutDuration: 5000, cooldownDuration: 30_000 }) : null;
  }

  /** True when a tokens file or a JWT issuer is in force: every route but health needs a token. */
  get enabled(): boolean {
    return this.byHash.size > 0 || this.jwks !== null;
  }

  /**
   * The principal a request may act as for `scope`; null when the route is open (no tokens, and
   * no ingest key for ingestion). Throws UNAUTHENTICATED (401), FORBIDDEN (403), or LIMIT_EXCEEDED
   * (429, with Retry-After) when the client address has spent its failed-authentication budget
   * (auth-failures.ts): then the credentials are not even checked. Every 401 counts against it.
   *
   * Up to the JWT verification this runs without awaiting (an async function runs synchronously
   * until its first await): for tokens and the ingest key the budget is read, the token checked
   * and a failure counted in one step, so requests pipelined together cannot all pass the budget
   * before any of them fails. Wrong JWTs are counted once verified; several verified at once from
   * one address may exceed the budget by that many (a JWT cannot be guessed, only forged).
   */
  async check(req: FastifyRequest, scope: Scope): Promise<Principal | null> {
    if (!this.enabled && (scope !== Scope.INGEST || !this.ingestKeyHash)) return null;
    const wait = this.failures.exhausted(req.ip);
    if (wait !== null) {
      throw limitExceeded(`too many failed authentications from this address (TRIBUTARY_AUTH_FAILURES_PER_MINUTE); retry in ${wait} s`, 429, wait);
    }
    const token = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1]?.trim();
    const hash = token === undefined ? null : sha256(token);
    const ingestKey = hash !== null && hash === this.ingestKeyHash ? { name: 'ingest-key', scopes: [Scope.INGEST] } : undefined;
    if (!this.enabled) {
      if (ingestKey) return ingestKey;
      throw this.failed(req, 'missing or invalid ingest key: send Authorization: Bearer <key>');
    }
    if (token === undefined || hash === null) throw this.failed(req, 'missing token: send Authorization: Bearer <token>');
    const principal = this.byHash.get(hash) ?? ingestKey ?? (this.jwks && token.split('.').length === 3 ? await this.verifyJwt(token) : undefined);
    if (!principal) throw this.failed(req, 'invalid token: send Authorization: Bearer <token>');
    if (!principal.scopes.includes(scope)) {
      req.principal = principal; // the refusal is logged under its name too
      throw forbidden(`token "${principal.name}" lacks the scope "${scope}" this route needs`);
    }
    return principal;
  }

  /** A 401, counted against the client address's failed-authentication budget. */
  private failed(req: FastifyRequest, message: string): AppError {
    this.failures.failed(req.ip);
    return unauthenticated(message);
  }

  /**
   * A JWT from the configured issuer for the configured audience, signed by a key of its JWKS and
   * not expired; its scopes from the `scope` claim (space-separated) or `scp` (a list), its name
   * from `sub`. Null when it is not such a token (the reason is not told to the client).
   */
  private async verifyJwt(token: string): Promise<Principal | undefined> {
    if (!this.jwks || !this.jwt || token.split('.').length !== 3) return undefined;
    try {
      const { payload } = await jwtVerify(token, this.jwks, { issuer: this.jwt.issuer, audience: this.jwt.audience, clockTolerance: 30 });
      const claimed = typeof payload.scope === 'string' ? payload.scope.split(' ') : Array.isArray(payload.scp) ? (payload.scp as unknown[]).map(String) : [];
      const scopes = claimed.map((s) => s.replace(/^tributary[:.]/, '')).filter((s): s is Scope => (Object.values(Scope) as string[]).includes(s));
      return { name: `jwt:${String(payload.sub ?? 'unknown').slice(0, 200)}`, scopes };
    } catch {
      return undefined;
    }
  }
}

/** The access control a configuration describes (tokens file or text, ingest key, JWT issuer). */
export function authFromConfig(config: Config): Auth {
  return new Auth(
    loadTokens(config.access.tokensFile, config.access.tokens),
    config.ingest.key,
    config.access.jwt,
    new AuthFailures(config.access.authFailuresPerMinute),
  );
}

/**
 * Reads and checks the tokens (YAML or JSON) from the file, or else from the text of TRIBUTARY_TOKENS
 * (for secret stores that hand out environment variables); ConfigError naming every problem.
 */
export function loadTokens(file: string | undefined, inline?: string): { name: string; sha256: string; scopes: Scope[] }[] {
  if (!file && !inline) return [];
  let doc: unknown;
  try {
    doc = parseSettingsDocument(file ? readFileSync(file, 'utf8') : inline!);
  } catch (err) {
    throw new ConfigError(`TRIBUTARY_TOKENS${file ? '_FILE' : ''}: cannot read ${file ?? 'the tokens'}: ${(err as Error).message}`);
  }
  file ??= 'TRIBUTARY_TOKENS';
  const parsed = fileSchema.safeParse(doc);
  if (!parsed.success) {
    throw new ConfigError(`TRIBUTARY_TOKENS_FILE ${file}: ${describeIssues(parsed.error.issues)}`);
  }
  const names = parsed.data.tokens.map((t) => t.name);
  const twice = names.filter((n, i) => names.indexOf(n) !== i);
  if (twice.length > 0) throw new ConfigError(`TRIBUTARY_TOKENS_FILE ${file}: token name used twice: ${twice.join(', ')}`);
  if (parsed.data.tokens.length === 0) throw new ConfigError(`TRIBUTARY_TOKENS_FILE ${file}: no tokens (remove the variable to turn access control off)`);
  return parsed.data.tokens;
}

/** A new random token and the line that lists it in the tokens file. */
export function newToken(name: string, scopes: string[]): { token: string; line: string } {
  const bad = scopes.filter((s) => !(Object.values(Scope) as string[]).includes(s));
  if (!name || scopes.length === 0 || bad.length > 0) {
    throw new ConfigError(`usage: npm run token -- <name> <scope>[,<scope>...] with scopes among ${Object.values(Scope).join(', ')}`);
  }
  const token = `trb_${randomBytes(24).toString('base64url')}`;
  return { token, line: `  - { name: ${JSON.stringify(name)}, sha256: ${sha256(token)}, scopes: [${scopes.join(', ')}] }` };
}
