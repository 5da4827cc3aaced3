/**
 * The invoicing example on the TopologyTestDriver: with the dead-letter config, a record that is
 * not JSON and an order the processor rejects go to the dead-letter topic as they were read, with
 * the `__streams.errors.*` headers; every good order is invoiced once. Without it, the default
 * logAndFail handler stops at the first bad record.
 */
import { expect } from 'chai'
import { Headers, Serdes, StreamsError } from '@kstreams/core'
import { TestRecord, TopologyTestDriver } from '@kstreams/testing'
import { DEAD_LETTER_TOPIC, INVOICES_TOPIC, ORDERS_TOPIC, buildInvoicingTopology, deadLetterQueueConfig } from '../src/topology.js'

const header = (headers: Headers, key: string): string | null | undefined => {
  const h = headers.lastHeader(key)
  return h === undefined ? undefined : h.value === null ? null : h.value.toString('utf8')
}

describe('Invoicing with a dead-letter queue', () => {
  let driver: TopologyTestDriver | undefined
  afterEach(() => {
    driver?.close()
    driver = undefined
  })

  it('invoices good orders; a non-JSON record and a rejected order become dead letters with their bytes and headers', () => {
    driver = new TopologyTestDriver(buildInvoicingTopology(), { applicationId: 'invoicing-test', ...deadLetterQueueConfig() })
    const orders = driver.createInputTopic(ORDERS_TOPIC, Serdes.String(), Serdes.String())
    orders.pipeInput('o-1', '{"id":"o-1","amount":100}')
    orders.pipeInput(new TestRecord('o-2', 'this is not JSON', 0, new Headers({ source: 'pos-12' })))
    orders.pipeInput('o-3', '{"id":"o-3","amount":-5}')
    orders.pipeInput('o-4', '{"id":"o-4","amount":12.5}')

    expect(
      driver
        .createOutputTopic(INVOICES_TOPIC, Serdes.String(), Serdes.Double())
        .readKeyValuesToList()
        .map(kv => [kv.key, kv.value])
    ).to.deep.equal([
      ['o-1', 120],
      ['o-4', 15]
    ])
    const dead = driver.createOutputTopic(DEAD_LETTER_TOPIC, Serdes.String(), Serdes.String()).readRecordsToList()
    expect(dead.map(r => [r.key, r.value])).to.deep.equal([
      ['o-2', 'this is not JSON'],
      ['o-3', '{"id":"o-3","amount":-5}']
    ])
    const [poison, rejected] = dead
    expect(header(poison!.headers, 'source')).to.equal('pos-12')
    expect(header(poison!.headers, '__streams.errors.exception')).to.equal('SerializationError')
    expect(header(poison!.headers, '__streams.errors.offset')).to.equal('1')
    expect(header(rejected!.headers, '__streams.errors.exception')).to.equal('InvalidOrderError')
    expect(header(rejected!.headers, '__streams.errors.message')).to.equal('order o-3 has a negative amount')
    expect(header(rejected!.headers, '__streams.errors.topic')).to.equal(ORDERS_TOPIC)
    expect(header(rejected!.headers, '__streams.errors.partition')).to.equal('0')
    expect(header(rejected!.headers, '__streams.errors.offset')).to.equal('2')
    expect(header(rejected!.headers, '__streams.errors.stacktrace')).to.contain('InvalidOrderError: order o-3 has a negative amount')
  })

  it('without the dead-letter config the default logAndFail stops at the first bad record', () => {
    driver = new TopologyTestDriver(buildInvoicingTopology(), { applicationId: 'invoicing-test' })
    const orders = driver.createInputTopic(ORDERS_TOPIC, Serdes.String(), Serdes.String())
    orders.pipeInput('o-1', '{"id":"o-1","amount":100}')
    expect(() => orders.pipeInput('o-2', 'this is not JSON'))
      .to.throw(StreamsError)
      .with.property('code', 'SERIALIZATION')
  })
})
