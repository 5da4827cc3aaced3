/**
 * The transactional producer's AddPartitionsToTxn version: at most v3, the last client version
 * (v4 and v5 are the brokers' batched form, which an authorizer allows only with CLUSTER_ACTION),
 * whatever the broker offers; every other request at platformatic's choice.
 */
import { expect } from 'chai'
import { kGetApi, kListApis } from '@platformatic/kafka'
import { ClientVersionsProducer } from '../src/client-versions-producer.js'

type ApiVersions = Array<{ name: string; minVersion: number; maxVersion: number }>

/** The producer, with the broker's ApiVersions answer given instead of asked for. */
class AgainstBroker extends ClientVersionsProducer {
  static versions: ApiVersions = []
  override [kListApis](callback: (error: Error | null, apis?: ApiVersions) => void): void {
    callback(null, AgainstBroker.versions)
  }
}

async function versionOf(producer: ClientVersionsProducer, name: string): Promise<number> {
  return await new Promise((resolve, reject) => {
    producer[kGetApi](name, (error, api) => (error === null ? resolve(api!.version) : reject(error)))
  })
}

describe('ClientVersionsProducer', () => {
  it('sends AddPartitionsToTxn v3 to a broker offering v5, the broker-only versions never; other requests as platformatic picks', async () => {
    AgainstBroker.versions = [
      { name: 'AddPartitionsToTxn', minVersion: 0, maxVersion: 5 },
      { name: 'EndTxn', minVersion: 0, maxVersion: 4 }
    ]
    const producer = new AgainstBroker({ clientId: 'c', bootstrapBrokers: ['127.0.0.1:1'] })
    try {
      expect(await versionOf(producer, 'AddPartitionsToTxn')).to.equal(3)
      expect(await versionOf(producer, 'EndTxn')).to.equal(4)
    } finally {
      await new Promise(resolve => producer.close(resolve))
    }
  })

  it('keeps a lower version the broker offers', async () => {
    AgainstBroker.versions = [{ name: 'AddPartitionsToTxn', minVersion: 0, maxVersion: 2 }]
    const producer = new AgainstBroker({ clientId: 'c', bootstrapBrokers: ['127.0.0.1:1'] })
    try {
      expect(await versionOf(producer, 'AddPartitionsToTxn')).to.equal(2)
    } finally {
      await new Promise(resolve => producer.close(resolve))
    }
  })
})
