import { expect } from 'chai'
import { Headers, KeyValue, Record, TaskId } from '../src/index.js'

describe('Record, Headers, KeyValue, TaskId', () => {
  it('Record is immutable; with* return new records sharing the rest', () => {
    const h = new Headers().add('a', '1')
    const r = new Record('k', 1, 5, h)
    const r2 = r.withKey(2).withValue('v').withTimestamp(9)
    expect([r.key, r.value, r.timestamp]).to.deep.equal(['k', 1, 5])
    expect([r2.key, r2.value, r2.timestamp]).to.deep.equal([2, 'v', 9])
    expect(r2.headers).to.equal(h)
    const h2 = new Headers()
    expect(r.withHeaders(h2).headers).to.equal(h2)
  })

  it('Record rejects a negative timestamp', () => {
    expect(() => new Record('k', 'v', -1))
      .to.throw()
      .with.property('code', 'ILLEGAL_ARGUMENT')
  })

  it('Headers keep order and repeats; lastHeader and remove', () => {
    const h = new Headers().add('a', '1').add('b', null).add('a', Buffer.from('2'))
    expect(h.size).to.equal(3)
    expect(h.lastHeader('a')?.value?.toString()).to.equal('2')
    expect(h.headers('a').map(x => x.value?.toString())).to.deep.equal(['1', '2'])
    expect(h.lastHeader('b')?.value).to.equal(null)
    h.remove('a')
    expect(h.toArray().map(x => x.key)).to.deep.equal(['b'])
    expect(new Headers({ x: 'y' }).lastHeader('x')?.value?.toString()).to.equal('y')
  })

  it('KeyValue.pair and TaskId parse/format', () => {
    expect(KeyValue.pair('a', 1)).to.deep.equal(new KeyValue('a', 1))
    const id = TaskId.parse('3_14')
    expect([id.subtopology, id.partition, id.toString()]).to.deep.equal([3, 14, '3_14'])
    expect(id.equals(new TaskId(3, 14))).to.equal(true)
    expect(() => TaskId.parse('x'))
      .to.throw()
      .with.property('code', 'ILLEGAL_ARGUMENT')
  })
})
