import { describe, expect, it } from 'vitest';
import { WakeTimer } from '../src/serve-sim/wake-timer.js';

const nowUs = () => Math.round(performance.now() * 1000);

function firedAt(arm: (t: WakeTimer) => void): Promise<number[]> {
  return new Promise((resolve) => {
    const fires: number[] = [];
    const t = new WakeTimer(nowUs, () => {
      fires.push(nowUs());
      // Let a wrongly kept second wake-up show before answering.
      setTimeout(() => resolve(fires), 20);
    });
    arm(t);
  });
}

describe('WakeTimer', () => {
  it('fires once, never before the instant, and well inside a millisecond after it when the process is idle', async () => {
    const late: number[] = [];
    for (let i = 0; i < 5; i++) {
      const at = nowUs() + 3000 + i * 700;
      const fires = await firedAt((t) => t.wakeBy(at));
      expect(fires).toHaveLength(1);
      expect(fires[0]).toBeGreaterThanOrEqual(at);
      late.push(fires[0] - at);
    }
    // A plain setTimeout is some 800 µs late on average; the poll is tens of µs (loose for busy machines).
    late.sort((a, b) => a - b);
    expect(late[2]).toBeLessThan(500);
  });
  it('keeps the earlier of two instants; cancel and Infinity arm nothing', async () => {
    const start = nowUs();
    const fires = await firedAt((t) => {
      t.wakeBy(start + 30_000);
      t.wakeBy(start + 4000);
      t.wakeBy(start + 50_000);
      expect(t.armedAt).toBe(start + 4000);
    });
    expect(fires).toHaveLength(1);
    expect(fires[0] - start).toBeLessThan(25_000);
    let fired = false;
    const t = new WakeTimer(nowUs, () => {
      fired = true;
    });
    t.wakeBy(nowUs() + 2000);
    t.cancel();
    t.wakeBy(Number.POSITIVE_INFINITY);
    expect(t.armedAt).toBe(Number.POSITIVE_INFINITY);
    await new Promise((r) => setTimeout(r, 15));
    expect(fired).toBe(false);
  });
});

describe('WakeTimer, an instant already past', () => {
  it('fires on the next turn of the event loop, not inside wakeBy (a pump re-arming it never recurses)', async () => {
    let fired = 0;
    const t = new WakeTimer(nowUs, () => {
      fired++;
    });
    t.wakeBy(nowUs() - 10);
    expect(fired).toBe(0);
    await new Promise((r) => setImmediate(r));
    expect(fired).toBe(1);
  });
});
