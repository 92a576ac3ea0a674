/**
 * rdmavt's receive ring (struct rvt_rwq): `size` slots, one always empty, so a ring of
 * size max_wr + 1 holds exactly max_wr WQEs. Full when head + 1 == tail (modulo size).
 */
export class WqeRing<T> {
  private readonly slots: (T | undefined)[];
  private head = 0;
  private tail = 0;

  constructor(readonly size: number) {
    this.slots = new Array<T | undefined>(size);
  }

  get count(): number {
    return (this.head - this.tail + this.size) % this.size;
  }

  isFull(): boolean {
    return (this.head + 1) % this.size === this.tail;
  }

  /** Queues at the head; false when the ring is full. */
  push(item: T): boolean {
    if (this.isFull()) return false;
    this.slots[this.head] = item;
    this.head = (this.head + 1) % this.size;
    return true;
  }

  /** Takes the oldest entry (the tail), FIFO like rvt_get_rwqe. */
  shift(): T | undefined {
    if (this.head === this.tail) return undefined;
    const item = this.slots[this.tail];
    this.slots[this.tail] = undefined;
    this.tail = (this.tail + 1) % this.size;
    return item;
  }

  /** Takes the newest entry (the head): what a LIFO bug would consume. */
  pop(): T | undefined {
    if (this.head === this.tail) return undefined;
    this.head = (this.head - 1 + this.size) % this.size;
    const item = this.slots[this.head];
    this.slots[this.head] = undefined;
    return item;
  }

  /** The oldest entry, without taking it. */
  peek(): T | undefined {
    return this.head === this.tail ? undefined : this.slots[this.tail];
  }

  /** Everything queued, oldest first, without taking it. */
  toArray(): T[] {
    const out: T[] = [];
    for (let i = this.tail; i !== this.head; i = (i + 1) % this.size) out.push(this.slots[i] as T);
    return out;
  }
}
