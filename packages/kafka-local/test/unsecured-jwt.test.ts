import { expect } from 'chai'
import { unsecuredJwt } from '../src/unsecured-jwt.js'

function parts(token: string): [unknown, Record<string, unknown>, string] {
  const [header, claims, signature] = token.split('.')
  const json = (part: string): unknown => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'))
  return [json(header!), json(claims!) as Record<string, unknown>, signature!]
}

describe('unsecuredJwt', () => {
  it('is an alg-none JWS with sub, iat and exp in seconds and an empty signature', () => {
    const token = unsecuredJwt({ principal: 'alice', now: 1_700_000_000_500 })
    expect(token.split('.')).to.have.length(3)
    const [header, claims, signature] = parts(token)
    expect(header).to.deep.equal({ alg: 'none' })
    expect(claims).to.deep.equal({ sub: 'alice', iat: 1_700_000_000, exp: 1_700_003_600 })
    expect(signature).to.equal('')
  })

  it('takes a lifetime (expired when not positive) and scopes', () => {
    const [, claims] = parts(unsecuredJwt({ principal: 'bob', lifetimeMs: -60_000, scope: ['a', 'b'], now: 1_700_000_000_000 }))
    expect(claims).to.deep.equal({ sub: 'bob', iat: 1_700_000_000, exp: 1_699_999_940, scope: ['a', 'b'] })
  })

  it('refuses an empty principal and a lifetime that is not a number', () => {
    expect(() => unsecuredJwt({ principal: '' })).to.throw(TypeError)
    expect(() => unsecuredJwt({ principal: 'a', lifetimeMs: Number.NaN })).to.throw(TypeError)
  })
})
