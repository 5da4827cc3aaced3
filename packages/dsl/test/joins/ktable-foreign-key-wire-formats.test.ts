/** Golden bytes of the foreign-key join's internal formats (Kafka Streams' layouts) and its murmur3 hash. */
import { expect } from 'chai'
import { murmur3Hash128 } from '../../src/internal/foreign-key-join/murmur3.js'
import {
  combinedKey,
  deserializeResponse,
  deserializeSubscription,
  foreignKeyPrefix,
  Instruction,
  responsePrimaryPartition,
  serializeResponse,
  serializeSubscription,
  splitCombinedKey
} from '../../src/internal/foreign-key-join/wire-formats.js'

const hex = (b: Buffer): string => b.toString('hex')

describe('foreign-key join wire formats', () => {
  it('murmur3 x64 128 with seed 104729 (Kafka Streams Murmur3.hash128), empty, tail-only and block inputs', () => {
    expect(murmur3Hash128(new Uint8Array(0))).to.deep.equal([-7122613646888064702n, -8341524471658347240n])
    expect(murmur3Hash128(Buffer.from('hello'))).to.deep.equal([3512725192710940516n, 6227047293690958278n])
    expect(murmur3Hash128(Buffer.from('The quick brown fox jumps over the lazy dog'))).to.deep.equal([
      -1779949751512360504n,
      -5190294356955732186n
    ])
  })

  it('SubscriptionWrapper v1: version, instruction, hash, primary key, primary partition', () => {
    const withHash = serializeSubscription({
      hash: [1n, -2n],
      instruction: Instruction.PROPAGATE_ONLY_IF_FK_VAL_AVAILABLE,
      primaryKey: Buffer.from('pk'),
      primaryPartition: 5
    })
    expect(hex(withHash)).to.equal('01' + '03' + '0000000000000001' + 'fffffffffffffffe' + '706b' + '00000005')
    expect(deserializeSubscription(withHash)).to.deep.equal({
      hash: [1n, -2n],
      instruction: 3,
      primaryKey: Buffer.from('pk'),
      primaryPartition: 5
    })
    const noHash = serializeSubscription({
      hash: null,
      instruction: Instruction.DELETE_KEY_AND_PROPAGATE,
      primaryKey: Buffer.from('pk'),
      primaryPartition: -1
    })
    expect(hex(noHash)).to.equal('81' + '01' + '706b' + 'ffffffff')
    expect(deserializeSubscription(noHash)).to.deep.include({ hash: null, instruction: 1, primaryPartition: -1 })
  })

  it('SubscriptionResponseWrapper v1: version, primary partition, hash, foreign value', () => {
    const full = serializeResponse({ hash: [2n, 3n], foreignValue: Buffer.from('v'), primaryPartition: 0 })
    expect(hex(full)).to.equal('01' + '00000000' + '0000000000000002' + '0000000000000003' + '76')
    expect(deserializeResponse(full)).to.deep.equal({ hash: [2n, 3n], foreignValue: Buffer.from('v'), primaryPartition: 0 })
    const tombstone = serializeResponse({ hash: null, foreignValue: null, primaryPartition: 7 })
    expect(hex(tombstone)).to.equal('81' + '00000007')
    expect(deserializeResponse(tombstone)).to.deep.equal({ hash: null, foreignValue: null, primaryPartition: 7 })
    expect(responsePrimaryPartition(tombstone)).to.equal(7)
  })

  it('reads version 0 (no primary partition) of both wrappers', () => {
    expect(deserializeSubscription(Buffer.from('8002706b', 'hex'))).to.deep.equal({
      hash: null,
      instruction: 2,
      primaryKey: Buffer.from('pk'),
      primaryPartition: -1
    })
    expect(deserializeResponse(Buffer.from('8076', 'hex'))).to.deep.equal({
      hash: null,
      foreignValue: Buffer.from('v'),
      primaryPartition: -1
    })
  })

  it('CombinedKey: foreign key length, foreign key, primary key; the prefix is its first part', () => {
    const key = combinedKey(Buffer.from('fk'), Buffer.from('pk'))
    expect(hex(key)).to.equal('00000002' + '666b' + '706b')
    expect(hex(foreignKeyPrefix(Buffer.from('fk')))).to.equal('00000002666b')
    expect(splitCombinedKey(key)).to.deep.equal({ foreignKey: Buffer.from('fk'), primaryKey: Buffer.from('pk') })
  })

  it('rejects a newer version', () => {
    expect(() => deserializeSubscription(Buffer.from('0203706b00000000', 'hex')))
      .to.throw()
      .with.property('code', 'SERIALIZATION')
  })
})
