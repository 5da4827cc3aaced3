/**
 * The soak's CSV files: one row per sample (time in seconds since the start of the run, the
 * instance and its life, the measurements in bytes and counts, its tasks), and one row per event.
 */
import type { FleetEvent } from './fleet.js'
import type { InstanceSample } from './verdict.js'

const SAMPLE_COLUMNS = [
  'time_s',
  'instance',
  'life',
  'rss_bytes',
  'heap_used_bytes',
  'heap_total_bytes',
  'external_bytes',
  'array_buffers_bytes',
  'handles',
  'rocksdb_iterators',
  'active_tasks',
  'standby_tasks'
]

/** A CSV field: quoted when it holds a comma, a quote or a line break. */
export function csvField(value: string | number): string {
  const text = String(value)
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

const row = (fields: ReadonlyArray<string | number>): string => `${fields.map(csvField).join(',')}\n`
const seconds = (ms: number): string => (ms / 1000).toFixed(1)

export function samplesCsv(samples: readonly InstanceSample[]): string {
  let text = row(SAMPLE_COLUMNS)
  for (const s of samples) {
    text += row([
      seconds(s.atMs),
      s.instance,
      s.life,
      s.rss,
      s.heapUsed,
      s.heapTotal,
      s.external,
      s.arrayBuffers,
      s.handles,
      s.iterators,
      s.activeTasks,
      s.standbyTasks
    ])
  }
  return text
}

export function eventsCsv(events: readonly FleetEvent[]): string {
  let text = row(['time_s', 'instance', 'life', 'event'])
  for (const e of events) text += row([seconds(e.atMs), e.instance, e.life, e.event])
  return text
}
