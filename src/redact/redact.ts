// Pastes are stored so moderators can learn from them; personal data and secrets are not. Each
// rule replaces what it finds with a placeholder that keeps the log readable.

interface Rule {
  name: string;
  re: RegExp;
  replace: string | ((m: string, ...groups: string[]) => string);
}

const RULES: Rule[] = [
  // Secrets first, so a token inside a URL or path is caught whole.
  { name: 'discord-token', re: /\b[MNO][A-Za-z\d_-]{23,27}\.[A-Za-z\d_-]{6}\.[A-Za-z\d_-]{27,40}\b/g, replace: '<discord-token>' },
  { name: 'slack-token', re: /\bxox[abposr]-[A-Za-z0-9-]{10,120}\b|\bxapp-\d-[A-Za-z0-9-]{10,120}\b/g, replace: '<slack-token>' },
  { name: 'slack-webhook', re: /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/]{10,80}/g, replace: '<slack-webhook>' },
  { name: 'hf-token', re: /\bhf_[A-Za-z0-9]{30,40}\b/g, replace: '<hf-token>' },
  { name: 'api-key', re: /\b(?:sk|pk|rk)-(?:proj-|ant-)?[A-Za-z0-9_-]{20,120}\b|\bgh[pousr]_[A-Za-z0-9]{30,60}\b|\bAKIA[0-9A-Z]{16}\b|\bAIza[0-9A-Za-z_-]{35}\b|\bglpat-[A-Za-z0-9_-]{20}\b/g, replace: '<api-key>' },
  { name: 'bearer', re: /\b(Bearer|Bot)\s[A-Za-z0-9._~+/-]{20,200}=*/g, replace: '$1 <token>' },
  {
    name: 'secret-assignment',
    re: /\b((?:api[_-]?key|apikey|token|secret|password|passwd|access[_-]?key|auth)[\w-]{0,20}\s{0,2}[=:]\s{0,2}["']?)(?!Bearer\s|Bot\s|<)[^\s"'&]{6,200}/gi,
    replace: '$1<secret>',
  },
  { name: 'url-credentials', re: /\b([a-z][a-z0-9+.-]{1,20}:\/\/)[^\s/:@]{1,100}:[^\s/@]{1,100}@/gi, replace: '$1<user>:<secret>@' },
  { name: 'url-secret-param', re: /([?&](?:token|key|api_key|apikey|sig|signature|secret|access_token|auth)=)[^&\s#]{1,300}/gi, replace: '$1<secret>' },
  { name: 'email', re: /\b[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9.-]{1,200}\.[A-Za-z]{2,24}\b/g, replace: '<email>' },
  // Home folders name their owner: C:\Users\alice, /home/alice, /Users/alice (and localized forms).
  { name: 'windows-home', re: /\b([A-Za-z]:[\\/]{1,2}(?:Users|Usuários|Usuarios|Utilisateurs|Benutzer|Documents and Settings)[\\/]{1,2})(?!Public\b|Default\b|All Users\b)[^\\/:*?"<>|\r\n]{1,64}/gi, replace: '$1<user>' },
  { name: 'unix-home', re: /(\/(?:home|Users)\/)(?!Shared\b)[^/\s:'"]{1,64}/g, replace: '$1<user>' },
  { name: 'ipv4', re: /\b(?:25[0-5]|2[0-4]\d|1?\d?\d)(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3}\b/g, replace: (m) => (m === '127.0.0.1' || m === '0.0.0.0' ? m : '<ip>') },
  { name: 'ipv6', re: /\b(?:[0-9a-f]{1,4}:){7}[0-9a-f]{1,4}\b|\b(?:[0-9a-f]{1,4}:){1,6}:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4}\b/gi, replace: '<ip>' },
];

export function redact(text: string): string {
  let out = text;
  for (const rule of RULES) out = out.replace(rule.re, rule.replace as string);
  return out;
}
