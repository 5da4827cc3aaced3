import { expect } from 'chai'
import { StreamsMetricsRegistry } from '../../src/metrics/streams-metrics-registry.js'
import { addTaskRestoreMetrics, ThreadRestoreMetrics } from '../../src/runtime/restore-metrics.js'
import { TaskId } from '../../src/task-id.js'

describe('Restore metrics (KIP-869 names)', () => {
  let now = 0
  const clock = { milliseconds: () => now }
  const value = (registry: StreamsMetricsRegistry, group: string, name: string): number | undefined =>
    registry.metrics().find(m => m.group === group && m.name === name)?.value

  it('per thread: restoring tasks, records restored (total and per second) and restore calls', () => {
    now = 0
    const registry = new StreamsMetricsRegistry({ clock, threadId: 't1' })
    const metrics = new ThreadRestoreMetrics(registry, clock, { restoringActiveTasks: () => 2, updatingStandbyTasks: () => 1 })
    metrics.recordStep(100)
    metrics.recordStep(0)
    metrics.recordStep(50)
    now = 10_000
    const G = 'stream-state-updater-metrics'
    expect(value(registry, G, 'active-restoring-tasks')).to.equal(2)
    expect(value(registry, G, 'standby-updating-tasks')).to.equal(1)
    expect(value(registry, G, 'restore-records-total')).to.equal(150)
    // Kafka's Rate: the sum over the elapsed window, padded to one full 30 s window.
    expect(value(registry, G, 'restore-records-rate')).to.be.closeTo(150 / 40, 1e-9)
    expect(value(registry, G, 'restore-call-rate')).to.be.closeTo(3 / 40, 1e-9)
    expect(registry.metrics().find(m => m.name === 'restore-records-total')!.tags).to.deep.equal({ 'thread-id': 't1' })
  })

  it('per task: restore-* for an active task and update-* for a standby, only at DEBUG as in Kafka', () => {
    now = 0
    const debug = new StreamsMetricsRegistry({ clock, threadId: 't1', recordingLevel: 'DEBUG' })
    const restored = addTaskRestoreMetrics(debug, clock, new TaskId(0, 1), 'restore', () => 7)
    const updated = addTaskRestoreMetrics(debug, clock, new TaskId(0, 2), 'update')
    restored.record(30)
    updated.record(4)
    const byTask = (id: string) =>
      Object.fromEntries(
        debug
          .metrics()
          .filter(m => m.tags['task-id'] === id)
          .map(m => [m.name, m.value])
      )
    expect(byTask('0_1')).to.include({ 'restore-total': 30, 'restore-remaining-records-total': 7 })
    expect(byTask('0_1')).to.have.keys('restore-total', 'restore-rate', 'restore-remaining-records-total')
    expect(byTask('0_2')).to.have.keys('update-total', 'update-rate')
    expect(byTask('0_2')['update-total']).to.equal(4)
    expect(debug.metrics().every(m => m.group === 'stream-task-metrics')).to.equal(true)

    const info = new StreamsMetricsRegistry({ clock, threadId: 't1' })
    const counted = addTaskRestoreMetrics(info, clock, new TaskId(0, 1), 'restore', () => 7)
    counted.record(5)
    expect(counted.total).to.equal(5)
    expect(info.metrics()).to.deep.equal([])
  })
})
