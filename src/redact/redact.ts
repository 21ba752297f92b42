// Pastes are stored so moderators can learn from them; personal data and secrets are not.
// Provider tokens are found by secretlint's recommended rules (kept up to date by people who
// track those formats); what is ours to know comes after: shell prompts, git's names, home
// folders, addresses, webhooks, cookies, `NAME_SECRET=` assignments and secret URL parameters.
// Each find becomes a placeholder that keeps the log readable.
import { LazyIndex, requiredLiterals } from '../classify/literals.ts';

interface Rule {
  re: RegExp;
  replace: string | ((m: string, ...groups: string[]) => string);
}

/** A name that says its value is secret: token, api_key, DB_PASSWORD, aws_secret_access_key, private_token... */
const SECRET_NAME = String.raw`[\w.-]{0,40}(?:token|secret|passw(?:or)?d|passwd|pwd|api[_-]?key|apikey|access[_-]?key|private[_-]?key|client[_-]?secret|credentials?|auth)[\w.-]{0,20}`;

/**
 * How many characters follow each provider token's prefix, for a token a terminal or a forum
 * wrapped at 80 columns: the line ends inside it, and the rest starts the next line.
 */
const TOKEN_LENGTH: Record<string, number> = { hf_: 34, r8_: 37, ghp_: 36, gho_: 36, ghu_: 36, ghs_: 36, ghr_: 36, github_pat_: 82, AKIA: 16, ASIA: 16, AIza: 35, 'glpat-': 20 };
/** A first line on its own, long and holding a capital or a digit, as an identifier (hf_hub_download) does not. */
const CUT_TOKEN = /^(?=[\w-]{0,80}[A-Z\d])[\w-]{16,}$/;

// A home folder's separators: up to eight backslashes, as each JSON string a path is nested in
// doubles them (a workflow holding a JSON string holding a path), though not the backslash that
// begins a name's `\uXXXX` escape. The name's characters may be such escapes (J\u00f6rg,
// \u5f20\u4e09), their backslash doubled by the same nesting.
const HOME_SEP = String.raw`[\\/](?:[\\/](?!u[0-9a-fA-F]{4})){0,7}`;
const NAME_ESCAPE = String.raw`\\{1,4}u[0-9a-fA-F]{4}`;

/** Cookie attributes (Path=/, Expires=...) say nothing about the user and stay readable. */
const COOKIE_ATTRIBUTE = /^(?:path|domain|expires|max-age|samesite|priority)$/i;

