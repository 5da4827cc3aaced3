/**
 * SASL OAUTHBEARER as both adapters run it: the client's message (RFC 7628, extensions included),
 * one provider call per authentication, and a token the broker refuses (a challenge with error code
 * 0, which kafkajs 2.2.4 takes for success) failing with SASL_AUTHENTICATION_FAILED after the
 * client's empty response, as the broker expects it.
 */
import { expect } from 'chai'
import type { KafkaRequestError } from '../../../src/runtime/kafka/kafka-request-error.js'
import { authenticateOAuthBearer, oauthBearerClientMessage, oauthBearerRefusal } from '../../../src/runtime/kafka/oauth-bearer.js'

async function rejection(promise: Promise<unknown>): Promise<KafkaRequestError> {
  try {
    await promise
  } catch (error) {
    return error as KafkaRequestError
  }
  throw new Error('expected a rejection')
}

describe('OAUTHBEARER', () => {
  it("the client's message: GS2 header, the bearer token, the extensions", () => {
    expect(oauthBearerClientMessage({ value: 'tok' }).toString()).to.equal('n,,\x01auth=Bearer tok\x01\x01')
    expect(
      oauthBearerClientMessage({ value: 'tok', extensions: { logicalCluster: 'lkc-1', identityPoolId: 'pool-2' } }).toString()
    ).to.equal('n,,\x01auth=Bearer tok\x01logicalCluster=lkc-1\x01identityPoolId=pool-2\x01\x01')
  })

  it("the broker's answer: empty when the token was taken, its status (and required scope) when refused", () => {
    expect(oauthBearerRefusal(Buffer.alloc(0))).to.equal(undefined)
    expect(oauthBearerRefusal(undefined)).to.equal(undefined)
    expect(oauthBearerRefusal(Buffer.from('{"status":"invalid_token"}'))).to.include('the broker refused the token: status "invalid_token"')
    expect(oauthBearerRefusal(Buffer.from('{"status":"insufficient_scope","scope":"kafka"}'))).to.include('(required scope: kafka)')
    expect(oauthBearerRefusal(Buffer.from('nope'))).to.equal('the broker refused the token: nope')
  })

  it('authenticates with one provider call, and gives back the broker answer', async () => {
    const sent: string[] = []
    let calls = 0
    const answer = await authenticateOAuthBearer(
      {
        mechanism: 'oauthbearer',
        oauthBearerProvider: async () => {
          calls += 1
          return { value: `token-${calls}` }
        }
      },
      'b1:9096',
      async bytes => {
        sent.push(bytes.toString())
        return { authBytes: Buffer.alloc(0), sessionLifetimeMs: 15000 }
      },
      r => r.authBytes
    )
    expect(calls).to.equal(1)
    expect(sent).to.deep.equal(['n,,\x01auth=Bearer token-1\x01\x01'])
    expect(answer.sessionLifetimeMs).to.equal(15000)
  })

  it("a refused token: the client's empty response goes out, then SASL_AUTHENTICATION_FAILED naming the broker and the status", async () => {
    const sent: string[] = []
    const error = await rejection(
      authenticateOAuthBearer(
        { mechanism: 'oauthbearer', oauthBearerProvider: () => ({ value: 'tok-123' }) },
        'b1:9096',
        async bytes => {
          sent.push(bytes.toString())
          if (sent.length === 2) throw new Error('Authentication failed')
          return Buffer.from('{"status":"invalid_token"}')
        },
        r => r
      )
    )
    expect(sent).to.deep.equal(['n,,\x01auth=Bearer tok-123\x01\x01', '\x01'])
    expect(error.errorName).to.equal('SASL_AUTHENTICATION_FAILED')
    expect(error.message).to.include(
      'SASL OAUTHBEARER authentication with broker b1:9096 failed: the broker refused the token: status "invalid_token"'
    )
    expect(error.message).not.to.include('tok-123')
  })

  it('a provider that fails or gives no token: SASL_AUTHENTICATION_FAILED saying so, nothing sent', async () => {
    const send = async (): Promise<Buffer> => {
      throw new Error('not sent')
    }
    const failed = await rejection(
      authenticateOAuthBearer(
        {
          mechanism: 'oauthbearer',
          oauthBearerProvider: async () => {
            throw new Error('identity provider down')
          }
        },
        'b1:9096',
        send,
        r => r
      )
    )
    expect(failed.message).to.include('the oauthBearerProvider failed: identity provider down')
    const empty = await rejection(
      authenticateOAuthBearer({ mechanism: 'oauthbearer', oauthBearerProvider: async () => ({ value: '' }) }, 'b1:9096', send, r => r)
    )
    expect(empty.message).to.include('gave no token')
  })
})
