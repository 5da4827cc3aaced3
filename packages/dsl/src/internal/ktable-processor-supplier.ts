/**
 * The supplier of a processor producing KTable updates (Kafka Streams' KTableProcessorSupplier):
 * besides creating processors it can be asked, before the topology runs, to send old values
 * with each `Change`. @internal
 */
import type { Processor } from '@kstreams/core'
import type { Change } from '../change.js'

export interface KTableProcessorSupplier<KIn, VIn, KOut, VOut> {
  get(): Processor<KIn, VIn, KOut, Change<VOut>>
  sendOldValues: boolean
  /** The store the processor writes, when it is materialized. */
  readonly storeName: string | undefined
  /**
   * Asks for old values; returns whether this operator (and its parents) can send them. With
   * `forceMaterialization` an unmaterialized source table becomes materialized to do so.
   */
  enableSendingOldValues(forceMaterialization: boolean): boolean
}
