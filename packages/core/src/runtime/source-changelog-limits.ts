/**
 * A source topic serving as a store's changelog (reuse.ktable.source.topics) is restored, and
 * followed by a standby, only up to the group's committed offset (0 when none), as Kafka Streams
 * does: what follows is processed, not restored. Sets that limit on the registrations of such
 * stores; the others are returned as they are. @internal
 */
import type { TopologyDef } from '../topology/definitions.js'
import type { ChangelogRegistration } from './changelog-reader.js'
import { tpKey } from './kafka/ports.js'
import type { MainConsumer } from './consumer/consumer-api.js'

export async function withSourceChangelogLimits(
  registrations: readonly ChangelogRegistration[],
  topology: Pick<TopologyDef, 'sourceChangelogs'>,
  consumer: Pick<MainConsumer, 'committed'>
): Promise<ChangelogRegistration[]> {
  const sources = registrations.filter(r => topology.sourceChangelogs.get(r.storeName) === r.partition.topic)
  if (sources.length === 0) return [...registrations]
  const committed = await consumer.committed(sources.map(r => r.partition))
  return registrations.map(r =>
    sources.includes(r) ? { ...r, endOffsetLimit: committed.get(tpKey(r.partition.topic, r.partition.partition))?.offset ?? 0 } : r
  )
}
