// Each fact extractor against real log lines (quoted from the corpus and ComfyUI's own formats).
import { describe, expect, it } from 'vitest';
import { factsOf } from '../helpers/kb.ts';
import { sample } from '../helpers/corpus.ts';

describe('the exception and which memory ran out', () => {
  it('reads the CUDA caching allocator message and its numbers (PyTorch 2.x)', () => {
    const f = factsOf(
      'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.25 GiB. GPU 0 has a total capacity of 7.98 GiB of which 1.45 GiB is free. Of the allocated memory 5.91 GiB is allocated by PyTorch, and 237.18 MiB is reserved by PyTorch but unallocated.',
    );
    expect(f.oom).toBe('cuda');
    expect(f.exception?.type).toBe('OutOfMemoryError');
    expect(f).toMatchObject({ requestedGb: 2.25, totalGb: 7.98, freeGb: 1.45, allocatedGb: 5.91 });
    expect(f.reservedUnallocatedGb).toBeCloseTo(0.232, 3);
    expect(f.requestFitsFree).toBe(false);
    expect(f.freeShare).toBeCloseTo(0.182, 3);
  });

  it('reads the PyTorch 1.x wording', () => {
    const f = factsOf('RuntimeError: CUDA out of memory. Tried to allocate 1024.00 MiB (GPU 0; 12.00 GiB total capacity; 9.34 GiB already allocated; 0 bytes free; 10.44 GiB reserved in total by PyTorch)');
    expect(f).toMatchObject({ oom: 'cuda', requestedGb: 1, totalGb: 12, allocatedGb: 9.34, freeGb: 0 });
  });

  it("reads cudaMallocAsync's column-aligned block", () => {
    const f = factsOf(sample('cf-0118').text);
    expect(f).toMatchObject({ oom: 'cuda', node: 'KSampler', stage: 'sampling', totalGb: 2, freeGb: 0, allocatedGb: 1.7 });
    expect(f.requestedGb).toBeCloseTo(0.0098, 4);
  });

  it('knows HIP, MPS, DirectML, XPU and system-RAM wordings', () => {
    expect(factsOf('!!! Exception during processing!!! HIP out of memory. Tried to allocate 16.00 MiB.').oom).toBe('hip');
    const mps = factsOf('RuntimeError: MPS backend out of memory (MPS allocated: 8.72 GB, other allocations: 110.16 MB, max allowed: 9.07 GB). Tried to allocate 405.00 MB on private pool.');
    expect(mps).toMatchObject({ oom: 'mps', allocatedGb: 8.72, totalGb: 9.07 });
    expect(factsOf('Could not allocate tensor with 83877888 bytes. There is not enough GPU video memory available!').oom).toBe('directml');
    expect(factsOf('KSampler : XPU out of memory. Tried to allocate 128.00 GiB. GPU 0 has a total capacity of 15.56 GiB.').oom).toBe('xpu');
    const ram = factsOf('RuntimeError: [enforce fail at alloc_cpu.cpp:72] data. DefaultCPUAllocator: not enough memory: you tried to allocate 5242880 bytes.');
    expect(ram.oom).toBe('ram');
    expect(ram.requestedGb).toBeCloseTo(0.005, 3);
  });

  it('reads the page-file error in any language by its number', () => {
    expect(factsOf('OSError: 页面文件太小，无法完成操作。 (os error 1455)').signatures).toContain('pagefile_1455');
    const es = factsOf('!!! Exception during processing !!! El archivo de paginación es demasiado pequeño para completar la operación. (os error 1455)');
    expect(es).toMatchObject({ oom: 'ram', primarySignature: 'pagefile_1455' });
  });

  it('recognises the Linux OOM killer', () => {
    expect(factsOf('./start.sh: line 3: 12345 Killed                  python main.py --listen').oom).toBe('ram');
    expect(factsOf('Out of memory: Killed process 4242 (python3) total-vm:64G').signatures).toContain('process_killed');
  });

  it('lets the exception line decide: memory words elsewhere are context', () => {
    const f = factsOf(sample('cf-0069').text); // mat1/mat2 with "loaded partially" noise
    expect(f.oom).toBeUndefined();
    expect(f.primarySignature).toBe('mat1_mat2');
  });

  it('treats ComfyUI recovering by tiled VAE decoding as a warning, not the failure', () => {
    const f = factsOf('Warning: Ran out of memory when regular VAE decoding, retrying with tiled VAE decoding.\nPrompt executed in 12.3 seconds');
    expect(f.oom).toBeUndefined();
    expect(f.recoveredVaeTiling).toBe(true);
  });

  it('re-joins a wrapped allocator message', () => {
    const f = factsOf(sample('cf-0341').text);
    expect(f).toMatchObject({ requestFitsFree: true, totalGb: 23.99, freeGb: 21.48 });
  });
});

