/**
 * Writes what a soak run leaves behind in its output directory: samples.csv, events.csv,
 * chart.svg (restarts and the end of the input marked) and summary.txt.
 */
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { svgChart, type ChartMarker } from './chart.js'
import { eventsCsv, samplesCsv } from './csv.js'
import type { Fleet } from './fleet.js'

/** When the input started and stopped (ms since the start of the run), as far as the run got. */
export interface InputTimes {
  readonly inputStartMs: number | undefined
  readonly inputEndMs: number | undefined
}

/** The restarts of the fleet, and the start and end of the input when known, as chart markers. */
export function markersOf(fleet: Fleet, { inputStartMs, inputEndMs }: InputTimes): ChartMarker[] {
  const markers = fleet.events
    .filter(e => e.event === 'close' || e.event === 'kill')
    .filter(e => inputEndMs === undefined || e.atMs < inputEndMs)
    .map(e => ({ atMs: e.atMs, label: `${e.instance}${e.life} ${e.event === 'kill' ? 'SIGKILL' : 'close'}` }))
  if (inputStartMs !== undefined) markers.push({ atMs: inputStartMs, label: 'input starts' })
  if (inputEndMs !== undefined) markers.push({ atMs: inputEndMs, label: 'input stops' })
  return markers
}

export async function writeArtifacts(
  outDir: string,
  title: readonly string[],
  fleet: Fleet,
  input: InputTimes,
  summary: string
): Promise<void> {
  await writeFile(join(outDir, 'samples.csv'), samplesCsv(fleet.samples))
  await writeFile(join(outDir, 'events.csv'), eventsCsv(fleet.events))
  await writeFile(join(outDir, 'chart.svg'), svgChart({ title, samples: fleet.samples, markers: markersOf(fleet, input) }))
  await writeFile(join(outDir, 'summary.txt'), summary)
}
