/**
 * kafkajs' `sasl` for a kstreams SaslConfig. Every mechanism goes through an authentication
 * provider of ours (kafkajs' hook for custom mechanisms), so that a refusal is a
 * SASL_AUTHENTICATION_FAILED KafkaRequestError naming the mechanism and the broker:
 *
 * - PLAIN and SCRAM run kafkajs' own authenticators inside;
 * - OAUTHBEARER is ours (core's authenticateOAuthBearer): kafkajs 2.2.4 takes the broker's
 *   refusal of a token for success and then loses the connection at each request, forever. The
 *   provider is called at every authentication: each connection, and each re-authentication
 *   kafkajs does when the broker gave the session a lifetime (KIP-368; kafkajs re-authenticates
 *   a connection when it next connects the broker, so a broker that closes an expired session
 *   first makes it reconnect, with a fresh token).
 *
 * The errors carry no `cause`: kafkajs' retrier replaces an error that has one by its cause.
 */
import type { KafkaConfig } from 'kafkajs'
import { authenticateOAuthBearer, saslAuthenticationError, type SaslConfig, type SaslOAuthBearerConfig } from '@kstreams/core'
import type { KafkajsInternals, SaslAuthenticate, SaslAuthenticationProvider } from './kafkajs-internals.js'

/** kafkajs' prefix of its PLAIN and SCRAM failures (`SASL SCRAM SHA512 authentication failed: `). */
const KAFKAJS_PREFIX = /^SASL [A-Z0-9 -]+ authentication failed: /

/** kafkajs' `sasl` option: the mechanism, with our authentication provider. */
export function kafkajsSasl(sasl: SaslConfig, internals: KafkajsInternals): KafkaConfig['sasl'] {
  const mechanism = sasl.mechanism.toLowerCase()
  const authenticationProvider: SaslAuthenticationProvider =
    sasl.mechanism === 'oauthbearer' ? oauthBearer(sasl) : withBrokerInErrors(mechanism.toUpperCase(), internals, sasl)
  return { mechanism, authenticationProvider } as unknown as KafkaConfig['sasl']
}

/** kafkajs' PLAIN or SCRAM authenticator, its failure named by mechanism and broker. */
function withBrokerInErrors(
  mechanism: string,
  internals: KafkajsInternals,
  credentials: { readonly username: string; readonly password: string }
): SaslAuthenticationProvider {
  const builtIn = internals.saslAuthenticator(mechanism)
  return args => {
    const inner = builtIn({ username: credentials.username, password: credentials.password })(args)
    return {
      authenticate: async () => {
        try {
          await inner.authenticate()
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error)
          throw saslAuthenticationError({ mechanism, broker: `${args.host}:${args.port}`, reason: message.replace(KAFKAJS_PREFIX, '') })
        }
      }
    }
  }
}

/** OAUTHBEARER with the refusal check kafkajs lacks. */
function oauthBearer(config: SaslOAuthBearerConfig): SaslAuthenticationProvider {
  return ({ host, port, saslAuthenticate }) => ({
    authenticate: async () => {
      await authenticateOAuthBearer(
        config,
        `${host}:${port}`,
        async bytes => await sendBytes(saslAuthenticate, bytes),
        bytes => bytes
      )
    }
  })
}

/** One SaslAuthenticate round trip through kafkajs: the bytes out, the broker's bytes back (kafkajs' size prefix removed). */
async function sendBytes(saslAuthenticate: SaslAuthenticate, bytes: Buffer): Promise<Buffer> {
  const size = Buffer.alloc(4)
  size.writeInt32BE(bytes.length)
  const answer = await saslAuthenticate({
    request: { encode: async () => Buffer.concat([size, bytes]) },
    response: { decode: async (raw: Buffer) => raw, parse: async (decoded: Buffer) => decoded }
  })
  return answer === undefined || answer.length < 4 ? Buffer.alloc(0) : answer.subarray(4)
}