describe('the failing node and stage', () => {
  it('reads the node from the error report, the old toast, and a bare dialog line', () => {
    expect(factsOf(sample('cf-0004').text)).toMatchObject({ node: 'KSampler', stage: 'sampling' });
    expect(factsOf(sample('cf-0009').text)).toMatchObject({ node: 'VAEDecode', stage: 'vae_decode' });
    expect(factsOf(sample('cf-0117').text)).toMatchObject({ node: 'CheckpointLoaderSimple', stage: 'model_load' });
    expect(factsOf(sample('cf-0236').text)).toMatchObject({ node: 'ReActorFaceSwap', stage: 'detector' });
  });

  it("does not take a program's status word just above the error for a node's title", () => {
    expect(factsOf('writing manifest\nsuccess\nError: model requires more system memory (164.8 GiB) than is available (13.4 GiB)')).not.toHaveProperty('node');
    expect(factsOf('Prompt outputs failed validation\nbackground\ntorch.OutOfMemoryError: Allocation on device')).not.toHaveProperty('node');
    // A title as the dialog shows it is one still.
    expect(factsOf('UNETLoader\ntorch.OutOfMemoryError: Allocation on device')).toMatchObject({ node: 'UNETLoader', stage: 'model_load' });
  });

  it('takes a node that loads a pipeline for a loader', () => {
    expect(factsOf('Error occurred when executing PipelineLoader: Allocation on device')).toMatchObject({ node: 'PipelineLoader', stage: 'model_load' });
    expect(factsOf('Error occurred when executing DownloadAndLoadCogVideoPipeline: Allocation on device').stage).toBe('model_load');
    // A node that runs one samples.
    expect(factsOf('Error occurred when executing HunyuanVideoPipeline: Allocation on device').stage).toBe('sampling');
  });

  it("does not take PyTorch's data classes in a sentence for nodes", () => {
    expect(factsOf('I get CUDA out of memory in texture generation even after reducing the batch size in the DataLoader.').stage).toBeUndefined();
    expect(factsOf('Training stops with CUDA out of memory; I use a WeightedRandomSampler for the dataset.').stage).not.toBe('sampling');
    // A node of that shape the user names is one still.
    expect(factsOf('I get CUDA out of memory in the UNETLoader every time.').stage).toBe('model_load');
  });

  it('falls back to the innermost stack frame', () => {
    expect(factsOf(sample('cf-0081').text).stage).toBe('model_load'); // model_patcher .to(device)
    expect(factsOf(sample('cf-0124').text).stage).toBe('vae_decode'); // comfy/sd.py decode
  });

  it('uses "Requested to load" when nothing else names the stage', () => {
    expect(factsOf('got prompt\nRequested to load FluxClipModel_\nLoading 1 new model\n!!! Exception during processing!!! Allocation on device').stage).toBe('text_encoder');
    expect(factsOf('Requested to load WAN21\nloaded partially 128.0 125.5 0\n  0%|          | 0/4 [00:00<?, ?it/s]\n!!! Exception during processing !!! Allocation on device').stage).toBe('sampling');
  });

  it("takes llama.cpp's loading steps for loading", () => {
    const log = ['llm_load_tensors: offloading 32 repeating layers to GPU', 'llama_new_context_with_model: KV self size  = 5120.00 MiB', 'ggml_backend_cuda_buffer_type_alloc_buffer: allocating 144.00 MiB on device 4: cudaMalloc failed: out of memory'];
    expect(factsOf(log.join('\n')).stage).toBe('model_load');
  });

  it('takes quantizing weights as they load for loading', () => {
    expect(factsOf('Loading Mistral\nLoading weights: 100%|██████████| 585/585 [00:00<00:00, 3077.62it/s]\nQuantizing Mistral\nError running job: CUDA error: out of memory').stage).toBe('model_load');
  });

  it('does not take a part a program lists by name near the error for the stage that failed', () => {
    const oom = 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.78 GiB.';
    expect(factsOf(`${oom}\nLoading Model 'ckpts/model.safetensors' ...\nHooked to model 'text_encoder' (LlavaForConditionalGeneration)`).stage).toBeUndefined();
    expect(factsOf(`StateDict Keys: {'transformer': 1722, 'vae': 244, 'text_encoder': 196}\n${oom}`).stage).toBeUndefined();
    // Said, not quoted, it still tells; and a quoted path is where the code was.
    expect(factsOf(`Error in the text encoder:\n${oom}`).stage).toBe('text_encoder');
    expect(factsOf(`File "comfy/text_encoders/lt.py", in encode_token_weights\n${oom}`).stage).toBe('text_encoder');
  });

  it("takes a video wrapper's announcement that it starts sampling for the stage running", () => {
    const log = (line: string) => `Input (height, width, video_length) = (320, 512, 85)\n${line}\n!!! Exception during processing !!! Allocation on device`;
    expect(factsOf(log('2024-12-11 12:54:48,525 - hyvideo - INFO - Sampling 85 frames in 22 latents at 512x320 with 30 inference steps')).stage).toBe('sampling');
    expect(factsOf(log('Sampling 81 frames at 832x480 with 25 steps')).stage).toBe('sampling');
    // The number is what makes it the announcement.
    expect(factsOf(log('Sampling frames preview enabled')).stage).toBeUndefined();
  });

  it('does not take a finished progress bar for what was running when the error came', () => {
    const stage = (bar: string, after = '') => factsOf(`got prompt\n${bar}\n${after}!!! Exception during processing !!! Allocation on device`).stage;
    // Sampling stopped part-way: it was sampling.
    expect(stage(' 45%|████▌     | 9/20 [00:05<00:06,  1.71it/s]')).toBe('sampling');
    // The bar reached its end: what ran next (a decode, another sampler's first step) printed nothing.
    expect(stage('100%|██████████| 50/50 [01:05<00:00,  1.32s/it]')).toBeUndefined();
    expect(stage('20/20 [00:05<00:00,  3.71it/s]')).toBeUndefined();
    // Unless the log says what came next.
    expect(stage('100%|██████████| 20/20 [00:05<00:00,  3.71it/s]', 'Requested to load AutoencoderKL\n')).toBe('vae_decode');
  });

  it('takes the words around the error when the user names the stage', () => {
    expect(factsOf('[ERROR] Error in Phase 1 (Encoding): CUDA out of memory. Tried to allocate 2.67 GiB.').stage).toBe('vae_encode');
  });
});

