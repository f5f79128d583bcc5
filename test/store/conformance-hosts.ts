import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HostRecord } from '../../src/store/hosts.js';
import { waitFor } from '../helpers/wait.js';
import type { Kit } from './conformance.js';

const record = (name: string, key = `key-of-${name}`): HostRecord => ({ name, public_key: key, enrollment: `mac-of-${name}`, run: 'run-1', machine: 'box', pid: 4242, signed_at: '2026-12-04T12:00:00.000Z', proof: `proof-of-${name}` });

export function hostCases(kit: Kit): void {
  test('hosts: a beat registers a host stamped by the store clock; list shows it with the store now; remove forgets it', async () => {
    const { descriptor, store } = await kit.team();
    assert.deepEqual((await store.hosts.list()).hosts, []);
    const stamp = await store.hosts.beat(record('build'));
    const elsewhere = await kit.reopen(descriptor);
    const listed = await elsewhere.hosts.list();
    assert.deepEqual(listed.hosts, [{ ...record('build'), last_beat: stamp }]);
    assert.deepEqual(listed.problems, []);
    assert.ok(Date.parse(listed.now) >= Date.parse(stamp), 'now is not before the stamp, by the same clock');
    const later = await store.hosts.beat(record('build', 'a-new-key'));
    assert.ok(Date.parse(later) >= Date.parse(stamp));
    await store.hosts.beat(record('gpu'));
    assert.deepEqual((await elsewhere.hosts.list()).hosts.map((h) => [h.name, h.public_key]), [['build', 'a-new-key'], ['gpu', 'key-of-gpu']]);
    await elsewhere.hosts.remove('build');
    assert.deepEqual((await store.hosts.list()).hosts.map((h) => h.name), ['gpu']);
  });

  test('hosts: a malformed beat is refused unwritten; a bad name is refused', async () => {
    const { store } = await kit.team();
    await assert.rejects(store.hosts.beat({ ...record('build'), name: '../x' }), /agent name/);
    await assert.rejects(store.hosts.beat({ ...record('build'), public_key: '' }));
    await assert.rejects(store.hosts.orders.append('../x', 'line'), /agent name/);
    await assert.rejects(store.hosts.orders.append('build', 'two\nlines'), /line break/);
    assert.deepEqual((await store.hosts.list()).hosts, []);
  });

  test('hosts: orders and reports are per host, in order, each line once, from a cursor on', async () => {
    const { descriptor, store } = await kit.team();
    const elsewhere = await kit.reopen(descriptor);
    await store.hosts.orders.append('build', 'o1');
    const seen: string[] = [];
    let next = '';
    kit.keep(await elsewhere.hosts.orders.follow('build', (batch) => {
      seen.push(...batch.lines);
      next = batch.next;
    }));
    assert.deepEqual(seen, ['o1'], 'what was there before follow resolved');
    await Promise.all(['o2', 'o3', 'o4'].map((line, i) => (i % 2 === 0 ? store : elsewhere).hosts.orders.append('build', line)));
    await store.hosts.orders.append('gpu', 'for gpu');
    await store.hosts.reports.append('build', 'r1');
    await waitFor(() => seen.length >= 4, 'the orders to be followed');
    assert.deepEqual(seen.slice(0, 1), ['o1']);
    assert.deepEqual([...seen].sort(), ['o1', 'o2', 'o3', 'o4'], 'each once, none of another host or channel');
    const atCursor = next;
    await store.hosts.orders.append('build', 'o5');
    await waitFor(() => seen.length >= 5, 'o5');
    const resumed: string[] = [];
    kit.keep(await elsewhere.hosts.orders.follow('build', (batch) => resumed.push(...batch.lines), atCursor));
    assert.deepEqual(resumed, ['o5'], 'a follow from a cursor starts after it');
    const reports: string[] = [];
    kit.keep(await store.hosts.reports.follow('build', (batch) => reports.push(...batch.lines)));
    assert.deepEqual(reports, ['r1']);
    await assert.rejects(store.hosts.orders.follow('build', () => undefined, 'not-a-cursor'), /cursor/);
  });
}
