import { expect } from 'chai'
import { validateStoreName } from '../../src/state/store-name.js'
import { codeOf } from './helpers/expect-code.js'

describe('validateStoreName', () => {
  for (const name of ['counts', 'my-store', 'KSTREAM-AGGREGATE-STATE-STORE-0000000003', 'a.b_c-D9', '...', 'x'.repeat(249)]) {
    it(`accepts ${JSON.stringify(name.length > 20 ? `${name.slice(0, 20)}...` : name)}`, () => {
      expect(validateStoreName(name)).to.equal(name)
    })
  }

  for (const name of ['', '.', '..', '../x', 'a/b', 'a\\b', 'a b', 'store:1', 'zähler', 'x'.repeat(250), 'a\0b']) {
    it(`rejects ${JSON.stringify(name.length > 20 ? `${name.slice(0, 20)}...` : name)} with ILLEGAL_ARGUMENT`, () => {
      expect(codeOf(() => validateStoreName(name))).to.equal('ILLEGAL_ARGUMENT')
    })
  }

  it('names the store in the error', () => {
    expect(() => validateStoreName('a/b')).to.throw('a/b')
  })

  it('rejects a name that is not a string', () => {
    expect(codeOf(() => validateStoreName(undefined as unknown as string))).to.equal('ILLEGAL_ARGUMENT')
  })
})
