/** A StateStoreContext for store tests: records registrations, has no changelog writer. */
import { resolveStreamsConfig } from '../../../src/config/streams-config.js'
import type { ResolvedStreamsConfig, StreamsConfig } from '../../../src/config/streams-config.js'
import type { RecordMetadata } from '../../../src/processor/api.js'
import type { ChangelogWriter, StateRestoreCallback, StateStore, StateStoreContext } from '../../../src/state/state-store.js'
import { TaskId } from '../../../src/task-id.js'

export interface Registration {
  store: StateStore
  restore: StateRestoreCallback
}

export class TestStateStoreContext implements StateStoreContext {
  readonly applicationId: string
  readonly taskId = new TaskId(0, 0)
  readonly appConfigs: ResolvedStreamsConfig
  readonly stateDir = undefined
  readonly registered: Registration[] = []

  constructor(config: StreamsConfig = {}) {
    this.appConfigs = resolveStreamsConfig({ applicationId: 'test-app', ...config })
    this.applicationId = this.appConfigs.applicationId
  }

  recordMetadata(): RecordMetadata | undefined {
    return undefined
  }

  register(store: StateStore, restore: StateRestoreCallback): void {
    this.registered.push({ store, restore })
  }

  changelogWriter(_storeName: string): ChangelogWriter | undefined {
    return undefined
  }

  /** Feeds changelog records to the callback the named store registered. */
  restore(storeName: string, records: Array<{ key: Buffer; value: Buffer | null; timestamp?: number }>): void {
    const registration = this.registered.find(r => r.store.name === storeName)
    if (registration === undefined) throw new Error(`store ${storeName} was not registered`)
    registration.restore(records.map(r => ({ key: r.key, value: r.value, timestamp: r.timestamp ?? 0 })))
  }
}
