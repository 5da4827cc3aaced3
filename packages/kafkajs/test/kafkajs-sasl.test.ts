/**
 * The kafkajs `sasl` the adapter makes, run against a fake SaslAuthenticate (what kafkajs gives an
 * authentication provider): PLAIN and SCRAM through kafkajs' own authenticators, a refusal named
 * by mechanism and broker; OAUTHBEARER with the token the provider gives at each authentication,
 * and a refused token (error code 0, a challenge) failing instead of being taken for success.
 */
import { expect } from 'chai'
import { silentLogger, type KafkaRequestError } from '@kstreams/core'
import { KafkajsInternals } from '../src/kafkajs-internals.js'
import type { SaslAuthenticate, SaslAuthenticationProvider } from '../src/kafkajs-internals.js'
import { kafkajsSasl } from '../src/kafkajs-sasl.js'

const internals = KafkajsInternals.load(silentLogger)
const logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined }

function provider(sasl: Parameters<typeof kafkajsSasl>[0]): { mechanism: string; authenticationProvider: SaslAuthenticationProvider } {
  return kafkajsSasl(sasl, internals) as unknown as { mechanism: string; authenticationProvider: SaslAuthenticationProvider }
}

/** kafkajs' framing: a 4-byte size before the bytes, both ways. */
const framed = (text: string): Buffer => {
  const size = Buffer.alloc(4)
  size.writeInt32BE(Buffer.byteLength(text))
  return Buffer.concat([size, Buffer.from(text)])
}

async function rejection(promise: Promise<unknown>): Promise<KafkaRequestError> {
  try {
    await promise
  } catch (error) {
    return error as KafkaRequestError
  }
  throw new Error('expected a rejection')
}

describe('kafkajs SASL', () => {
  it('PLAIN: kafkajs sends the credentials; a refusal is SASL_AUTHENTICATION_FAILED naming the mechanism, the broker and its reason', async () => {
    const { mechanism, authenticationProvider } = provider({ mechanism: 'plain', username: 'alice', password: 'secret' })
    expect(mechanism).to.equal('plain')
    const sent: Buffer[] = []
    const refuse: SaslAuthenticate = async ({ request }) => {
      sent.push(await request.encode())
      throw new Error('Authentication failed: Invalid username or password')
    }
    const error = await rejection(
      authenticationProvider({
        host: 'b1',
        port: 9096,
        logger: { namespace: () => logger, ...logger },
        saslAuthenticate: refuse
      }).authenticate()
    )
    expect(sent[0]!.subarray(4).toString()).to.equal('\0alice\0secret')
    expect(error.errorName).to.equal('SASL_AUTHENTICATION_FAILED')
    expect(error.message).to.equal(
      'SASL PLAIN authentication with broker b1:9096 failed: Authentication failed: Invalid username or password (SASL_AUTHENTICATION_FAILED)'
    )
    // Thrown inside kafkajs, whose retrier would put an error's cause in its place.
    expect(error.cause).to.equal(undefined)
  })

  it('OAUTHBEARER: the token of the provider, asked at each authentication; a refused token fails after the empty response', async () => {
    let calls = 0
    const { mechanism, authenticationProvider } = provider({
      mechanism: 'oauthbearer',
      oauthBearerProvider: async () => ({ value: `token-${++calls}` })
    })
    expect(mechanism).to.equal('oauthbearer')
    const sent: string[] = []
    const accept: SaslAuthenticate = async ({ request, response }) => {
      sent.push((await request.encode()).subarray(4).toString())
      return await response!.parse(await response!.decode(framed('')))
    }
    const args = { host: 'b1', port: 9096, logger, saslAuthenticate: accept }
    await authenticationProvider(args).authenticate()
    await authenticationProvider(args).authenticate()
    expect(sent).to.deep.equal(['n,,\x01auth=Bearer token-1\x01\x01', 'n,,\x01auth=Bearer token-2\x01\x01'])

    const refuse: SaslAuthenticate = async ({ request, response }) => {
      sent.push((await request.encode()).subarray(4).toString())
      return await response!.parse(await response!.decode(framed('{"status":"invalid_token"}')))
    }
    const error = await rejection(authenticationProvider({ ...args, saslAuthenticate: refuse }).authenticate())
    expect(sent.slice(2)).to.deep.equal(['n,,\x01auth=Bearer token-3\x01\x01', '\x01'])
    expect(error.errorName).to.equal('SASL_AUTHENTICATION_FAILED')
    expect(error.message).to.include('SASL OAUTHBEARER authentication with broker b1:9096 failed: the broker refused the token')
  })
})
