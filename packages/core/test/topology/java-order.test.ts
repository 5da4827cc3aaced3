import { expect } from 'chai'
import { JavaTreeSet, javaHashOrder, javaHashSetCopyOrder, javaStringHashCode } from '../../src/topology/java-order.js'

// Expected values were printed by OpenJDK 17 for the same inputs.

describe('java-order', () => {
  describe('javaStringHashCode', () => {
    it('is String.hashCode(), with 32-bit wrap-around', () => {
      expect(javaStringHashCode('')).to.equal(0)
      expect(javaStringHashCode('hello')).to.equal(99162322)
      expect(javaStringHashCode('polygenelubricants')).to.equal(-2147483648)
      expect(javaStringHashCode('KSTREAM-SOURCE-0000000000')).to.equal(1861603632)
      expect(javaStringHashCode('Aa')).to.equal(javaStringHashCode('BB'))
    })
  })

  describe('javaHashOrder / javaHashSetCopyOrder', () => {
    it('keeps colliding keys in insertion order', () => {
      expect(javaHashSetCopyOrder(['BB', 'Aa'])).to.deep.equal(['BB', 'Aa'])
      expect(javaHashSetCopyOrder(['Aa', 'BB'])).to.deep.equal(['Aa', 'BB'])
    })

    it('orders by hash bucket, not by insertion or name', () => {
      expect(javaHashSetCopyOrder(['topic1', 'topic2', 'topic3', 'input', 'output'])).to.deep.equal([
        'topic1',
        'output',
        'topic2',
        'input',
        'topic3'
      ])
    })

    it('doubles the table past 75% load', () => {
      const keys = Array.from({ length: 20 }, (_, i) => `node-${i}`)
      expect(javaHashOrder(keys).join(', ')).to.equal(
        'node-0, node-1, node-2, node-3, node-15, node-4, node-14, node-5, node-13, node-6, node-12, node-7, node-11, node-8, node-10, node-9, node-19, node-18, node-17, node-16'
      )
    })

    it('doubles a small table when one bucket reaches 9 keys', () => {
      const colliding = Array.from({ length: 9 }, (_, i) => [0, 1, 2, 3].map(b => (((i >> b) & 1) === 0 ? 'Aa' : 'BB')).join(''))
      expect(javaHashOrder([...colliding, 'zz', 'a', 'q']).join(', ')).to.equal(
        'zz, a, AaAaAaAa, BBAaAaAa, AaBBAaAa, BBBBAaAa, AaAaBBAa, BBAaBBAa, AaBBBBAa, BBBBBBAa, AaAaAaBB, q'
      )
    })

    it('ignores repeated keys', () => {
      expect(javaHashOrder(['b', 'a', 'b'])).to.deep.equal(['a', 'b'])
    })
  })

  describe('JavaTreeSet', () => {
    it('iterates in comparator order and rejects keys comparing equal', () => {
      const set = new JavaTreeSet<number>((a, b) => a - b)
      const values = [41, 7, 93, 7, 12, 58, 3, 77, 25, 64, 1, 99, 50]
      const added = values.map(v => set.add(v))
      expect(added.filter(a => !a)).to.have.length(1)
      expect(set.size).to.equal(12)
      expect(set.values()).to.deep.equal([...new Set(values)].sort((a, b) => a - b))
    })

    it("reproduces TreeMap's tree shape when the comparator changes between insertions", () => {
      const weight = new Map<string, number>()
      const set = new JavaTreeSet<string>((x, y) =>
        x === y ? 0 : weight.get(x) !== weight.get(y) ? weight.get(y)! - weight.get(x)! : x < y ? -1 : 1
      )
      const names = ['m', 'c', 'x', 'a', 'q', 'b', 'z', 'k', 'e', 'r', 'd', 'y']
      names.forEach((name, i) => {
        weight.set(name, 1)
        set.add(name)
        if ((i + 1) % 3 === 0) weight.set(names[Math.floor((i + 1) / 2)]!, i + 1)
      })
      expect(set.values().join(', ')).to.equal('c, a, b, d, e, k, m, q, r, x, y, z')
    })
  })
})
