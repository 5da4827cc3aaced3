/**
 * platformatic's `sasl` for a kstreams SaslConfig. Every mechanism goes through an authenticator
 * of ours (platformatic's `authenticate` hook), so that a refusal is a SASL_AUTHENTICATION_FAILED
 * KafkaRequestError naming the mechanism and the broker, with the broker's reason (platformatic's
 * own error says "SASL authentication failed." four causes deep):
 *
 * - PLAIN and SCRAM run platformatic's own exchanges inside;
 * - OAUTHBEARER is core's authenticateOAuthBearer: one provider call per authentication, the
 *   token's extensions sent, and a refused token (an error challenge with error code 0, which
 *   platformatic takes for success without an authBytesValidator) named as such.
 *
 * The provider is called again at each re-authentication, which platformatic starts at 80% of the
 * session lifetime the broker gave (KIP-368).
 */
import { saslPlain, saslScramSha, type Connection, type SASLOptions } from '@platformatic/kafka'
import { authenticateOAuthBearer, errorChain, saslAuthenticationError, type SaslConfig } from '@kstreams/core'

type Authenticate = NonNullable<SASLOptions['authenticate']>
type AuthenticateApi = Parameters<Authenticate>[2]
type Done = Parameters<Authenticate>[6]
type AuthenticateResponse = Parameters<Done>[1]

const MECHANISMS = {
  plain: 'PLAIN',
  'scram-sha-256': 'SCRAM-SHA-256',
  'scram-sha-512': 'SCRAM-SHA-512',
  oauthbearer: 'OAUTHBEARER'
} as const satisfies Record<SaslConfig['mechanism'], SASLOptions['mechanism']>

/** platformatic's `sasl` connection option: the mechanism, with our authenticator. */
export function platformaticSasl(sasl: SaslConfig): SASLOptions {
  const mechanism = MECHANISMS[sasl.mechanism.toLowerCase() as SaslConfig['mechanism']]
  return { mechanism, authenticate: authenticator(sasl, mechanism) }
}

function authenticator(sasl: SaslConfig, mechanism: SASLOptions['mechanism']): Authenticate {
  return (_mechanism, connection, authenticateApi, _username, _password, _token, done) => {
    const broker = `${connection.host ?? '?'}:${connection.port ?? '?'}`
    const failed = (error: Error): void => {
      done(
        saslAuthenticationError({ mechanism, broker, reason: reasonOf(error), cause: error }),
        undefined as unknown as AuthenticateResponse
      )
    }
    const settle = (error: Error | null | undefined, response?: AuthenticateResponse): void => {
      if (error !== null && error !== undefined) failed(error)
      else done(null, response!)
    }
    if (sasl.mechanism === 'oauthbearer') {
      authenticateOAuthBearer(
        sasl,
        broker,
        async bytes => await send(authenticateApi, connection, bytes),
        r => r?.authBytes
      ).then(
        response => done(null, response),
        (error: Error) => done(error, undefined as unknown as AuthenticateResponse)
      )
    } else if (sasl.mechanism === 'plain') {
      saslPlain.authenticate(authenticateApi, connection, sasl.username, sasl.password, settle)
    } else {
      const algorithm = sasl.mechanism === 'scram-sha-256' ? 'SHA-256' : 'SHA-512'
      saslScramSha.authenticate(authenticateApi, connection, algorithm, sasl.username, sasl.password, saslScramSha.defaultCrypto, settle)
    }
  }
}

async function send(authenticateApi: AuthenticateApi, connection: Connection, bytes: Buffer): Promise<AuthenticateResponse> {
  return await new Promise((resolve, reject) => {
    authenticateApi(connection, bytes, (error, response) => {
      if (error !== null && error !== undefined) reject(error)
      else resolve(response!)
    })
  })
}

/** The broker's reason (its error message on the SaslAuthenticate answer), else the client's message. */
function reasonOf(error: Error): string {
  for (const e of errorChain(error)) {
    const server = (e as { serverErrorMessage?: unknown }).serverErrorMessage
    if (typeof server === 'string' && server !== '') return server
  }
  return error.message
}
