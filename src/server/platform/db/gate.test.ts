import { describe, expect, it } from 'vitest';
import { DatabaseUnavailableError } from './driver.ts';
import { aheadInLine, createGate } from './gate.ts';

/** An operation that runs until `finish` is called, and the order in which operations started. */
function holds() {
  const started: string[] = [];
  const finishers: (() => void)[] = [];
  const hold = (name: string) => () =>
    new Promise<string>((resolve) => {
      started.push(name);
      finishers.push(() => resolve(name));
    });
  const finishAll = async () => {
    while (finishers.length > 0) {
      finishers.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { started, hold, finishAll };
}

describe('the database gate', () => {
  it('runs as many operations at once as it has slots, and starts the others in order', async () => {
    const gate = createGate(2);
    const { started, hold, finishAll } = holds();
    const all = ['a', 'b', 'c', 'd'].map((name) => gate(null, hold(name)));
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(['a', 'b']);
    expect(gate.load()).toEqual({ running: 2, waiting: 2 });
    await finishAll();
    expect(await Promise.all(all)).toEqual(['a', 'b', 'c', 'd']);
    expect(started).toEqual(['a', 'b', 'c', 'd']);
    expect(gate.load()).toEqual({ running: 0, waiting: 0 });
  });

  it('starts what runs ahead in line before what waited longer, across its awaits', async () => {
    const gate = createGate(1);
    const { started, hold, finishAll } = holds();
    const first = gate(null, hold('first'));
    const inTurn = gate(null, hold('in turn'));
    const ahead = aheadInLine(true, async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return gate(null, hold('ahead'));
    });
    const notAhead = aheadInLine(false, () => gate(null, hold('not ahead')));
    await new Promise((resolve) => setImmediate(resolve));
    expect(gate.load()).toEqual({ running: 1, waiting: 3 });
    await finishAll();
    await Promise.all([first, inTurn, ahead, notAhead]);
    expect(started).toEqual(['first', 'ahead', 'in turn', 'not ahead']);
  });

  it('drops an operation that cannot start in time, before it starts, and keeps the others', async () => {
    const gate = createGate(1);
    const { started, hold, finishAll } = holds();
    const first = gate(null, hold('first'));
    const late = gate(20, hold('late'));
    const patient = gate(null, hold('patient'));
    await expect(late).rejects.toBeInstanceOf(DatabaseUnavailableError);
    expect(gate.load()).toEqual({ running: 1, waiting: 1 });
    await finishAll();
    await Promise.all([first, patient]);
    expect(started).toEqual(['first', 'patient']);
  });

  it('frees its slot when an operation fails', async () => {
    const gate = createGate(1);
    await expect(gate(null, () => Promise.reject(new Error('broken')))).rejects.toThrow('broken');
    expect(await gate(100, async () => 'next')).toBe('next');
    expect(gate.load()).toEqual({ running: 0, waiting: 0 });
  });
});
