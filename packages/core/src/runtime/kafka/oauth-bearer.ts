/**
 * SASL OAUTHBEARER (RFC 7628) as Kafka speaks it, for the client adapters: the client's message,
 * the broker's refusal, and one authentication run on an adapter's "send SASL bytes" function.
 * A broker that refuses a token does not answer with an error code: it sends a challenge
 * (`{"status":"invalid_token"}`) with error code 0 and waits for the client's empty response
 * (`\x01`), after which it fails the handshake. kafkajs 2.2.4 takes the challenge for success and
 * then loses the connection at its next request, forever; here the refusal is an error naming
 * the broker and the status.
 * @internal For client adapters.
 */
import type { OAuthBearerToken, SaslOAuthBearerConfig } from '../../config/security-config.js'
import { saslAuthenticationError } from './security-errors.js'

const SEPARATOR = '\x01'

/** The client's first message: GS2 header, `auth=Bearer <token>`, the extensions. */
export function oauthBearerClientMessage(token: OAuthBearerToken): Buffer {
  const extensions = Object.entries(token.extensions ?? {})
    .map(([key, value]) => `${SEPARATOR}${key}=${value}`)
    .join('')
  return Buffer.from(`n,,${SEPARATOR}auth=Bearer ${token.value}${extensions}${SEPARATOR}${SEPARATOR}`, 'utf8')
}

/** The broker's answer to the client's message: empty when the token was taken, else why it was refused. */
export function oauthBearerRefusal(authBytes: Buffer | null | undefined): string | undefined {
  if (authBytes === null || authBytes === undefined || authBytes.length === 0) return undefined
  const text = authBytes.toString('utf8')
  try {
    const parsed = JSON.parse(text) as { status?: unknown; scope?: unknown }
    const scope = typeof parsed.scope === 'string' && parsed.scope !== '' ? ` (required scope: ${parsed.scope})` : ''
    return `the broker refused the token: status ${JSON.stringify(parsed.status ?? 'unknown')}${scope}; is it expired, or for another audience or issuer?`
  } catch {
    return `the broker refused the token: ${text.slice(0, 200)}`
  }
}

/**
 * Authenticates once with OAUTHBEARER through `send` (the adapter's SaslAuthenticate: sends SASL
 * bytes, resolves with the broker's bytes, rejects with a broker error); rejects with a
 * SASL_AUTHENTICATION_FAILED KafkaRequestError naming `broker` when the provider fails or the
 * broker refuses the token (without a `cause`: its message says what failed). Resolves with the
 * broker's answer to the token.
 */
export async function authenticateOAuthBearer<R>(
  config: SaslOAuthBearerConfig,
  broker: string,
  send: (bytes: Buffer) => Promise<R>,
  authBytesOf: (response: R) => Buffer | null | undefined
): Promise<R> {
  // No `cause`: the messages carry the reason, and kafkajs' retrier replaces an error that has a cause by the cause.
  const fail = (reason: string): Error => saslAuthenticationError({ mechanism: 'OAUTHBEARER', broker, reason })
  let token: OAuthBearerToken
  try {
    token = await config.oauthBearerProvider()
  } catch (error) {
    throw fail(`the oauthBearerProvider failed: ${error instanceof Error ? error.message : String(error)}`)
  }
  if (token === null || typeof token !== 'object' || typeof token.value !== 'string' || token.value === '')
    throw fail('the oauthBearerProvider gave no token: it must give { value: token }')
  let response: R
  try {
    response = await send(oauthBearerClientMessage(token))
  } catch (error) {
    throw fail(error instanceof Error ? error.message : String(error))
  }
  const refusal = oauthBearerRefusal(authBytesOf(response))
  if (refusal === undefined) return response
  // The broker waits for the client's empty response before it fails the handshake.
  await send(Buffer.from(SEPARATOR)).catch(() => undefined)
  throw fail(refusal)
}