describe('the machine and the install', () => {
  it('reads the startup banner', () => {
    const f = factsOf(sample('cf-0107').text);
    expect(f).toMatchObject({
      vramGb: 8,
      ramGb: 15.9,
      torchVersion: '2.6.0+cu126',
      comfyuiVersion: '0.3.19',
      gpuName: 'NVIDIA GeForce RTX 3060 Ti',
      gpuVendor: 'nvidia',
      backend: 'cuda',
      os: 'windows',
      install: 'portable',
      attention: 'pytorch',
    });
    expect(f.flags).toContain('--windows-standalone-build');
  });

  it('recognises ZLUDA and AMD from the device line', () => {
    const f = factsOf(sample('cf-0053').text);
    expect(f).toMatchObject({ backend: 'zluda', gpuVendor: 'amd', gpuName: 'AMD Radeon RX 5700 XT' });
  });

  it('names a GeForce card written as its bare number only where the words around make it a card', () => {
    const named = (line: string) => {
      const f = factsOf(`${line}\ntorch.OutOfMemoryError: CUDA out of memory.`);
      return f.gpuName === undefined ? undefined : `${f.gpuName} (${f.gpuVendor})`;
    };
    expect(named('my 3060 12GB runs out')).toBe('3060 (nvidia)');
    expect(named('4080 SUPER, 32G RAM')).toBe('4080 SUPER (nvidia)');
    expect(named('用的是2070的显卡')).toBe('2070 (nvidia)');
    expect(named('on a 1650 (4G)')).toBe('1650 (nvidia)');
    // A line, a resolution, a size in MB, a card only mentioned: no card of the user's.
    expect(named('  File "x.py", line 1080, in run')).toBeUndefined();
    expect(named('animate 1080 p videos')).toBeUndefined();
    expect(named('loaded 2080 MB')).toBeUndefined();
    expect(named('runs well only on 4090 or A100')).toBeUndefined();
    // A Radeon's bare number stays a Radeon.
    expect(named('7900 XTX 24GB')).toBe('7900 XTX (amd)');
  });

  it('names workstation and data-centre cards as people write them', () => {
    const named = (line: string) => factsOf(`${line}\ntorch.OutOfMemoryError: CUDA out of memory.`).gpuName;
    expect(named('Running on RTX-A6000 on HyperStack')).toBe('RTX-A6000');
    expect(named('an RTX A4000 16GB')).toBe('RTX A4000');
    expect(named('I run it on A100 40G')).toBe('A100 40G');
    expect(named('租的 H800 80G 也爆显存')).toBe('H800 80G');
    expect(named('A100 80GB PCIe')).toBe('A100 80GB');
  });

  it("names AMD's APUs as people write them (their graphics share the system's memory)", () => {
    expect(factsOf('I am running ComfyUI Desktop on an Asus Flow Z13 with AMD 395 Max+ with 128GByte unified memory')).toMatchObject({ gpuName: 'AMD 395 Max', gpuVendor: 'amd' });
    expect(factsOf('Laptop with a Radeon 780M, 32 GB shared')).toMatchObject({ gpuName: 'Radeon 780M', gpuVendor: 'amd' });
    expect(factsOf('Device: cuda:0 AMD Ryzen AI Max+ 395 w/ Radeon 8060S')).toMatchObject({ gpuVendor: 'amd' });
  });

  it('reads the VRAM a user gives right after their card, however the card is written', () => {
    const vram = (line: string) => factsOf(`${line}\ntorch.OutOfMemoryError: CUDA out of memory.`).vramGb;
    expect(vram('GPU is 4070 12GB')).toBe(12);
    expect(vram('Windows 11, 1660Ti 6GB, 16GB RAM')).toBe(6);
    expect(vram('vae decode 爆显存，4050,6g')).toBe(6);
    expect(vram('my graphics card is ntx1060 6G')).toBe(6);
    expect(vram('I run the T2V generation on A100 40G')).toBe(40);
    expect(vram('RTX 3060 (12GB)')).toBe(12);
    // A size after something else is no card's.
    expect(vram('rtx 3060,i3-12100f,16gbs ram')).toBeUndefined();
    expect(vram('loaded 3060 MB, 12 GB free')).toBeUndefined();
  });

  it("reads the About panel's versions and launch flags (Chinese UI)", () => {
    const f = factsOf(sample('cf-0054').text);
    expect(f.comfyuiVersion).toBe('0.3.59');
    expect(f.torchVersion).toBe('2.7.0+cu128');
    expect(f.flags).toEqual(expect.arrayContaining(['--cuda-malloc']));
  });

  it('reads VRAM and RAM from what people write', () => {
    expect(factsOf('4060ti 16G 显存。文生视频可以').vramGb).toBe(16);
    expect(factsOf('my spec: rtx 3060,i3-12100f,16gbs ram(8x2),').ramGb).toBe(16);
  });

  it('infers flags from ComfyUI log lines and reads dynamic VRAM state', () => {
    const f = factsOf('Set vram state to: LOW_VRAM\nDisabling smart memory management\nDynamicVRAM support detected and enabled');
    expect(f.flags).toEqual(['--disable-smart-memory', '--lowvram']);
    expect(f.dynamicVram).toBe(true);
    expect(factsOf('No working comfy-aimdo install detected. DynamicVRAM support disabled. Falling back to legacy ModelPatcher.').dynamicVram).toBe(false);
  });

  it('takes every flag of a launch command, but only ComfyUI flags from prose', () => {
    expect(factsOf('I tried --medvram, --lowvram and --not-a-flag already').flags).toEqual(['--lowvram']);
    expect(factsOf('python main.py --listen --lowvram').flags).toEqual(['--listen', '--lowvram']);
  });

  it('tells apps apart and macOS paths', () => {
    expect(factsOf(sample('cf-0034').text).app).toBe('a1111');
    expect(factsOf(sample('cf-0109').text).app).toBe('fooocus');
    expect(factsOf(sample('cf-0091').text)).toMatchObject({ os: 'macos', backend: 'mps', install: 'desktop' });
  });
});
