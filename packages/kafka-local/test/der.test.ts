import { expect } from 'chai'
import { integer, namedBits, oid } from '../src/der.js'

describe('der', () => {
  it('encodes integers minimally, with a zero byte before a set high bit', () => {
    expect(integer(0).toString('hex')).to.equal('020100')
    expect(integer(127).toString('hex')).to.equal('02017f')
    expect(integer(128).toString('hex')).to.equal('02020080')
    expect(integer(Buffer.from('0000ff', 'hex')).toString('hex')).to.equal('020200ff')
  })

  it('encodes object identifiers with base-128 arcs', () => {
    expect(oid('2.5.4.3').toString('hex')).to.equal('0603550403')
    expect(oid('1.2.840.113549.1.12.10.1.2').toString('hex')).to.equal('060b2a864886f70d010c0a0102')
  })

  it('encodes named bits without trailing zero bits', () => {
    expect(namedBits([0]).toString('hex')).to.equal('03020780')
    expect(namedBits([5, 6]).toString('hex')).to.equal('03020106')
  })
})
