/**
 * Fault points for the faults suite (tests/faults): `SITEKEEPER_FAULTS=after-commit:0.2` makes the
 * process kill itself (SIGKILL, no clean-up) at that point of a request, one time in five. Read once
 * at start; unset in every real installation, where a fault point costs one map lookup.
 */
const chances = new Map(
  (process.env.SITEKEEPER_FAULTS ?? '')
    .split(',')
    .map((entry) => entry.trim().split(':'))
    .filter(([name, chance]) => name && Number(chance) > 0)
    .map(([name, chance]) => [name!, Number(chance)]),
);

export type FaultPoint = 'after-commit';

export function faultPoint(name: FaultPoint): void {
  const chance = chances.get(name);
  if (chance !== undefined && Math.random() < chance) process.kill(process.pid, 'SIGKILL');
}
