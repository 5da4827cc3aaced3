/**
 * Tells a DslStoreSuppliers (a store backend) apart from the store names, bytes store suppliers
 * and serdes that the same DSL config-object factories accept (`Materialized.as`,
 * `StreamJoined.with`). @internal
 */
import type { DslStoreSuppliers } from '@kstreams/core'

/** Whether `value` is a DslStoreSuppliers: an object with the three store-kind functions. */
export function isDslStoreSuppliers(value: unknown): value is DslStoreSuppliers {
  if (value === null || typeof value !== 'object') return false
  const candidate = value as Partial<DslStoreSuppliers>
  return (
    typeof candidate.keyValueStore === 'function' &&
    typeof candidate.windowStore === 'function' &&
    typeof candidate.sessionStore === 'function'
  )
}
