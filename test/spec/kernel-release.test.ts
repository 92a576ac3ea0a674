import { describe, expect, it } from 'vitest';
import { kernelRangeProblem, releaseInRange, releaseNumbers } from '../../spec/kernel-release.js';

describe('kernel releases and ranges', () => {
  it('reads the numbers a release starts with', () => {
    expect(releaseNumbers('6.12.118+deb12-amd64')).toEqual([6, 12, 118]);
    expect(releaseNumbers('6.1.0-57-amd64')).toEqual([6, 1, 0]);
    expect(releaseNumbers('7.3-rc2')).toEqual([7, 3, 0]);
    expect(releaseNumbers('unknown')).toBeUndefined();
  });

  it('matches comparators together and a bare series as a prefix of numbers, not of text', () => {
    expect(releaseInRange('6.12.118+deb12-amd64', '>=6.12')).toBe(true);
    expect(releaseInRange('6.1.0-57-amd64', '>=6.12')).toBe(false);
    expect(releaseInRange('6.1.0-57-amd64', '6.1')).toBe(true);
    expect(releaseInRange('6.12.118+deb12-amd64', '6.1')).toBe(false);
    expect(releaseInRange('6.12.118+deb12-amd64', '>6.1 <6.13')).toBe(true);
    expect(releaseInRange('6.13.0', '>6.1 <6.13')).toBe(false);
    expect(releaseInRange('6.1.0', '=6.1.0')).toBe(true);
    expect(releaseInRange('weird', '>=1')).toBe(false);
  });

  it('says what is wrong with a range that is not one', () => {
    expect(kernelRangeProblem('>=6.12')).toBeUndefined();
    expect(kernelRangeProblem('newest')).toMatch(/"newest" is not a kernel range/);
    expect(kernelRangeProblem('')).toMatch(/not a kernel range/);
    expect(kernelRangeProblem('>=6.12 ~6')).toMatch(/"~6"/);
  });
});
