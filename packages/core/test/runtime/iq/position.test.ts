import { expect } from 'chai'
import { Position, PositionBound } from '../../../src/runtime/iq/v2/position.js'

describe('IQv2 Position and PositionBound', () => {
  it('builds, updates (keeping the larger offset), merges and copies positions', () => {
    const p = Position.fromMap({ t: { 0: 5, 1: 7 } })
    p.update('t', 0, 3)
    p.update('t', 0, 9)
    p.update('u', 2, 1)
    expect(p.toString()).to.equal('Position{position={t={0=9, 1=7}, u={2=1}}}')
    const copy = p.copy()
    p.withComponent('t', 0, 1)
    expect(copy.getPartitionPositions('t').get(0)).to.equal(9)
    const merged = copy.merge(Position.fromMap(new Map([['t', new Map([[1, 10]])]])))
    expect(merged.toString()).to.equal('Position{position={t={0=9, 1=10}, u={2=1}}}')
    expect(Position.emptyPosition().isEmpty()).to.equal(true)
    expect(merged.equals(Position.fromMap({ u: { 2: 1 }, t: { 1: 10, 0: 9 } }))).to.equal(true)
  })

  it('a bound permits a store partition that has seen every bounded topic of that partition far enough (Kafka isPermitted)', () => {
    const bound = PositionBound.at(Position.fromMap({ t: { 0: 10 }, u: { 1: 3 } }))
    expect(bound.permits(Position.fromMap({ t: { 0: 10 } }), 0)).to.equal(true)
    expect(bound.permits(Position.fromMap({ t: { 0: 9 } }), 0)).to.equal(false)
    expect(bound.permits(Position.emptyPosition(), 0)).to.equal(false)
    // partition 2 is bounded by nothing
    expect(bound.permits(Position.emptyPosition(), 2)).to.equal(true)
    expect(bound.permits(Position.fromMap({ u: { 1: 2 } }), 1)).to.equal(false)
    expect(PositionBound.unbounded().permits(Position.emptyPosition(), 0)).to.equal(true)
    expect(PositionBound.unbounded().isUnbounded()).to.equal(true)
  })
})
