// Launch lines as the user will copy them: a step's change (flags to add or take off, a variable to
// set) applied to the user's own line, in the form their install uses. The log says which install
// it is and, when it shows one, the line itself; only when it cannot tell are several forms shown.
import { compareVersions } from '../classify/conditions.ts';
import type { Facts } from '../classify/facts/types.ts';
import type { Kb } from '../kb/load.ts';
import type { Flag, LaunchChange, Script, Text } from '../kb/schema.ts';
import { inEvery, listed } from '../i18n/messages.ts';
import { format, P } from './strings.ts';

/** One way to apply a step, for one kind of install. */
export interface Snippet {
  /** Who it is for: "Windows portable (run_nvidia_gpu.bat)". */
  label: Text;
  /** What to do with the code, when it is more than "run this". */
  how?: Text;
  /** What to type, paste or put in the file. */
  code?: string;
}

export type Target = 'portable-nvidia' | 'portable-amd' | 'portable-intel' | 'portable-either' | 'zluda' | 'desktop' | 'docker' | 'launcher' | 'manual-windows' | 'manual-posix' | 'manual';

/** The install forms to show: the one the log shows, or each it leaves possible. */
export function targetsFor(facts: Facts): Target[] {
  const amd = facts.gpuVendor === 'amd' || facts.backend === 'rocm';
  const intel = facts.gpuVendor === 'intel' || facts.backend === 'xpu' || facts.oom === 'xpu';
  const portable: Target = amd ? 'portable-amd' : intel ? 'portable-intel' : facts.gpuVendor === 'nvidia' || facts.backend === 'cuda' ? 'portable-nvidia' : 'portable-either';
  const manual: Target = facts.os === 'windows' ? 'manual-windows' : facts.os ? 'manual-posix' : 'manual';
  if (facts.install === 'desktop') return ['desktop'];
  if (facts.backend === 'zluda') return ['zluda'];
  if (facts.install === 'portable') return [portable];
  if (facts.install === 'docker') return ['docker'];
  if (facts.install === 'launcher') return ['launcher'];
  if (facts.install === 'manual') return [manual];
  // Portable builds exist for Windows only, the Desktop app for Windows and macOS.
  if (facts.os === 'windows') return [portable, 'manual-windows'];
  if (facts.os === 'macos') return ['desktop', 'manual-posix'];
  if (facts.os === 'linux') return ['manual-posix'];
  return [portable, 'manual'];
}

const isFlag = (token: string) => token.startsWith('--');
const nameOf = (token: string) => token.split('=')[0]!.toLowerCase();

/** The flags a change puts on the line, each with its values. */
function flagsWithValues(add: string[]): { flag: string; values: string[] }[] {
  const out: { flag: string; values: string[] }[] = [];
  for (const token of add) {
    if (isFlag(token)) out.push({ flag: nameOf(token), values: [] });
    else out.at(-1)?.values.push(token);
  }
  return out;
}

/**
 * The line's arguments after the change: flags taken off with their values (as many as each takes),
 * an added flag's earlier copy and the other members of its argparse group replaced, the new flags
 * at the end. Flags the catalogue does not know are the user's own and stay as they are.
 */
export function editArgs(args: string[], change: LaunchChange, flags: ReadonlyMap<string, Flag>): string[] {
  const added = flagsWithValues(change.add).map((a) => a.flag);
  const groups = new Set(added.map((f) => flags.get(f)?.group).filter(Boolean));
  const drop = (flag: string) => change.remove.includes(flag) || added.includes(flag) || (!!flags.get(flag)?.group && groups.has(flags.get(flag)!.group));
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const token = args[i]!;
    if (!isFlag(token) || !drop(nameOf(token))) {
      out.push(token);
      continue;
    }
    if (token.includes('=')) continue;
    const arg = flags.get(nameOf(token))?.arg ?? 'none';
    if (arg === 'one') i++;
    else if (arg === 'optional' || arg === 'many') while (i + 1 < args.length && !isFlag(args[i + 1]!) && (arg === 'many' || !/^-/.test(args[i + 1]!))) {
      i++;
      if (arg === 'optional') break;
    }
  }
  return [...out, ...change.add];
}

