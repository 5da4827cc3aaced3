/**
 * The argument handling of KTable.join / leftJoin / outerJoin: tells a primary-key join
 * `(other, joiner, [Named | Materialized], [Materialized])` from a foreign-key join
 * `(other, foreignKeyExtractor, joiner, [TableJoined | Materialized], [Materialized])` by the
 * shape of the arguments (a function in third place), checks them, and delegates to the join
 * writers. @internal
 */
import { StreamsError, TopologyError } from '@kstreams/core'
import type { Serde } from '@kstreams/core'
import type { KTable } from '../ktable.js'
import { Materialized } from '../materialized.js'
import { Named } from '../named.js'
import { TableJoined } from '../table-joined.js'
import { joinOnForeignKey } from './foreign-key-join/foreign-key-join-builder.js'
import type { InternalStreamsBuilder } from './internal-streams-builder.js'
import { joinTables } from './ktable-ktable-join-builder.js'
import type { TableJoinKind } from './ktable-ktable-join-builder.js'
import type { KTableProcessorSupplier } from './ktable-processor-supplier.js'

/** The parts of a result table, for the KTable constructor. */
export interface JoinedTableParts {
  readonly name: string
  readonly keySerde: Serde<unknown> | undefined
  readonly valueSerde: Serde<unknown> | undefined
  readonly supplier: KTableProcessorSupplier<unknown, unknown, unknown, unknown>
  readonly queryableStoreName: string | undefined
}

type AnyTable = KTable<unknown, unknown>
type AnyFunction = (...args: any[]) => unknown

export function tableJoin(table: AnyTable, kind: TableJoinKind, args: readonly unknown[]): JoinedTableParts {
  const [other] = args
  checkOther(table.builder, other)
  if (typeof args[2] === 'function') {
    if (kind === 'outer')
      throw new StreamsError(
        'ILLEGAL_ARGUMENT',
        'A foreign-key join is an inner or a left join: outerJoin takes (other, joiner, [named], [materialized])'
      )
    const extractor = checkFunction(args[1], 'foreignKeyExtractor')
    const joiner = checkFunction(args[2], 'joiner')
    const tableJoined = args[3] instanceof TableJoined ? args[3] : undefined
    const materialized = args[3] instanceof Materialized ? args[3] : checkMaterialized(args[4])
    if (args[3] !== undefined && tableJoined === undefined && !(args[3] instanceof Materialized)) {
      throw new StreamsError('ILLEGAL_ARGUMENT', 'The fourth argument of a foreign-key join must be a TableJoined or a Materialized')
    }
    const extract =
      extractor.length >= 2
        ? (extractor as (key: unknown, value: unknown) => unknown)
        : (_key: unknown, value: unknown) => (extractor as (value: unknown) => unknown)(value)
    return joinOnForeignKey({
      builder: table.builder,
      thisTable: table,
      otherTable: other,
      extractor: extract,
      joiner: joiner as (value: unknown, otherValue: unknown) => unknown,
      leftJoin: kind === 'left',
      tableJoined: tableJoined as TableJoined<unknown, unknown> | undefined,
      materialized: materialized as Materialized<unknown, unknown> | undefined
    }) as JoinedTableParts
  }
  const joiner = checkFunction(args[1], 'joiner')
  const named = args[2] instanceof Named ? args[2] : undefined
  const materialized = args[2] instanceof Materialized ? args[2] : checkMaterialized(args[3])
  if (args[2] !== undefined && named === undefined && !(args[2] instanceof Materialized)) {
    throw new StreamsError(
      'ILLEGAL_ARGUMENT',
      'The third argument of a table-table join must be a Named, a Materialized or a foreign-key joiner'
    )
  }
  return joinTables({
    builder: table.builder,
    thisTable: table,
    otherTable: other,
    joiner: joiner as (value: unknown, otherValue: unknown) => unknown,
    kind,
    name: named?.name,
    materialized: materialized as Materialized<unknown, unknown> | undefined
  }) as JoinedTableParts
}

function checkOther(builder: InternalStreamsBuilder, other: unknown): asserts other is AnyTable {
  if (other === null || typeof other !== 'object' || (other as Partial<AnyTable>).supplier === undefined) {
    throw new StreamsError('ILLEGAL_ARGUMENT', "other can't be null: a table-table join takes a KTable")
  }
  if ((other as AnyTable).builder !== builder) {
    throw new TopologyError('TOPOLOGY_INVALID', `Cannot join table ${(other as AnyTable).name}: it belongs to another StreamsBuilder`)
  }
}

function checkFunction(fn: unknown, what: string): AnyFunction {
  if (typeof fn !== 'function') throw new StreamsError('ILLEGAL_ARGUMENT', `${what} can't be null: a function is required`)
  return fn as AnyFunction
}

function checkMaterialized(m: unknown): Materialized<unknown, unknown> | undefined {
  if (m === undefined || m instanceof Materialized) return m
  throw new StreamsError('ILLEGAL_ARGUMENT', 'The last argument of a table-table join must be a Materialized')
}
