/**
 * The argument handling behind KStream.join / leftJoin / outerJoin: dispatches on the other
 * side (KStream: windowed stream-stream join; KTable: stream-table join; GlobalKTable: lookup by
 * the key selector's key) and turns a two-parameter ValueJoiner into the keyed form. Returns what
 * KStream needs to build the result stream. @internal
 */
import { StreamsError } from '@kstreams/core'
import type { Serde } from '@kstreams/core'
import { GlobalKTable } from '../global-ktable.js'
import { JoinWindows } from '../join-windows.js'
import { Joined } from '../joined.js'
import type { KStream } from '../kstream.js'
import { KTable } from '../ktable.js'
import { Named } from '../named.js'
import { StreamJoined } from '../stream-joined.js'
import type { InternalStreamsBuilder } from './internal-streams-builder.js'
import { globalTableJoin } from './kstream-global-ktable-join.js'
import { streamStreamJoin } from './kstream-kstream-join.js'
import type { JoinInput } from './kstream-kstream-join.js'
import { streamTableJoin } from './kstream-ktable-join.js'
import { KTableSourceSupplier } from './ktable-processors.js'

export type JoinKind = 'inner' | 'left' | 'outer'

export interface JoinResult<K> {
  readonly name: string
  readonly keySerde: Serde<K> | undefined
  readonly repartitionRequired: boolean
}

type AnyJoiner = (...args: any[]) => unknown

/** Runs the join of `self` with `other`; `args` are the arguments after `other`. */
export function dispatchJoin<K>(
  self: JoinInput<K, unknown> & { readonly builder: InternalStreamsBuilder },
  kind: JoinKind,
  other: unknown,
  args: readonly unknown[]
): JoinResult<K> {
  const [a, b, c] = args
  const builder = self.builder
  if (other instanceof KTable) {
    if (kind === 'outer') throw new StreamsError('ILLEGAL_ARGUMENT', 'A KStream cannot be outer-joined with a KTable')
    if (c !== undefined) throw new StreamsError('ILLEGAL_ARGUMENT', 'A stream-table join takes the table, a joiner and an optional Joined')
    const joined = optional(b, (x): x is Joined<unknown, unknown, unknown> => x instanceof Joined, 'joined must be a Joined')
    const table = other as KTable<K, unknown>
    const result = streamTableJoin({
      builder,
      stream: self,
      tableName: table.name,
      view: () => table.supplier.view(),
      joiner: withKey(a),
      joined: joined as Joined<K, unknown, unknown> | undefined,
      leftJoin: kind === 'left',
      tableVersioned: table.supplier instanceof KTableSourceSupplier ? table.supplier.versioned : undefined
    })
    return { ...result, repartitionRequired: false }
  }
  if (other instanceof GlobalKTable) {
    if (kind === 'outer') throw new StreamsError('ILLEGAL_ARGUMENT', 'A KStream cannot be outer-joined with a GlobalKTable')
    if (typeof a !== 'function') throw new StreamsError('ILLEGAL_ARGUMENT', 'keySelector must be a function')
    const named = optional(c, (x): x is Named => x instanceof Named, 'named must be a Named')
    const name = globalTableJoin({
      builder,
      parentName: self.name,
      view: other.valueGetterSupplier,
      keySelector: a as (key: K, value: unknown) => unknown,
      joiner: withKey(b),
      named,
      leftJoin: kind === 'left'
    })
    return { name, keySerde: self.keySerde, repartitionRequired: self.repartitionRequired }
  }
  const stream = other as KStream<K, unknown> | null | undefined
  if (stream === null || stream === undefined || typeof stream !== 'object' || !('repartitionRequired' in stream)) {
    throw new StreamsError('ILLEGAL_ARGUMENT', 'A KStream can be joined with a KStream, a KTable or a GlobalKTable')
  }
  if (stream.builder !== builder)
    throw new StreamsError('ILLEGAL_ARGUMENT', 'Both streams of a join must come from the same StreamsBuilder')
  if (!(b instanceof JoinWindows)) throw new StreamsError('ILLEGAL_ARGUMENT', 'A stream-stream join needs JoinWindows')
  const streamJoined = optional(
    c,
    (x): x is StreamJoined<unknown, unknown, unknown> => x instanceof StreamJoined,
    'streamJoined must be a StreamJoined'
  )
  const result = streamStreamJoin({
    builder,
    left: self,
    right: stream,
    joiner: withKey(a),
    windows: b,
    streamJoined: streamJoined as StreamJoined<K, unknown, unknown> | undefined,
    leftOuter: kind !== 'inner',
    rightOuter: kind === 'outer'
  })
  return { ...result, repartitionRequired: false }
}

/** A joiner declaring three parameters is a ValueJoinerWithKey; otherwise it takes the two values. */
function withKey<K, V1, V2>(joiner: unknown): (key: K, value1: V1, value2: V2) => unknown {
  if (typeof joiner !== 'function') throw new StreamsError('ILLEGAL_ARGUMENT', 'joiner must be a function')
  const fn = joiner as AnyJoiner
  if (fn.length >= 3) return fn
  return (_key, value1, value2) => fn(value1, value2)
}

function optional<T>(arg: unknown, isT: (x: unknown) => x is T, message: string): T | undefined {
  if (arg === undefined) return undefined
  if (!isT(arg)) throw new StreamsError('ILLEGAL_ARGUMENT', message)
  return arg
}
