import fs from 'node:fs';
import path from 'node:path';

/**
 * Prints the slowest browser tests and test files from the suites' JSON reports, for CI's summary
 * (.ci/run): `node tools/slowest-tests.ts playwright.json vitest.json…` (Node 24, as the project's). A report that is missing or
 * unreadable (its part failed before writing it) is left out; the tool never fails the run.
 */

const top = 10;

interface PlaywrightSuite {
  title: string;
  file?: string;
  specs?: Array<{ title: string; file: string; line: number; tests: Array<{ projectName?: string; results: Array<{ duration: number }> }> }>;
  suites?: PlaywrightSuite[];
}

/** Each browser test's time (its runs summed): `file:line title`, in ms. */
function browserTests(report: { suites?: PlaywrightSuite[] }): Array<[string, number]> {
  const found: Array<[string, number]> = [];
  const visit = (suite: PlaywrightSuite, titles: string[]) => {
    for (const spec of suite.specs ?? []) {
      const ms = spec.tests.flatMap((t) => t.results).reduce((sum, r) => sum + r.duration, 0);
      found.push([`${spec.file}:${spec.line} ${[...titles, spec.title].join(' › ')}`, ms]);
    }
    // The top suites are files, whose titles the location already says.
    for (const child of suite.suites ?? []) visit(child, child.file === child.title ? titles : [...titles, child.title]);
  };
  for (const suite of report.suites ?? []) visit(suite, []);
  return found;
}

/** The browser tests' time summed per Playwright project: each project's chain of work, whichever worker ran it. */
function browserProjects(report: { suites?: PlaywrightSuite[] }): Array<[string, number]> {
  const sums = new Map<string, number>();
  const visit = (suite: PlaywrightSuite) => {
    for (const test of (suite.specs ?? []).flatMap((spec) => spec.tests)) {
      const name = test.projectName ?? '';
      sums.set(name, (sums.get(name) ?? 0) + test.results.reduce((sum, r) => sum + r.duration, 0));
    }
    for (const child of suite.suites ?? []) visit(child);
  };
  for (const suite of report.suites ?? []) visit(suite);
  return [...sums];
}

/** Each test file's time, from its start to its end, per run of it (a file of tests/api runs once per database). */
function testFiles(report: { testResults?: Array<{ name: string; startTime: number; endTime: number }> }): Array<[string, number]> {
  return (report.testResults ?? []).map((file) => [path.relative(process.cwd(), file.name), file.endTime - file.startTime]);
}

function read(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

function print(title: string, rows: Array<[string, number]>) {
  if (!rows.length) return;
  console.log(`\n${title}:`);
  for (const [name, ms] of rows.sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${(ms / 1000).toFixed(1).padStart(6)} s  ${name}`);
}

const browser: Array<[string, number]> = [];
const projects: Array<[string, number]> = [];
const files: Array<[string, number]> = [];
for (const file of process.argv.slice(2)) {
  const report = read(file) as Record<string, unknown> | undefined;
  if (!report) continue;
  if ('suites' in report) {
    browser.push(...browserTests(report));
    projects.push(...browserProjects(report));
  } else if ('testResults' in report) files.push(...testFiles(report));
}
print('Browser tests summed per project', projects);
print(`Slowest browser tests (of ${browser.length})`, browser);
print(`Slowest vitest files (of ${files.length} file runs)`, files);
