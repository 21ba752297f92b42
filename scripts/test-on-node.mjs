// `npm run test:node -- 24 [vitest arguments]`: the test suite on another Node line than the one this
// machine has. The Node binary comes from the npm registry (the platform package the `node` package
// installs, with its headers, so the native modules compile against it); the project is copied
// (its tracked and new files, as they are now) into a folder of its own, installed there with that
// Node first on PATH, and tested there. Both are kept under node_modules/.cache for the next run.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const [line, ...testArgs] = process.argv.slice(2);
if (!line || !/^\d+$/.test(line)) {
  process.stderr.write('usage: npm run test:node -- MAJOR [vitest arguments]   (e.g. npm run test:node -- 24)\n');
  process.exit(2);
}

/** Runs a command, its output shown; ends this script with the command's code when it fails. */
function run(cmd, args, o = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...o });
  if (r.status !== 0) {
    process.stderr.write(`test:node: ${cmd} ${args.join(' ')} failed (${r.error?.message ?? `exit ${r.status ?? r.signal}`})\n`);
    process.exit(r.status || 1);
  }
  return r;
}

const cache = join(root, 'node_modules', '.cache', 'comfyoom-node', line);
const pkg = `node-${process.platform}-${process.arch}`;
const home = join(cache, 'node', 'node_modules', pkg);
const node = join(home, 'bin', 'node');
if (!existsSync(node)) {
  mkdirSync(join(cache, 'node'), { recursive: true });
  run('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', join(cache, 'node'), `${pkg}@${line}`]);
}
const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
process.stderr.write(`test:node: Node ${version} (${pkg} from the npm registry)\n`);

// The project as it is now, without what it installed or built: those are made again for this Node.
const project = join(cache, 'project');
rmSync(project, { recursive: true, force: true });
const files = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' }).stdout.split('\0').filter(Boolean);
for (const f of files) if (existsSync(join(root, f))) cpSync(join(root, f), join(project, f));

// npm itself runs on the Node found first on PATH; node-gyp compiles against that Node's headers.
const env = { ...process.env, PATH: `${join(home, 'bin')}:${process.env.PATH}`, npm_config_nodedir: home };
run('npm', ['ci', '--no-audit', '--no-fund'], { cwd: project, env });
const tests = spawnSync('npm', ['test', '--', ...testArgs], { cwd: project, env, stdio: 'inherit' });
process.stderr.write(`test:node: the suite on Node ${version} ${tests.status === 0 ? 'passed' : 'failed'}\n`);
process.exit(tests.status ?? 1);
