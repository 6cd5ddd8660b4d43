// A small seeded generator (xorshift128+ on doubles) so random ops are reproducible.
export class Rng {
  private s0: number;
  private s1: number;

  constructor(seed: number) {
    this.s0 = (seed ^ 0x9e3779b9) >>> 0 || 1;
    this.s1 = (Math.imul(seed, 0x85ebca6b) ^ 0xc2b2ae35) >>> 0 || 2;
    for (let i = 0; i < 8; i++) this.nextU32();
  }

  private nextU32(): number {
    let a = this.s0;
    const b = this.s1;
    this.s0 = b;
    a ^= a << 11;
    a ^= a >>> 8;
    this.s1 = (a ^ b ^ (b >>> 19)) >>> 0;
    return (this.s1 + this.s0) >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return (this.nextU32() * 2 ** 21 + (this.nextU32() >>> 11)) / 2 ** 53;
  }

  /** Standard normal (Box-Muller). */
  normal(): number {
    let u = this.next();
    while (u === 0) u = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }
}
