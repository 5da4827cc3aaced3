/**
 * Unsecured OAUTHBEARER tokens for tests: what Kafka's unsecured mode (its default OAUTHBEARER
 * validator, OAuthBearerUnsecuredValidatorCallbackHandler) accepts. Such a token is a JWS with
 * `{"alg":"none"}`, a claims part and an empty signature: `<header>.<claims>.`, each part
 * base64url. The broker requires the subject claim (`sub`) and `exp`; it checks that the token is not
 * expired, takes `sub` as the principal and trusts it without any signature. Never for real clusters.
 */

/** What goes into an unsecured token. */
export interface UnsecuredJwtOptions {
  /** The `sub` claim: the principal the broker authenticates the client as (User:<principal>). */
  readonly principal: string
  /** Milliseconds until `exp`, from now; default one hour. Zero or negative makes an expired token (refused). */
  readonly lifetimeMs?: number
  /** The `scope` claim, when the broker is configured to require scopes. */
  readonly scope?: readonly string[]
  /** "Now" in epoch milliseconds, for `iat` and `exp`; default Date.now(). */
  readonly now?: number
}

/**
 * An unsecured JWS (`alg` none) for Kafka's unsecured OAUTHBEARER mode. For kafkajs:
 * `sasl: { mechanism: 'oauthbearer', oauthBearerProvider: async () => ({ value: unsecuredJwt({ principal: 'alice' }) }) }`.
 */
export function unsecuredJwt(options: UnsecuredJwtOptions): string {
  const now = options.now ?? Date.now()
  const lifetimeMs = options.lifetimeMs ?? 3_600_000
  if (options.principal === '') throw new TypeError('unsecuredJwt: principal must not be empty')
  if (!Number.isFinite(lifetimeMs)) throw new TypeError(`unsecuredJwt: lifetimeMs must be a finite number, got ${lifetimeMs}`)
  const claims: Record<string, unknown> = {
    sub: options.principal,
    iat: Math.floor(now / 1000),
    exp: Math.floor((now + lifetimeMs) / 1000)
  }
  if (options.scope !== undefined) claims.scope = [...options.scope]
  return `${part({ alg: 'none' })}.${part(claims)}.`
}

function part(value: object): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url')
}
