// Every fixed string the bot shows, in both languages. Kb text carries its own translations.
import type { Text } from '../kb/schema.ts';

export type Lang = 'en' | 'zh';

export const t = (text: Text, lang: Lang) => text[lang];

/** "Label: value", with Chinese's full-width colon (no space after it) in Chinese. */
export const labelled = (label: string, value: string, lang: Lang) => (lang === 'zh' ? `${label}：${value}` : `${label}: ${value}`);
/** A heading ending in a colon, full-width in Chinese. */
export const heading = (label: string, lang: Lang) => `${label}${lang === 'zh' ? '：' : ':'}`;
/** Items of a list inside a sentence. */
export const listed = (items: string[], lang: Lang) => items.join(lang === 'zh' ? '；' : '; ');

/** Chinese when the user writes Chinese: more than a few Han characters in the paste. */
export function detectLang(text: string): Lang {
  const han = text.match(/[\u4e00-\u9fff]/g)?.length ?? 0;
  return han >= 4 ? 'zh' : 'en';
}

export const M = {
  diagnosis: { en: 'Diagnosis', zh: '诊断' },
  whatHappened: { en: 'What happened', zh: '发生了什么' },
  whatTheLogSays: { en: 'What your log shows', zh: '日志里的信息' },
  evidence: { en: 'Evidence', zh: '依据' },
  plan: { en: 'Fix plan (one step at a time; check each before the next)', zh: '修复步骤（一次只做一步，确认结果后再做下一步）' },
  why: { en: 'Why', zh: '原因' },
  verify: { en: 'How to check', zh: '如何确认' },
  skipped: { en: 'Skipped for your setup', zh: '根据你的环境跳过' },
  moreIdeas: { en: 'More ideas, if none of these helps (less likely for your setup)', zh: '更多办法（以上都无效时再试，对你的环境可能性较小）' },
  alreadyApplied: { en: 'already applied or useless with your setup', zh: '已在使用，或在你的环境下无效' },
  doesNotApply: { en: 'does not apply to your setup', zh: '不适用于你的环境' },
  lowConfidence: {
    en: 'I am not sure about this reading. If it looks wrong, paste the full console log as text (not a screenshot).',
    zh: '我对这个判断没有把握。如果看起来不对，请以文字形式粘贴完整的控制台日志（不要截图）。',
  },
  sources: { en: 'Sources', zh: '来源' },
  truncated: { en: 'Your paste was very long; I read its beginning and its end.', zh: '你粘贴的内容太长，我只读取了开头和结尾部分。' },
  otherApp: {
    en: 'This log comes from {app}, not ComfyUI. The steps below are written for ComfyUI: {app} has launch options and settings of its own, so take the idea of each step, not its exact flag or node.',
    zh: '这份日志来自 {app}，不是 ComfyUI。下面的步骤是按 ComfyUI 写的：{app} 有自己的启动参数和设置，请参考每一步的思路，不要照搬其中的参数或节点。',
  },
  effort: { en: 'effort', zh: '工作量' },
  effortLevel: {
    low: { en: 'low', zh: '低' },
    medium: { en: 'medium', zh: '中' },
    high: { en: 'high', zh: '高' },
  },
  facts: {
    oom: { en: 'Memory that ran out', zh: '耗尽的内存' },
    stage: { en: 'Failing stage', zh: '出错阶段' },
    node: { en: 'Failing node', zh: '出错节点' },
    gpuName: { en: 'GPU', zh: '显卡' },
    vramGb: { en: 'VRAM', zh: '显存' },
    ramGb: { en: 'System RAM', zh: '系统内存' },
    os: { en: 'OS', zh: '系统' },
    backend: { en: 'Backend', zh: '后端' },
    requestedGb: { en: 'Tried to allocate', zh: '尝试分配' },
    freeGb: { en: 'Free at the time', zh: '当时空闲' },
    totalGb: { en: 'Device total', zh: '设备总量' },
    reservedUnallocatedGb: { en: 'Reserved by PyTorch but unused', zh: 'PyTorch 已保留但未使用' },
    flags: { en: 'Launch flags', zh: '启动参数' },
    attention: { en: 'Attention', zh: '注意力实现' },
    dynamicVram: { en: 'Dynamic VRAM', zh: '动态显存 (Dynamic VRAM)' },
    torchVersion: { en: 'PyTorch', zh: 'PyTorch' },
    comfyuiVersion: { en: 'ComfyUI', zh: 'ComfyUI' },
    app: { en: 'App', zh: '程序' },
    install: { en: 'Install', zh: '安装方式' },
    workflow: { en: 'Workflow renders', zh: '工作流出图' },
    workflowModels: { en: 'Workflow models', zh: '工作流模型' },
  },
  values: {
    cuda: { en: 'GPU memory (CUDA)', zh: '显存 (CUDA)' },
    hip: { en: 'GPU memory (AMD HIP)', zh: '显存 (AMD HIP)' },
    mps: { en: 'unified memory (Apple MPS)', zh: '统一内存 (Apple MPS)' },
    directml: { en: 'GPU memory (DirectML)', zh: '显存 (DirectML)' },
    xpu: { en: 'GPU memory (Intel XPU)', zh: '显存 (Intel XPU)' },
    ram: { en: 'system RAM', zh: '系统内存' },
    on: { en: 'on', zh: '开启' },
    off: { en: 'off', zh: '关闭' },
    frames: { en: 'frames', zh: '帧' },
    tiledVae: { en: 'VAE Decode (Tiled)', zh: 'VAE Decode (Tiled) 分块解码' },
    plainVae: { en: 'plain VAE Decode', zh: '普通 VAE Decode' },
  },
  /** What the facts' own words (a stage, an install) read as. */
  stage: {
    sampling: { en: 'sampling', zh: '采样' },
    vae_decode: { en: 'VAE decode', zh: 'VAE 解码' },
    vae_encode: { en: 'VAE encode', zh: 'VAE 编码' },
    model_load: { en: 'loading the model', zh: '加载模型' },
    text_encoder: { en: 'text encoder', zh: '文本编码器' },
    upscale: { en: 'upscaling', zh: '放大' },
    detector: { en: 'detection or segmentation', zh: '检测或分割' },
    training: { en: 'training', zh: '训练' },
    other: { en: 'another node', zh: '其他节点' },
  },
  install: {
    portable: { en: 'Windows portable', zh: 'Windows 便携版' },
    desktop: { en: 'ComfyUI Desktop', zh: 'ComfyUI 桌面版' },
    docker: { en: 'Docker', zh: 'Docker' },
    manual: { en: 'manual (venv)', zh: '手动安装（venv）' },
    launcher: { en: 'a one-click bundle with its own launcher (秋叶/绘世)', zh: '自带启动器的整合包（秋叶/绘世）' },
  },
} as const satisfies Record<string, unknown>;
