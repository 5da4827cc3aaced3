/** The soak's CSV files: a header, one row per sample or event, fields quoted only when they must be. */
import { expect } from 'chai'
import { csvField, eventsCsv, samplesCsv } from '../csv.js'

describe('soak CSV', () => {
  it('writes one row per sample, time in seconds', () => {
    const sample = {
      atMs: 12_345,
      instance: 'A',
      life: 2,
      rss: 100,
      heapUsed: 50,
      heapTotal: 60,
      external: 7,
      arrayBuffers: 3,
      handles: 9,
      iterators: 0,
      activeTasks: 4,
      standbyTasks: 1
    }
    expect(samplesCsv([sample]).split('\n')).to.deep.equal([
      'time_s,instance,life,rss_bytes,heap_used_bytes,heap_total_bytes,external_bytes,array_buffers_bytes,handles,rocksdb_iterators,active_tasks,standby_tasks',
      '12.3,A,2,100,50,60,7,3,9,0,4,1',
      ''
    ])
  })

  it('quotes an event with a comma or a quote', () => {
    expect(csvField('plain')).to.equal('plain')
    expect(csvField('a, b')).to.equal('"a, b"')
    expect(csvField('say "x"')).to.equal('"say ""x"""')
    expect(eventsCsv([{ atMs: 1000, instance: 'B', life: 1, event: 'FAILED oops, "bad"' }])).to.equal(
      'time_s,instance,life,event\n1.0,B,1,"FAILED oops, ""bad"""\n'
    )
  })
})