const code = (flags: string[]) => flags.map((f) => `\`${f}\``).join(' ');

/** "add `--reserve-vram 2` at the end; take `--highvram` off", in every language. */
function describe(change: LaunchChange, posix = false): Text {
  const parts: Text[] = [];
  if (change.add.length) parts.push(format(P.how.addAtEnd, { flags: `\`${change.add.join(' ')}\`` }));
  if (change.remove.length) parts.push(format(P.how.remove, { flags: code(change.remove) }));
  if (change.env) parts.push(posix ? P.how.envInFront : P.how.envAbove);
  return inEvery((lang) => listed(parts.map((p) => p[lang]), lang));
}

/** A .bat or a console line: `set` goes on its own line above; a shell takes it in front. */
function withEnv(line: string, env: LaunchChange['env'], posix: boolean): string {
  if (!env) return line;
  return posix ? `${env.name}=${env.value} ${line}` : `set ${env.name}=${env.value}\n${line}`;
}

/** The legacy app: a Server-Config setting per flag, the settings file for the rest; the newer app: its Startup Args tab. */
function desktopSnippets(change: LaunchChange, facts: Facts, kb: Pick<Kb, 'flags' | 'launch'>): Snippet[] {
  const d = kb.launch.desktop;
  const out: Snippet[] = [];
  const inFile: Record<string, string> = {};
  const setting = (flag: string, value: string | Text) => {
    const path = kb.flags.get(flag)?.desktop?.path;
    if (path) out.push({ label: P.label.desktop, how: format(P.how.desktopSetting, { settings: d.settings, path, value }) });
    return !!path;
  };
  for (const { flag, values } of flagsWithValues(change.add)) {
    const desktop = kb.flags.get(flag)?.desktop;
    const value = desktop?.value === 'on' ? P.on : (desktop?.value ?? values.join(' '));
    if (!setting(flag, value)) inFile[flag.slice(2)] = values.join(' ');
  }
  for (const flag of change.remove) {
    const reset = kb.flags.get(flag)?.desktop?.reset;
    setting(flag, reset === 'off' ? P.off : (reset ?? ''));
  }
  if (Object.keys(inFile).length) {
    out.push({
      label: P.label.desktop,
      how: format(P.how.desktopFile, { flags: code(Object.keys(inFile).map((f) => `--${f}`)), file: d.file, key: d.key }),
      code: `"${d.key}": ${JSON.stringify(inFile)}`,
    });
  }
  // The app's process takes its environment from the account (Windows) or from launchd (macOS).
  if (change.env) out.push({ label: P.label.desktop, how: format(facts.os === 'macos' ? P.how.desktopEnvMac : P.how.desktopEnv, { name: change.env.name, value: change.env.value }) });
  if (change.add.length || change.remove.length) out.push({ label: P.label.comfyDesktop, how: format(P.how.comfyDesktopArgs, { path: d.startupArgs, change: describe({ ...change, env: undefined }) }) });
  if (change.env) out.push({ label: P.label.comfyDesktop, how: format(P.how.comfyDesktopEnv, { path: d.environment, name: change.env.name, value: change.env.value }) });
  return out;
}

/**
 * The flags a launch file ships with, as the log's build has them: a flag newer than the build (or
 * any newer one when no build shows) is left out, since an older ComfyUI refuses it and won't start.
 */
function shippedArgs(args: string[], facts: Facts, flags: ReadonlyMap<string, Flag>): string[] {
  return args.filter((a) => {
    const since = flags.get(a)?.since?.version;
    return !since || (!!facts.comfyuiVersion && compareVersions(facts.comfyuiVersion, since) >= 0);
  });
}

/** A placeholder redaction left in a value (`<user>`, `<secret>`). */
const REDACTED = /<[a-z][a-z_-]{0,20}>/i;

