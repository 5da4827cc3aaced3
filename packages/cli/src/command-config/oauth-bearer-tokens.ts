/**
 * OAUTHBEARER tokens as Kafka's Java login callback handlers get them:
 * - unsecuredToken: what OAuthBearerUnsecuredLoginCallbackHandler (Kafka's default) makes from
 *   the `unsecuredLogin*` JAAS options, an unsigned JWS (`alg` none) that only brokers in Kafka's
 *   unsecured mode accept (development and test clusters);
 * - ClientCredentialsTokens: what OAuthBearerLoginCallbackHandler gets (KIP-768): an OAuth 2
 *   client-credentials grant POSTed to `sasl.oauthbearer.token.endpoint.url` with HTTP Basic
 *   client id and secret and an optional scope, the response's `access_token` kept until 80% of
 *   its lifetime (Java's default refresh point) has passed; a `file:` URL names a file holding
 *   the token, read each time.
 * Errors never hold the client secret or a token. @internal
 */
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'

/** What the adapters' `oauthBearerProvider` returns (kafkajs' shape): the token and any SASL extensions. */
export interface OAuthBearerToken {
  readonly value: string
  readonly extensions?: Readonly<Record<string, string>>
}

/** A failure to get a token; the message names the endpoint, never a secret. */
export class OAuthBearerTokenError extends Error {}

/** An unsecured token (`<header>.<claims>.`) from the `unsecuredLogin*` options: string, number and list claims, `iat` now and `exp` after the lifetime (default one hour). */
export function unsecuredToken(options: ReadonlyMap<string, string>, nowMs: number): string {
  const lifetime = Number(options.get('unsecuredLoginLifetimeSeconds') ?? '3600')
  const claims: Record<string, unknown> = { exp: nowMs / 1000 + lifetime, iat: nowMs / 1000 }
  for (const [name, value] of options) {
    const claim = /^unsecuredLogin(String|Number|List)Claim_(.+)$/.exec(name)
    if (claim === null) continue
    const [, kind, claimName] = claim
    // A list claim's first character is its delimiter, as Kafka reads it.
    claims[claimName!] =
      kind === 'String'
        ? value
        : kind === 'Number'
          ? Number(value)
          : value
              .slice(1)
              .split(value[0] ?? ',')
              .filter(v => v !== '')
  }
  const part = (value: object): string => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url')
  return `${part({ alg: 'none' })}.${part(claims)}.`
}

/** The settings of a client-credentials login. */
export interface ClientCredentialsSettings {
  /** `sasl.oauthbearer.token.endpoint.url`: http(s) or file. */
  readonly endpoint: URL
  readonly clientId?: string
  readonly clientSecret?: string
  readonly scope?: string
  /** `sasl.oauthbearer.header.urlencode`: URL-encode the id and secret in the Basic header (RFC 6749 2.3.1). */
  readonly urlencodeHeader: boolean
  /** `sasl.login.connect.timeout.ms` + `sasl.login.read.timeout.ms`, or 10 s. */
  readonly timeoutMs: number
}

/** Access tokens from a token endpoint, cached until 80% of their lifetime. */
export class ClientCredentialsTokens {
  readonly #settings: ClientCredentialsSettings
  readonly #now: () => number
  #cached: { value: string; refreshAt: number } | undefined

  constructor(settings: ClientCredentialsSettings, now: () => number = Date.now) {
    this.#settings = settings
    this.#now = now
  }

  /** A current access token. */
  async token(): Promise<string> {
    if (this.#settings.endpoint.protocol === 'file:') return await this.#fromFile()
    const now = this.#now()
    if (this.#cached !== undefined && now < this.#cached.refreshAt) return this.#cached.value
    const { value, lifetimeMs } = await this.#request()
    this.#cached = lifetimeMs === undefined ? undefined : { value, refreshAt: now + lifetimeMs * 0.8 }
    return value
  }

  async #fromFile(): Promise<string> {
    try {
      const value = (await readFile(fileURLToPath(this.#settings.endpoint), 'utf8')).trim()
      if (value === '') throw new OAuthBearerTokenError(`the token file ${this.#settings.endpoint.href} is empty`)
      return value
    } catch (error) {
      if (error instanceof OAuthBearerTokenError) throw error
      throw new OAuthBearerTokenError(`the token file ${this.#settings.endpoint.href} cannot be read: ${(error as Error).message}`, {
        cause: error
      })
    }
  }

  async #request(): Promise<{ value: string; lifetimeMs: number | undefined }> {
    const { endpoint, clientId, clientSecret, scope, urlencodeHeader, timeoutMs } = this.#settings
    const where = `the token endpoint ${endpoint.origin}${endpoint.pathname}`
    const encode = (s: string): string => (urlencodeHeader ? encodeURIComponent(s) : s)
    const body = new URLSearchParams({ grant_type: 'client_credentials', ...(scope === undefined || scope === '' ? {} : { scope }) })
    let response: Response
    try {
      response = await fetch(endpoint, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
          ...(clientId === undefined
            ? {}
            : { authorization: `Basic ${Buffer.from(`${encode(clientId)}:${encode(clientSecret ?? '')}`, 'utf8').toString('base64')}` })
        },
        body: body.toString(),
        signal: AbortSignal.timeout(timeoutMs)
      })
    } catch (error) {
      throw new OAuthBearerTokenError(`${where} did not answer: ${(error as Error).message}`, { cause: error })
    }
    const text = await response.text()
    if (!response.ok) throw new OAuthBearerTokenError(`${where} answered HTTP ${response.status}${errorOf(text)}`)
    let json: { access_token?: unknown; expires_in?: unknown }
    try {
      json = JSON.parse(text) as typeof json
    } catch {
      throw new OAuthBearerTokenError(`${where} answered something other than JSON`)
    }
    if (typeof json.access_token !== 'string' || json.access_token === '')
      throw new OAuthBearerTokenError(`${where} answered without an access_token`)
    const fromJwt = jwtExpiry(json.access_token)
    const lifetimeMs =
      fromJwt !== undefined ? fromJwt - this.#now() : typeof json.expires_in === 'number' ? json.expires_in * 1000 : undefined
    return { value: json.access_token, lifetimeMs }
  }
}

/** The OAuth `error` and `error_description` of an error answer (RFC 6749 5.2), which hold no secret. */
function errorOf(text: string): string {
  try {
    const json = JSON.parse(text) as { error?: unknown; error_description?: unknown }
    const parts = [json.error, json.error_description].filter(p => typeof p === 'string' && p !== '')
    return parts.length === 0 ? '' : `: ${parts.join(': ')}`
  } catch {
    return ''
  }
}

/** A JWT's `exp` in epoch milliseconds, when the token is a JWT with one. */
function jwtExpiry(token: string): number | undefined {
  const payload = token.split('.')[1]
  if (payload === undefined) return undefined
  try {
    const exp = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: unknown }).exp
    return typeof exp === 'number' ? exp * 1000 : undefined
  } catch {
    return undefined
  }
}
