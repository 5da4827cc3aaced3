/**
 * The platformatic `sasl` the adapter makes, run against a fake SaslAuthenticate API (what
 * platformatic gives a custom authenticator): PLAIN and SCRAM through platformatic's exchanges, a
 * refusal named by mechanism, broker and the broker's own reason; OAUTHBEARER with the provider's
 * token at each authentication, and a refused token (a challenge with error code 0, which
 * platformatic takes for success) failing.
 */
import { expect } from 'chai'
import { ResponseError, type Connection, type SASLOptions } from '@platformatic/kafka'
import type { KafkaRequestError } from '@kstreams/core'
import { platformaticSasl } from '../src/platformatic-sasl.js'

type Authenticate = NonNullable<SASLOptions['authenticate']>
type AuthenticateApi = Parameters<Authenticate>[2]

const CONNECTION = { host: 'b1', port: 9096 } as unknown as Connection

/** Runs the adapter's authenticator once; resolves with its callback's error, or undefined. */
async function authenticate(sasl: SASLOptions, api: (bytes: Buffer) => { error?: Error; authBytes?: Buffer }): Promise<Error | undefined> {
  const fake = ((_connection: Connection, bytes: Buffer, callback: (error: Error | null, response?: unknown) => void) => {
    const { error, authBytes } = api(bytes)
    setImmediate(() =>
      callback(error ?? null, { errorCode: 0, errorMessage: null, authBytes: authBytes ?? Buffer.alloc(0), sessionLifetimeMs: 0n })
    )
  }) as unknown as AuthenticateApi
  return await new Promise(resolve => {
    sasl.authenticate!(sasl.mechanism, CONNECTION, fake, undefined, undefined, undefined, error => resolve(error ?? undefined))
  })
}

describe('platformatic SASL', () => {
  it("PLAIN: platformatic's exchange; a refusal is SASL_AUTHENTICATION_FAILED naming the mechanism, the broker and the broker's reason", async () => {
    const sasl = platformaticSasl({ mechanism: 'plain', username: 'alice', password: 'secret' })
    expect(sasl.mechanism).to.equal('PLAIN')
    const sent: string[] = []
    const error = (await authenticate(sasl, bytes => {
      sent.push(bytes.toString())
      return { error: new ResponseError(36, 2, { '': [58, 'Authentication failed: Invalid username or password'] }, {}) }
    })) as KafkaRequestError
    expect(sent).to.deep.equal(['\0alice\0secret'])
    expect(error.errorName).to.equal('SASL_AUTHENTICATION_FAILED')
    expect(error.message).to.equal(
      'SASL PLAIN authentication with broker b1:9096 failed: Authentication failed: Invalid username or password (SASL_AUTHENTICATION_FAILED)'
    )
    expect(platformaticSasl({ mechanism: 'scram-sha-256', username: 'u', password: 'p' }).mechanism).to.equal('SCRAM-SHA-256')
  })

  it('OAUTHBEARER: the provider asked at each authentication; a refused token fails after the empty response', async () => {
    let calls = 0
    const sasl = platformaticSasl({ mechanism: 'oauthbearer', oauthBearerProvider: () => ({ value: `token-${++calls}` }) })
    expect(sasl.mechanism).to.equal('OAUTHBEARER')
    const sent: string[] = []
    const accept = (bytes: Buffer): object => {
      sent.push(bytes.toString())
      return {}
    }
    expect(await authenticate(sasl, accept)).to.equal(undefined)
    expect(await authenticate(sasl, accept)).to.equal(undefined)
    const refused = (await authenticate(sasl, bytes => {
      sent.push(bytes.toString())
      return { authBytes: Buffer.from('{"status":"invalid_token"}') }
    })) as KafkaRequestError
    expect(sent).to.deep.equal([
      'n,,\x01auth=Bearer token-1\x01\x01',
      'n,,\x01auth=Bearer token-2\x01\x01',
      'n,,\x01auth=Bearer token-3\x01\x01',
      '\x01'
    ])
    expect(refused.errorName).to.equal('SASL_AUTHENTICATION_FAILED')
    expect(refused.message).to.include(
      'SASL OAUTHBEARER authentication with broker b1:9096 failed: the broker refused the token: status "invalid_token"'
    )
  })
})