/** The change, as each install form the log leaves possible would apply it, on a line that keeps `kept` (flags earlier steps added). */
export function renderLaunch(change: LaunchChange, facts: Facts, kb: Pick<Kb, 'flags' | 'launch'>, kept: readonly string[] = []): Snippet[] {
  const { launch } = kb;
  // Newer builds hide path values in /system_stats's argv as `*`, and stored facts are redacted
  // (`C:\Users\<user>\…`, where `<` is a redirection in a .bat): the line keeps the place, not the value.
  const own = facts.launchArgs?.map((t) => (t === '*' || REDACTED.test(t) ? '…' : t));
  const yours = own?.includes('…') ? P.how.yourLineHidden : P.how.yourLine;
  const snippet = (label: Text, template: Text, script: Script, posix: boolean): Snippet => {
    // Flags an earlier step of the case added stay on the line (after the user's own).
    const shipped = script.args && shippedArgs(script.args, facts, kb.flags);
    const base = kept.length ? [...(own ?? shipped ?? ['…']), ...kept] : (own ?? shipped);
    const how = format(own ? yours : template, { file: script.file ?? '', change: describe(change, posix) });
    // Without the user's flags or the file's own, a line with only the removal in it would read as "drop all your flags".
    if (!base && !change.add.length && !change.env) return { label, how };
    const line = script.line.replace('{args}', editArgs(base ?? ['…'], change, kb.flags).join(' ')).trimEnd();
    return { label, how, code: withEnv(line, change.env, posix) };
  };
  return targetsFor(facts).flatMap((target): Snippet[] => {
    switch (target) {
      case 'desktop':
        return desktopSnippets(change, facts, kb);
      case 'launcher':
        return [{ label: P.label.launcher, how: format(P.how.launcher, { change: describe(change, false) }) }];
      case 'docker':
        return [snippet(P.label.docker, P.how.dockerLine, launch.docker, true)];
      case 'zluda':
        return [snippet(format(P.label.zluda, { file: launch.zluda.file! }), P.how.zludaLine, launch.zluda, false)];
      case 'manual-windows':
        return [snippet(P.label.manualWindows, P.how.manualLine, launch.manual, false)];
      case 'manual-posix':
        return [snippet(P.label.manualPosix, P.how.manualLine, launch.manual, true)];
      case 'manual':
        // The OS is unknown: a variable is set differently in a Windows console and a shell.
        return change.env
          ? [snippet(P.label.manualWindows, P.how.manualLine, launch.manual, false), snippet(P.label.manualPosix, P.how.manualLine, launch.manual, true)]
          : [snippet(P.label.manual, P.how.manualLine, launch.manual, true)];
      case 'portable-amd':
        return [snippet(format(P.label.portableAmd, { file: launch.portable.amd.file! }), P.how.portableLine, launch.portable.amd, false)];
      case 'portable-intel':
        return [snippet(format(P.label.portableIntel, { file: launch.portable.intel.file! }), P.how.portableLine, launch.portable.intel, false)];
      case 'portable-nvidia':
        return [snippet(format(P.label.portableNvidia, { file: launch.portable.nvidia.file! }), P.how.portableLine, launch.portable.nvidia, false)];
      case 'portable-either':
        return [snippet(format(P.label.portableEither, { file: launch.portable.nvidia.file!, amdFile: launch.portable.amd.file! }), P.how.portableLine, launch.portable.nvidia, false)];
    }
  });
}

/**
 * A command that is not the launch line, in the form of the install the log shows (or both). Its
 * label says where to run it: the install's folder, or `runIn` (a custom node's folder).
 */
export function renderCommand(command: { portable?: string; manual?: string; runIn?: Text }, facts: Facts): Snippet[] {
  const { portable, manual, runIn } = command;
  if (portable && portable === manual) return [{ label: P.label.command, code: portable }];
  const targets = targetsFor(facts);
  const showPortable = !!portable && (targets.some((t) => t.startsWith('portable')) || !manual);
  const showOther = !!manual && (targets.some((t) => !t.startsWith('portable')) || !portable);
  const portableLabel = runIn ? format(P.label.portableCommandIn, { where: runIn }) : P.label.portableCommand;
  const otherLabel = runIn ? format(P.label.otherCommandIn, { where: runIn }) : P.label.otherCommand;
  return [
    ...(showPortable ? [{ label: portableLabel, code: portable! }] : []),
    ...(showOther ? [{ label: otherLabel, code: manual! }] : []),
  ];
}
