#!/usr/bin/env node
// The naive keyword classifier every figure of ours is compared with: lowercase the paste, test a
// dozen keywords, first hit wins. `node bench/keyword-baseline.mjs FILE.jsonl` answers like
// `comfyoom diagnose --batch` (one {"id","category"} line per {"id","text"} line), so
// ../shared/tools/score-corpus.mjs can score it with --cmd; bench/classifier.ts times it.
import { readFileSync } from 'node:fs';

const RULES = [
  ['oom_mps', ['mps backend out of memory']],
  ['oom_directml', ['not enough gpu video memory', 'could not allocate tensor']],
  ['oom_amd_hip', ['hip out of memory', 'zluda', 'rocm']],
  ['oom_cpu_ram', ['defaultcpuallocator', 'paging file', 'os error 1455', 'killed', 'memoryerror']],
  ['oom_gpu_vae', ['vaedecode', 'vae decode', 'vaeencode']],
  ['oom_gpu_model_load', ['checkpointloader', 'load_models_gpu', 'unetloader']],
  ['oom_gpu_sampling', ['ksampler', 'sampler']],
];
const GPU_OOM = ['out of memory', 'outofmemoryerror', 'allocation on device'];

export function keywordCategory(text) {
  const t = text.toLowerCase();
  const gpu = GPU_OOM.some((k) => t.includes(k));
  for (const [category, words] of RULES) {
    if (!words.some((w) => t.includes(w))) continue;
    if (category === 'oom_cpu_ram' || category === 'oom_mps' || category === 'oom_directml' || gpu) return category;
  }
  return gpu ? 'oom_gpu_other' : 'not_oom';
}

if (process.argv[2]) {
  for (const line of readFileSync(process.argv[2], 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const { id, text } = JSON.parse(line);
    console.log(JSON.stringify({ id, category: keywordCategory(text) }));
  }
}
