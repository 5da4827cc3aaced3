/**
 * Runs the invoicing topology on the TopologyTestDriver (no broker needed): pipes a good order, a
 * record that is not JSON, an order the processor rejects and another good order, then prints the
 * invoices and the dead letters with their `__streams.errors.*` headers. On a broker the same
 * config writes the dead letters to the `orders-dlq` topic through the task's producer (in its
 * transaction under exactly_once_v2).
 */
import { Serdes } from '@kstreams/core'
import { TopologyTestDriver } from '@kstreams/testing'
import { DEAD_LETTER_TOPIC, INVOICES_TOPIC, ORDERS_TOPIC, buildInvoicingTopology, deadLetterQueueConfig } from './topology.js'

function main(): void {
  const driver = new TopologyTestDriver(buildInvoicingTopology(), { applicationId: 'invoicing', ...deadLetterQueueConfig() })
  try {
    const orders = driver.createInputTopic(ORDERS_TOPIC, Serdes.String(), Serdes.String())
    orders.pipeInput('o-1', '{"id":"o-1","amount":100}')
    orders.pipeInput('o-2', 'this is not JSON')
    orders.pipeInput('o-3', '{"id":"o-3","amount":-5}')
    orders.pipeInput('o-4', '{"id":"o-4","amount":12.5}')

    console.log('Invoices:')
    for (const { key, value } of driver.createOutputTopic(INVOICES_TOPIC, Serdes.String(), Serdes.Double()).readKeyValuesToList()) {
      console.log(`  ${key}: ${value}`)
    }
    console.log(`\nDead letters (${DEAD_LETTER_TOPIC}):`)
    for (const r of driver.createOutputTopic(DEAD_LETTER_TOPIC, Serdes.String(), Serdes.String()).readRecordsToList()) {
      console.log(`  ${r.key}: ${JSON.stringify(r.value)}`)
      for (const h of r.headers) {
        if (h.key !== '__streams.errors.stacktrace') console.log(`      ${h.key} = ${h.value?.toString('utf8') ?? null}`)
      }
    }
  } finally {
    driver.close()
  }
}

main()
