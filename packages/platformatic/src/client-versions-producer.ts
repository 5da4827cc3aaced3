/**
 * platformatic's Producer, with the request versions a client may send. platformatic picks the
 * highest version of each request the broker supports; for AddPartitionsToTxn that is v4 or v5,
 * the batched form brokers send each other (KIP-890), which a broker with an authorizer allows only
 * with CLUSTER_ACTION on the cluster: every transactional send of a properly restricted user
 * fails with CLUSTER_AUTHORIZATION_FAILED. Java's producer never sends more than v3, the last
 * client version; this Producer does the same, through platformatic's extension point for
 * subclasses (the exported kGetApi), the library itself unmodified.
 */
import { addPartitionsToTxnV3, kGetApi, Producer, type API, type Callback } from '@platformatic/kafka'

/** The last AddPartitionsToTxn version for clients (Java's AddPartitionsToTxnRequest.LAST_CLIENT_VERSION). */
const LAST_CLIENT_VERSION = addPartitionsToTxnV3.api.version

export class ClientVersionsProducer extends Producer<Buffer, Buffer, Buffer, Buffer> {
  override [kGetApi]<A extends Array<unknown>, R>(name: string, callback: Callback<API<A, R>>): void {
    super[kGetApi]<A, R>(name, (error, api) => {
      if (error === null && name === 'AddPartitionsToTxn' && api !== undefined && api.version > LAST_CLIENT_VERSION)
        callback(null, addPartitionsToTxnV3.api as unknown as API<A, R>)
      else callback(error, api as API<A, R>)
    })
  }
}
