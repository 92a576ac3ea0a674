/**
 * Kernel releases and the ranges expectations are conditioned on (`kernel: ">=6.12"`). A release
 * (`uname -r`: 6.12.118+deb12-amd64, 6.1.0-57-amd64, 7.3.0-rc2) is compared by its leading
 * numbers; a range is space-separated comparators that must all hold: `>=6.12`, `<6.13`, `=6.1.0`,
 * or a bare series (`6.12`) that every 6.12.x release matches.
 */

const COMPARATOR = /^(>=|<=|>|<|=)?(\d+)(?:\.(\d+))?(?:\.(\d+))?$/;

/** The numbers a release starts with, as [major, minor, patch]; undefined when it starts with none. */
export function releaseNumbers(release: string): [number, number, number] | undefined {
  const match = /^(\d+)\.(\d+)(?:\.(\d+))?/.exec(release);
  if (match === null) return undefined;
  return [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)];
}

/** Why `range` is not a kernel range, or undefined when it is one. */
export function kernelRangeProblem(range: string): string | undefined {
  const parts = range.trim().split(/\s+/);
  const bad = parts.find((part) => !COMPARATOR.test(part));
  if (range.trim() === '' || bad !== undefined) {
    return `${JSON.stringify(bad ?? range)} is not a kernel range: use comparators such as ">=6.12", "<6.13", "=6.1.0" or a series such as "6.12", space-separated`;
  }
  return undefined;
}

const compare = (a: readonly number[], b: readonly number[]) => {
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) - (b[i] ?? 0);
  return 0;
};

/** Whether `release` lies in `range` (kernelRangeProblem(range) must be undefined). */
export function releaseInRange(release: string, range: string): boolean {
  const numbers = releaseNumbers(release);
  if (numbers === undefined) return false;
  return range
    .trim()
    .split(/\s+/)
    .every((part) => {
      const [, op, major, minor, patch] = COMPARATOR.exec(part) as RegExpExecArray;
      const wanted = [Number(major), Number(minor ?? 0), Number(patch ?? 0)];
      if (op === undefined) {
        // A bare series: 6.12 matches every 6.12.x; 6 every 6.x.y.
        return numbers[0] === wanted[0] && (minor === undefined || numbers[1] === wanted[1]) && (patch === undefined || numbers[2] === wanted[2]);
      }
      const order = compare(numbers, wanted);
      return op === '>=' ? order >= 0 : op === '<=' ? order <= 0 : op === '>' ? order > 0 : op === '<' ? order < 0 : order === 0;
    });
}
