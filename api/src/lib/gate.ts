// Admission control in one process: at most `limit` tasks run at once, the others wait their
// turn in order, in memory, holding nothing. Used where the database would make them wait
// anyway (a lock) and a waiter would otherwise sit on a pool connection that every other
// request needs (decision 030).
export class Gate {
  #running = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new Error('a gate needs a limit of at least 1');
  }

  /** Tasks running now. */
  get running(): number {
    return this.#running;
  }

  /** Tasks waiting for a turn. */
  get waiting(): number {
    return this.#waiting.length;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#running < this.limit) this.#running += 1;
    // The slot is handed over by the task that ends (release), not taken back here.
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#running -= 1;
    }
  }
}
