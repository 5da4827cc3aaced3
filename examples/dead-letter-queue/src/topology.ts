/**
 * Orders to invoices, with a dead-letter queue (KIP-1034): an order is JSON
 * `{ "id": string, "amount": number }`; the invoice is the amount with tax. A record that is not
 * JSON fails deserialization; an order with a negative amount fails in the processor. With
 * `deadLetterQueueConfig()` neither stops the application: both are written, as read, to the
 * dead-letter topic with headers saying what went wrong and where.
 */
import { Serdes, Topology, type ProcessorContext, type Record, type Serde, type StreamsConfig } from '@kstreams/core'

export const ORDERS_TOPIC = 'orders'
export const INVOICES_TOPIC = 'invoices'
export const DEAD_LETTER_TOPIC = 'orders-dlq'

export interface Order {
  readonly id: string
  readonly amount: number
}

/** JSON orders; anything else throws (a poison record). */
export const orderSerde: Serde<Order> = Serdes.serdeFrom<Order>(
  { serialize: (_topic, order) => (order === null ? null : Buffer.from(JSON.stringify(order))) },
  {
    deserialize: (_topic, data) => {
      if (data === null) return null
      const order = JSON.parse(data.toString('utf8')) as Order
      if (typeof order?.id !== 'string' || typeof order.amount !== 'number') throw new TypeError(`not an order: ${data.toString('utf8')}`)
      return order
    }
  }
)

/** Thrown for an order the business rules reject. */
export class InvalidOrderError extends Error {
  override name = 'InvalidOrderError'
}

export function buildInvoicingTopology(taxRate = 0.2): Topology {
  return new Topology()
    .addSource('Orders', ORDERS_TOPIC, { keyDeserializer: Serdes.String(), valueDeserializer: orderSerde.deserializer() })
    .addProcessor(
      'Invoice',
      () => {
        let ctx: ProcessorContext<string, number>
        return {
          init(context: ProcessorContext<string, number>) {
            ctx = context
          },
          process(record: Record<string, Order>) {
            if (record.value.amount < 0) throw new InvalidOrderError(`order ${record.value.id} has a negative amount`)
            ctx.forward(record.withValue(Math.round(record.value.amount * (1 + taxRate) * 100) / 100))
          }
        }
      },
      'Orders'
    )
    .addSink('Invoices', INVOICES_TOPIC, { keySerializer: Serdes.String(), valueSerializer: Serdes.Double() }, 'Invoice')
}

/** The part of the config that turns failures into dead letters instead of stopping the application. */
export function deadLetterQueueConfig(): StreamsConfig {
  return {
    deserializationExceptionHandler: 'logAndContinue',
    processingExceptionHandler: 'logAndContinue',
    errorsDeadLetterQueueTopicName: DEAD_LETTER_TOPIC
  }
}
