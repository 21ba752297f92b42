// Which project's files start first. vitest runs the projects' files in the order of the projects'
// names, which left the screenshot files, the longest of all, for last: the OCR corpus then ran
// alone on one core for its last half-minute while the other had nothing left to do.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const FIRST = ['screenshots', 'platforms'];

export default class ScreenshotsFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = FIRST.indexOf(f.project.name);
      return i < 0 ? FIRST.length : i;
    };
    // Within a project, vitest's own order: the slowest of the last run first.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}