const RULES: Rule[] = [
  // A shell prompt names the user and the machine: bash's alice@box:~/dir$ (root@container:/x# on
  // a rented GPU), Fedora's [bob@box dir]$, Git Bash's carol@PC MINGW64 ~/dir, zsh's dave@Mac dir %.
  // Before the e-mail rule, which would take alice@box.lan: and leave the prompt unreadable.
  {
    re: /(?<![\p{L}\p{N}_.+%-])[\p{L}\p{N}_.-]{1,32}@[A-Za-z0-9][\w.-]{0,62}(?=:[~/][^\r\n$#]{0,200}[$#](?:\s|$)| [^\]\r\n]{1,100}\][$#]| (?:MINGW32|MINGW64|MSYS|UCRT64|CLANG64|CLANGARM64) | [^\s%]{1,100} %(?:\s|$))/gu,
    replace: '<user>@<host>',
  },
  // Who commits: git config -l's user.name=Jane Doe, `git config user.name "Jane Doe"`, git log's
  // Author: Jane Doe <jane@x.org>. Before the e-mail rule, which would leave the name.
  { re: /(?<![\w.])(user\.name(?:=|\s{1,3}(?=["'])))(?:(["'])[^"'\r\n]{1,100}\2|[^\s"'][^\r\n]{0,99})/g, replace: '$1$2<user>$2' },
  { re: /(?<![\w.])(user\.email(?:=|\s{1,3}(?=["'])))(?:(["'])[^"'\r\n]{1,320}\2|[^\s"']{1,320})/g, replace: '$1$2<email>$2' },
  { re: /\b((?:Author|Commit|Committer|Signed-off-by|Co-authored-by):[ \t]{1,12})[^<>\r\n]{1,100}<[^<>\s]{1,320}>/g, replace: '$1<user> <email>' },
  // A provider token split over two lines: the first line ends inside it, and the next holds only
  // the rest (after an indent), so that a log line after a whole token is never taken for its end.
  // The line break may be a JSON string's `\n`. A first line alone (a fact holds one line) is
  // hidden too when it is long enough and mixed enough to be no identifier (hf_hub_download).
  {
    re: /\b(hf_|r8_|gh[pousr]_|github_pat_|AKIA|ASIA|AIza|glpat-)([\w-]{1,81})(?:(\r?\n|(?:\\r)?\\n)[ \t]{0,40}([\w-]{1,81})(?![\w-])|(?=\r?\n|\\r|\\n|$))/g,
    replace: (m, prefix, head, lineBreak, tail) => {
      const n = TOKEN_LENGTH[prefix]!;
      if (head.length >= n) return m;
      if (tail !== undefined && head.length + tail.length === n) return `<api-key>${lineBreak}`;
      return CUT_TOKEN.test(head) ? `<api-key>${m.slice(prefix.length + head.length)}` : m;
    },
  },
  // Tokens secretlint has no rule for, with shapes that cannot be mistaken.
  { re: /\b[MNO][A-Za-z\d_-]{23,27}\.[A-Za-z\d_-]{6}\.[A-Za-z\d_-]{27,40}\b/g, replace: '<discord-token>' },
  { re: /https:\/\/(?:(?:canary|ptb)\.)?discord(?:app)?\.com\/api\/webhooks\/\d{5,30}\/[\w-]{20,100}/gi, replace: '<discord-webhook>' },
  { re: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9/_-]{10,120}/g, replace: '<slack-webhook>' },
  { re: /\beyJ[\w-]{8,2000}\.eyJ[\w-]{8,4000}\.[\w-]{8,1000}/g, replace: '<jwt>' },
  { re: /\b(?:sk|pk|rk)-(?:[a-z]{2,10}-)?[A-Za-z0-9_-]{20,200}|\bhf_[A-Za-z0-9]{30,40}\b|\br8_[A-Za-z0-9]{30,40}\b|\bgh[pousr]_[A-Za-z0-9]{30,60}\b|\bgithub_pat_\w{40,120}|\bxox[abposre]-[A-Za-z0-9-]{10,200}|\bxapp-\d-[A-Za-z0-9-]{10,200}|\b(?:AKIA|ASIA)[0-9A-Z]{16}\b|\bcomfyui-[0-9a-fA-F]{64}\b|\bAIza[0-9A-Za-z_-]{35}\b|\bglpat-[A-Za-z0-9_-]{20,}/g, replace: '<api-key>' },
  { re: /\b(Bearer|Bot|Basic|token)\s[A-Za-z0-9._~+/-]{20,2000}=*/g, replace: '$1 <token>' },
  // NAME=value, NAME: value, "name": "value", token="..." (quoted values may hold spaces).
  // JSON escapes the quotes of a value inside a string (`"cmd": "token=\\"abc\\""`): `\\"` quotes too.
  {
    re: new RegExp(String.raw`(\b${SECRET_NAME}["']?\s{0,3}[=:]\s{0,3})(\\?["'])(?!<)[^"'\\\n]{4,500}\2`, 'gi'),
    replace: '$1$2<secret>$2',
  },
  {
    re: new RegExp(String.raw`(\b${SECRET_NAME}\s{0,3}[=:]\s{0,3})(?!Bearer\s|Bot\s|<|["'])[^\s"'&,;]{4,500}`, 'gi'),
    replace: '$1<secret>',
  },
  // A name in words: [Civitai] Using API key: ..., aws configure's AWS Secret Access Key [None]: ...
  {
    re: /\b((?:api|access|secret|private|auth|session|client|refresh)(?:\s(?:access|api))?\s(?:key|token|secret)(?:\sid)?(?:\s\[[^\]\r\n]{0,20}\])?\s{0,3}[=:]\s{0,3})(["']?)(?!<)[^\s"'&,;]{4,500}\2/gi,
    replace: '$1$2<secret>$2',
  },
  // Every cookie a Cookie or Set-Cookie header carries is a session, whatever its name.
  {
    re: /\b((?:Set-)?Cookie["']?\s{0,3}:\s{0,3}["']?)([^\r\n"']{1,4000})/gi,
    replace: (_m, head, pairs) => head + pairs.replace(/([^\s=;]{1,100})=[^;]{0,4000}/g, (pair: string, name: string) => (COOKIE_ATTRIBUTE.test(name) ? pair : `${name}=<secret>`)),
  },
  { re: /\b([a-z][a-z0-9+.-]{1,20}:\/\/)[^\s/:@]{1,100}:[^\s/@]{1,200}@/gi, replace: '$1<user>:<secret>@' },
  { re: /([?&#;](?:[\w.-]{0,30}(?:token|key|sig|signature|secret|password|passwd|auth|session|credential)[\w.-]{0,20})=)[^&\s#"'<>]{1,500}/gi, replace: '$1<secret>' },
  // The same URL inside another's query (a redirect, a proxy), percent-encoded once or twice.
  {
    re: /(%(?:25)?(?:3F|26|23|3B)(?:[\w.-]{0,30}(?:token|key|sig|signature|secret|password|passwd|auth|session|credential)[\w.-]{0,20})%(?:25)?3D)(?:[^%&\s#"'<>\\]|%(?!(?:25)?(?:26|23))[0-9A-Fa-f]{2}){1,500}/gi,
    replace: '$1<secret>',
  },
  // Local parts in any script (欧阳娜娜@qq.com, jörg.müller@...), and the @ as an HTML entity.
  {
    re: /(?<![\p{L}\p{N}_.%+-])[\p{L}\p{N}_.%+-]{1,64}(?:@|&#64;|&#x40;)[\p{L}\p{N}-]{1,63}(?:\.[\p{L}\p{N}-]{1,63}){0,8}\.\p{L}{2,24}(?![\p{L}\p{N}_])/giu,
    replace: '<email>',
  },
  // Home folders name their owner: C:\Users\alice, \\server\share\Users\bob, \\wsl$\Ubuntu\home\carol,
  // /mnt/c/Users/dave, /home/erin, /Users/frank, /users/grace, /root is nobody's name. Names may hold spaces.
  {
    re: new RegExp(
      String.raw`((?:\b[A-Za-z]:|\\\\[^\\/\s]{1,64}\\[^\\/\s]{1,64}|\\\\\?\\[A-Za-z]:)?[\\/]{1,8}(?:Users|Usuários|Usuarios|Utilisateurs|Benutzer|Utenti|Documents and Settings|home)${HOME_SEP})(?!Public\b|Default\b|All Users\b|Shared\b|<user>)(?:${NAME_ESCAPE}|[^\\/:*?"<>|\r\n]){1,64}(?=[\\/])`,
      'gi',
    ),
    replace: '$1<user>',
  },
  // A home folder that ends the path, as a JSON string's "cwd": "C:\\Users\\alice" does.
  {
    re: new RegExp(String.raw`((?:\b[A-Za-z]:)?[\\/]{1,8}(?:Users|home)${HOME_SEP})(?!Public\b|Default\b|Shared\b|<user>)(?:${NAME_ESCAPE}|[^\\/\s:'"<>|]){1,64}`, 'gi'),
    replace: '$1<user>',
  },
  { re: /\b(?:25[0-5]|2[0-4]\d|1?\d?\d)(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3}\b/g, replace: (m) => (m === '127.0.0.1' || m === '0.0.0.0' ? m : '<ip>') },
  {
    re: /\[?\b(?:[0-9a-f]{1,4}:){7}[0-9a-f]{1,4}\b\]?|\[?\b(?:[0-9a-f]{1,4}:){1,6}:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4}\b(?:%[\w.]{1,20})?\]?/gi,
    replace: '<ip>',
  },
];

/** What our own rules hide, synchronously. */
function redactOwn(text: string): string {
  let out = text;
  for (const rule of RULES) out = out.replace(rule.re, rule.replace as string);
  return out;
}

// The literal text each rule's matches hold (a `.`, an `@`, `token`...), for short values that
// hold none of most: looked for in one pass, and again only after a rule changed the value.
// Read when the index is built: a one-off diagnosis never needs them.
let ruleNeeds: (number[] | undefined)[] = [];
const RULE_INDEX = new LazyIndex(() => {
  const needs = RULES.map((r) => requiredLiterals(r.re.source, 1));
  const list = [...new Set(needs.flatMap((l) => l ?? []))];
  ruleNeeds = needs.map((l) => l?.map((x) => list.indexOf(x)));
  return list;
}, 256);

/**
 * Short values already redacted, with what they became. Most of a batch's values come from fixed
 * vocabularies (an OS, a backend, a signature's id, a flag) and recur in every paste; a long one
 * (an exception's message) is left out, as it seldom recurs. Emptied when full.
 */
const redactedShort = new Map<string, string>();
const SHORT = 32;

/** redactOwn for the many values of a batch: a short one once, each by the rules whose literals it holds. */
function redactOwnShort(text: string): string {
  const known = text.length <= SHORT ? redactedShort.get(text) : undefined;
  if (known !== undefined) return known;
  const out = redactByRules(text);
  if (text.length <= SHORT) {
    if (redactedShort.size >= 4096) redactedShort.clear();
    redactedShort.set(text, out);
  }
  return out;
}

/** redactOwn, trying only the rules whose literals the value holds. */
function redactByRules(text: string): string {
  const index = RULE_INDEX.get();
  if (!index) return redactOwn(text);
  let out = text;
  let present = index.find(out);
  for (let i = 0; i < RULES.length; i++) {
    const needs = ruleNeeds[i];
    if (needs && !needs.some((id) => present.includes(id))) continue;
    const next = out.replace(RULES[i]!.re, RULES[i]!.replace as string);
    if (next === out) continue;
    out = next;
    present = index.find(out);
  }
  return out;
}

/**
 * secretlint with its recommended rules, loaded when a text is first redacted by it: loading it
 * takes about 30 ms, which a batch (redacted by our rules alone) and a --raw diagnosis never need.
 */
let secretlint: Promise<(text: string) => ReturnType<typeof import('@secretlint/core').lintSource>> | undefined;
async function loadSecretlint() {
  const [{ lintSource }, { secretLintProfiler }, { creator: recommended }] = await Promise.all([
    import('@secretlint/core'),
    import('@secretlint/profiler'),
    import('@secretlint/secretlint-rule-preset-recommend'),
  ]);
  // secretlint's profiler records about a hundred performance marks per run and keeps them all,
  // in its own lists and in Node's global buffer: a bot that redacts for months must not profile.
  secretLintProfiler.mark = () => undefined;
  const config = { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: recommended }] };
  return (text: string) => lintSource({ source: { filePath: '/paste.txt', content: text, contentType: 'text' }, options: { config } });
}

/** The ranges secretlint's recommended rules flag, merged and in order. */
async function flagged(text: string): Promise<[number, number][]> {
  const result = await (await (secretlint ??= loadSecretlint()))(text);
  const ranges = result.messages.map((m) => [m.range[0], m.range[1]] as [number, number]).sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const r of ranges) {
    const last = merged[merged.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push(r);
  }
  return merged;
}

/** A paste (or any text a user sent) with secrets and personal data replaced by placeholders. */
export async function redact(text: string): Promise<string> {
  let out = '';
  let at = 0;
  for (const [start, end] of await flagged(text)) {
    out += `${text.slice(at, start)}<secret>`;
    at = end;
  }
  return redactOwn(out + text.slice(at));
}

/** Every string inside a value (facts, a workflow, a diagnosis) redacted; the shape and other values kept. */
export async function redactValues<T>(value: T): Promise<T> {
  if (typeof value === 'string') return (await redact(value)) as T;
  if (Array.isArray(value)) return (await Promise.all(value.map((v) => redactValues(v)))) as T;
  if (value && typeof value === 'object') {
    const entries = await Promise.all(Object.entries(value).map(async ([k, v]) => [k, await redactValues(v)] as const));
    return Object.fromEntries(entries) as T;
  }
  return value;
}

/**
 * Every string inside a value through our own rules only, synchronously: for output at volume
 * (a batch of thousands of pastes), where secretlint's cost per value would dominate. Our rules
 * know the usual token shapes too, only not every provider's.
 */
export function redactValuesQuickly<T>(value: T): T {
  if (typeof value === 'string') return redactOwnShort(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactValuesQuickly(v)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const redacted = redactValuesQuickly((value as Record<string, unknown>)[key]);
      // A parsed workflow may hold a key named __proto__: it stays a key, never the prototype.
      if (key === '__proto__') Object.defineProperty(out, key, { value: redacted, enumerable: true, writable: true, configurable: true });
      else out[key] = redacted;
    }
    return out as T;
  }
  return value;
}
