/** The soak's SVG chart: a line per life in each of the two panels, the markers, escaped text, nice axis steps. */
import { expect } from 'chai'
import { escapeXml, niceStep, svgChart } from '../chart.js'
import type { InstanceSample } from '../verdict.js'

const MiB = 1048576

function sample(instance: string, life: number, atMs: number, rssMiB: number): InstanceSample {
  return {
    atMs,
    instance,
    life,
    rss: rssMiB * MiB,
    heapUsed: (rssMiB / 4) * MiB,
    heapTotal: 0,
    external: 0,
    arrayBuffers: 0,
    handles: 0,
    iterators: 0,
    activeTasks: 0,
    standbyTasks: 0
  }
}

const count = (text: string, pattern: RegExp): number => text.match(pattern)?.length ?? 0

describe('soak chart', () => {
  const samples = [
    sample('A', 1, 0, 100),
    sample('A', 1, 60_000, 110),
    sample('B', 1, 0, 120),
    sample('B', 1, 120_000, 125),
    sample('A', 2, 70_000, 90),
    sample('A', 2, 120_000, 95)
  ]
  const svg = svgChart({ title: ['soak <run> & co', 'second line'], samples, markers: [{ atMs: 65_000, label: 'A1 SIGKILL' }] })

  it('draws one line per life of an instance in each panel, in its colour, points in time order', () => {
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).to.equal(true)
    expect(svg.trimEnd().endsWith('</svg>')).to.equal(true)
    expect(count(svg, /<polyline /g)).to.equal(6)
    const lines = [...svg.matchAll(/<polyline fill="none" stroke="([^"]+)"[^>]* points="([^"]+)"/g)]
    expect(new Set(lines.map(l => l[1])).size).to.equal(2)
    for (const [, , points] of lines) {
      const xs = points!.split(' ').map(p => Number(p.split(',')[0]))
      expect(xs).to.deep.equal([...xs].sort((a, b) => a - b))
    }
  })

  it('marks restarts with a dashed line in each panel and labels them once; escapes text', () => {
    expect(count(svg, /stroke-dasharray/g)).to.equal(2)
    expect(count(svg, />A1 SIGKILL</g)).to.equal(1)
    expect(svg).to.include('soak &lt;run&gt; &amp; co')
    expect(svg).to.include('>second line<')
    expect(escapeXml('a<b>&"c"')).to.equal('a&lt;b&gt;&amp;&quot;c&quot;')
  })

  it('picks axis steps of 1, 2 or 5 times a power of ten', () => {
    expect(niceStep(100, 5)).to.equal(20)
    expect(niceStep(330, 5)).to.equal(100)
    expect(niceStep(30, 10)).to.equal(5)
    expect(niceStep(0.9, 10)).to.equal(0.1)
  })
})
