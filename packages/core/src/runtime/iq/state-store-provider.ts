/**
 * The seam between a composite read-only view and the stores behind it (Kafka Streams'
 * StateStoreProvider): `stores()` is asked again on every query, so a view obtained before a
 * rebalance never reads a store its instance no longer owns. `guardStoreCall` turns the error of
 * a store closed under a query (its task moved away) into the retriable STATE_STORE_MIGRATED.
 */
import { InvalidStateStoreError, StreamsError } from '../../errors.js'

export interface StateStoreProvider<S> {
  readonly storeName: string
  /** The local stores to query now; throws a typed InvalidStateStoreError when there are none. */
  stores(): S[]
}

export function storeMigratedError(storeName: string, cause?: unknown): InvalidStateStoreError {
  return new InvalidStateStoreError(
    'STATE_STORE_MIGRATED',
    `State store ${storeName} is not available anymore and may have been migrated to another instance; re-discover its location from the state metadata`,
    { retriable: true, cause }
  )
}

/** Runs one store call; a store that was closed meanwhile means it migrated. */
export function guardStoreCall<T>(storeName: string, call: () => T): T {
  try {
    return call()
  } catch (err) {
    if (err instanceof StreamsError && (err.code === 'STORE_NOT_OPEN' || err.code === 'STATE_STORE_MIGRATED'))
      throw storeMigratedError(storeName, err)
    throw err
  }
}
