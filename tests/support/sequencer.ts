import { BaseSequencer, type TestSpecification } from 'vitest/node';

const everyRoute = (file: TestSpecification) => file.project.name === 'server-mocks';

/**
 * Vitest's own order (its cache of durations, else the largest file first), with the suites over
 * every route (the `server-mocks` project: fuzz, authorization, mass assignment; a minute each) in
 * front: last by project name, they ran on alone at the end while the other worker sat idle (a fresh
 * clone, as in CI, has no cache of durations to reorder them by).
 */
export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // Vitest's sequencer, not an array's sort.
    // oxlint-disable-next-line unicorn/no-array-sort
    const sorted = await super.sort(files);
    return [...sorted.filter(everyRoute), ...sorted.filter((file) => !everyRoute(file))];
  }
}
