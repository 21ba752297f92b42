// Workflow JSON and /system_stats pasted or attached next to the error.
import { describe, expect, it } from 'vitest';
import { planSteps } from '../../src/plan/plan.ts';
import { classify, factsOf, kb } from '../helpers/kb.ts';
import { sample } from '../helpers/corpus.ts';

const uiWorkflow = JSON.stringify({
  last_node_id: 9,
  nodes: [
    { id: 4, type: 'CheckpointLoaderSimple', widgets_values: ['sd_xl_base_1.0.safetensors'] },
    { id: 5, type: 'EmptyLatentImage', widgets_values: [1536, 1536, 2] },
    { id: 3, type: 'KSampler', widgets_values: [42, 'randomize', 20, 7, 'euler', 'normal', 1] },
    { id: 8, type: 'VAEDecode', widgets_values: [] },
  ],
  links: [],
});
const apiVideoWorkflow = JSON.stringify({
  '37': { class_type: 'UNETLoader', inputs: { unet_name: 'wan2.1_t2v_14B_fp16.safetensors', weight_dtype: 'default' } },
  '40': { class_type: 'EmptyHunyuanLatentVideo', inputs: { width: 1280, height: 720, length: 81, batch_size: 1 } },
  '8': { class_type: 'VAEDecodeTiled', inputs: { tile_size: 512, overlap: 64, samples: ['3', 0], vae: ['39', 0] } },
});
const systemStats = (os: string) =>
  JSON.stringify({
    system: { os, ram_total: 34359738368, ram_free: 1e10, comfyui_version: '0.3.40', python_version: '3.12.7', pytorch_version: '2.7.0+cu128', embedded_python: true, argv: ['main.py', '--windows-standalone-build', '--lowvram'] },
    devices: [{ name: 'cuda:0 NVIDIA GeForce RTX 4060 Ti : cudaMallocAsync', type: 'cuda', index: 0, vram_total: 17175674880, vram_free: 1e9, torch_vram_total: 0, torch_vram_free: 0 }],
  });

describe('workflow JSON', () => {
  it('reads size, batch, models and the VAE decode kind from the UI format', () => {
    expect(factsOf(uiWorkflow)).toMatchObject({
      workflowWidth: 1536,
      workflowHeight: 1536,
      workflowBatch: 2,
      workflowModels: ['sd_xl_base_1.0.safetensors'],
      workflowTiledVae: false,
      suggestedWidth: 1024,
      suggestedHeight: 1024,
    });
  });

  it('reads frames and tiled decoding from the API format', () => {
    expect(factsOf(apiVideoWorkflow)).toMatchObject({ workflowWidth: 1280, workflowHeight: 720, workflowFrames: 81, workflowTiledVae: true, videoWorkflow: true, suggestedFrames: 41 });
  });

  it('makes the plan quote the workflow: "1536x1536 x2; try 1024x1024 x1 first"', () => {
    const d = classify(`${sample('cf-0214').text}\n${uiWorkflow}`);
    expect(d.category).toBe('oom_gpu_sampling');
    const step = planSteps(d.entry, d.facts, kb).steps.find((s) => s.id === 'reduce-workload')!;
    expect(step.text.en).toMatch(/1536×1536 with a batch of 2.*1024×1024 with batch_size 1/s);
    expect(step.text.zh).toMatch(/1536×1536.*1024×1024/s);
    expect(step.text.en).not.toMatch(/\{\w+\}/);
  });

  it('tells a user who already decodes in tiles to shrink the tiles instead', () => {
    const d = classify(`${sample('cf-0009').text}\n${apiVideoWorkflow}`);
    const step = planSteps(d.entry, d.facts, kb).steps.find((s) => s.id === 'tiled-vae-decode')!;
    expect(step.text.en).toMatch(/already use VAE Decode \(Tiled\)/);
  });
});

describe('/system_stats', () => {
  it.each(['nt', 'win32'])('reads the machine (os reported as %s)', (os) => {
    const f = factsOf(systemStats(os));
    expect(f).toMatchObject({ os: 'windows', ramGb: 32, vramGb: 16, gpuName: 'NVIDIA GeForce RTX 4060 Ti', gpuVendor: 'nvidia', backend: 'cuda', comfyuiVersion: '0.3.40', torchVersion: '2.7.0+cu128', install: 'portable' });
    expect(f.flags).toEqual(['--lowvram', '--windows-standalone-build']);
  });

  it('feeds the plan: --lowvram is not offered again', () => {
    const d = classify(`${sample('cf-0081').text}\n${systemStats('nt')}`);
    expect(d.category).toBe('oom_gpu_model_load');
    expect(planSteps(d.entry, d.facts, kb).steps.map((s) => s.id)).not.toContain('lowvram');
  });
});
